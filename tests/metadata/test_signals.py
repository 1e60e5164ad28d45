import json

from stemmer.blocks import parse_html
from stemmer.metadata import page_signals


def page(body="", head=""):
    return parse_html(f"<html><head>{head}<title>T</title></head><body>{body}</body></html>")


def ld(obj):
    return f'<script type="application/ld+json">{json.dumps(obj)}</script>'


def test_json_ld_article_with_graph_and_author_reference():
    head = ld({"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "@id": "#site", "name": "Daily News"},
        {"@type": "WebPage", "@id": "#page", "datePublished": "2020-01-01T00:00:00Z"},
        {"@type": "NewsArticle", "headline": "Storm hits coast", "datePublished": "2024-03-05T10:30:00+01:00",
         "dateModified": "2024-03-06", "author": {"@id": "#jane"}},
        {"@type": "Person", "@id": "#jane", "name": "Jane Doe"},
    ]})
    signals = page_signals(page(head=head), "https://example.com/news/storm")
    assert (signals.date.value, signals.date.source, signals.date.key) == (
        "2024-03-05T10:30:00+01:00", "json-ld", "datePublished")
    assert [d.value for d in signals.modified] == ["2024-03-06"]
    assert (signals.author.value, signals.author.source) == ("Jane Doe", "json-ld")
    assert [t.value for t in signals.titles] == ["Storm hits coast"]
    assert "Daily News" in [n.value for n in signals.site_names]


def test_json_ld_author_list_is_one_value():
    head = ld({"@type": "BlogPosting", "author": [{"@type": "Person", "name": "A. One"}, "B. Two"]})
    assert page_signals(page(head=head)).author.value == "A. One, B. Two"


def test_broken_json_ld_is_skipped_and_meta_still_read():
    head = ('<script type="application/ld+json">{"@type": "Article", </script>'
            '<meta property="article:published_time" content="2023-07-01T08:00:00Z">'
            '<meta name="author" content="By Sam Roe">'
            '<meta property="article:author" content="https://facebook.com/samroe">'
            '<meta property="og:site_name" content="Roe Blog">')
    signals = page_signals(page(head=head))
    assert (signals.date.value, signals.date.source, signals.date.key) == (
        "2023-07-01T08:00:00+00:00", "meta", "article:published_time")
    assert [a.value for a in signals.authors] == ["Sam Roe"]
    assert [n.value for n in signals.site_names] == ["Roe Blog"]


def test_time_itemprop_byline_and_url():
    body = ('<article><p class="byline">By <a rel="author" href="/u/kim">Kim Lee</a></p>'
            '<time datetime="2022-02-03">Feb 3</time><p>text</p></article>')
    signals = page_signals(page(body), "https://example.com/2021/12/31/post")
    assert [(d.value, d.source) for d in signals.dates] == [("2022-02-03", "time"), ("2021-12-31", "url")]
    assert [(a.value, a.source) for a in signals.authors] == [("Kim Lee", "rel-author")]


def test_microdata_author_and_date():
    body = ('<div itemprop="author" itemscope><span itemprop="name">Ana Ruiz</span></div>'
            '<span itemprop="datePublished" datetime="2019-05-06">6 mayo</span>')
    signals = page_signals(page(body))
    assert (signals.author.value, signals.author.source) == ("Ana Ruiz", "itemprop")
    assert (signals.date.value, signals.date.source) == ("2019-05-06", "itemprop")


def test_a_page_without_statements():
    signals = page_signals(page("<p>nothing here</p>"), None)
    assert signals.date is None and signals.author is None and not signals.titles
    assert page_signals(None, "https://x.org/2020/01/02/a").date.value == "2020-01-02"


def test_json_ld_that_only_lenient_json_reads_is_read():
    """A raw line break inside a string (json reads it, orjson refuses it) and a trailing comma."""
    head = ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Two\nlines",'
            ' "datePublished": "2024-03-05", "author": {"name": "Jane Doe"},}</script>')
    signals = page_signals(page(head=head))
    assert (signals.date.value, signals.author.value) == ("2024-03-05", "Jane Doe")
    assert [t.value for t in signals.titles] == ["Two lines"]


def test_the_title_step_s_meta_tags_first_in_the_page():
    signals = page_signals(page(head='<meta name="twitter:title" content="  Short  one "><meta property="og:title" '
                                     'content=""><meta property="og:title" content="Long one"><meta property="og:type" '
                                     'content="Article"><meta itemprop="og:title" content="not by property or name">'))
    assert (signals.social_title, signals.og_title, signals.og_type) == ("Short one", "Long one", "article")
    assert (page_signals(page()).social_title, page_signals(page()).og_type) == (None, "")


def test_the_h1s_found_in_the_same_walk_give_the_headline_its_surroundings_read():
    from stemmer.metadata import headline_element, page_metadata

    root = page(body='<h1>Kicker</h1><div><h1>Storm hits coast</h1><p>By Jane Doe · March 5, 2024</p></div>'
                     '<script><h1>not an element</h1></script>')
    signals = page_signals(root)
    assert signals.h1s == tuple(root.iter("h1")) and len(signals.h1s) == 2
    assert headline_element(root, "Storm hits coast", signals.h1s) is signals.h1s[1]
    shown = page_metadata(root, title="Storm hits coast", signals=signals)
    assert (shown.date, shown.author) == ("2024-03-05", "Jane Doe")
    assert page_metadata(root, title="Storm hits coast") == shown


def test_json_ld_dates_are_the_pages_own_items_not_a_listings_a_comments_or_another_pages():
    listing = ld({"@type": "ItemList", "itemListElement": [
        {"@type": "Article", "headline": "Other", "datePublished": "2026-02-25T11:11:03",
         "mainEntityOfPage": "https://x.org/other"}]})
    comment = ld({"@type": "Comment", "datePublished": "2024-01-02", "text": "Nice"})
    assert page_signals(page(head=listing + comment), "https://x.org/thread").dates == ()
    # mceb 0103: the WebPage names this page; the article names a template's placeholder address
    graph = ld({"@graph": [{"@type": "WebPage", "url": "https://www.x.org/post/", "datePublished": "2023-05-18"}]})
    article = ld({"@type": "NewsArticle", "mainEntityOfPage": {"@id": "https://google.com/article"},
                  "datePublished": "2023-05-17"})
    signals = page_signals(page(head=graph + article), "https://x.org/post")
    assert [d.value for d in signals.dates] == ["2023-05-18"]
    # a redirector's URL that no item names: every item of the page counts
    assert [d.value for d in page_signals(page(head=article), "https://feeds.x.org/~r/1").dates] == ["2023-05-17"]


def test_a_date_in_the_url_written_without_separators():
    assert [d.value for d in page_signals(page(), "https://x.org/news/20200623/a.html").dates] == ["2020-06-23"]
    assert page_signals(page(), "https://x.org/v/99cd6b51c20200623").dates == ()  # inside an id: no date
    assert page_signals(page(), "https://x.org/2011/12/slug/").dates == ()  # a month alone is no date
