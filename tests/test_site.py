import dataclasses

from stemmer import analyze
from stemmer.blocks import parse_html, segment
from stemmer.layout.model import AnalyzeParams
from stemmer.site import SiteCollector, collect_site
from stemmer.urls import normal_url

DATE = "2024-05-01"


def test_link_texts_name_the_pages_they_point_to(site_pages):
    collector = collect_site("example.com", site_pages)
    texts = collector.link_texts()
    # index page j links to articles j..j+3: article 3 is named by all four index pages
    assert texts["http://example.com/news/3.html"] == ["Bakery Wins Award for Rye Bread"] * 4
    assert texts["http://example.com/news/0.html"] == ["Council Approves Harbour Footbridge"]
    assert "http://example.com/news/index0.html" not in texts  # nothing links to it


def test_a_page_kept_for_its_links_only_is_not_learned(site_pages):
    collector = SiteCollector("example.com")
    for page in site_pages:
        root = parse_html(page.html)
        collector.add_parsed(page, root, segment(root, with_links=True), learn="index" not in page.id)
    assert [p.id for p in collector.pages] == [f"example.com/news/{i}.html" for i in range(6)]
    # the index pages' links still name the articles; the index pages are no targets
    assert set(collector.link_texts()) == {f"http://example.com/news/{k}.html" for k in range(6)}
    assert len(collector.sample) == 10  # every page may teach the site model


def test_a_page_with_no_html_element_costs_its_site_nothing(site_pages):
    empty = dataclasses.replace(site_pages[0], id="example.com/news/empty.html", url="http://example.com/news/empty.html",
                                   html="<!-- nothing -->")
    collector = collect_site("example.com", [*site_pages, empty])
    assert collector.skipped == 0 and len(collector.pages) == len(site_pages) + 1
    assert collector.learn(AnalyzeParams(), DATE).layouts


def test_learning_is_what_analyze_gives_and_adds_link_texts_once(site_pages):
    collector = collect_site("example.com", site_pages)
    learned = collector.learn(AnalyzeParams(), DATE)
    assert learned == analyze(site_pages, date=DATE).get("example.com")
    assert learned.model is not None and learned.layouts[0].first_seen == DATE
    anchors = [list(p.anchors) for p in collector.pages]
    collector.layouts(AnalyzeParams())
    assert [list(p.anchors) for p in collector.pages] == anchors


def test_normal_url_drops_fragment_and_index_file():
    assert normal_url("http://a.org/x/index.html#top") == "http://a.org/x/"
    assert normal_url("http://a.org/x/page.html") == "http://a.org/x/page.html"
