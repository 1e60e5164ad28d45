from dataclasses import replace

from stemmer import extract
from stemmer.extract import apply_layout, unmatched
from stemmer.layout.model import PatternSet
from stemmer.pages import Page

from .conftest import blocks


def extract_one(matcher, html: str):
    page = blocks(html)
    return apply_layout("p1", "http://example.com/p1.html", "example.com", page, matcher.match(page),
                        matcher.keymaker)


def test_title_main_and_nothing_of_the_template(matcher, site_parts):
    ex = extract_one(matcher, site_parts.article(8, paragraphs=5))
    assert ex.matched and ex.pattern == "L0" and ex.method == "pattern"
    assert ex.title == site_parts.titles[8 % len(site_parts.titles)]
    assert len(ex.text.split("\n")) == 5
    for template_text in ("The Daily Example", "News", "Copyright", "Privacy policy", "Staff Writer"):
        assert template_text not in ex.text
        assert template_text not in ex.sub


def test_roles_and_slot_numbers_of_the_blocks(matcher, site_parts):
    ex = extract_one(matcher, site_parts.article(8, paragraphs=3))
    assert [(b.role, b.tag) for b in ex.blocks] == [("title", "h1"), ("main", "p"), ("main", "p"), ("main", "p")]
    title_slot = ex.blocks[0].section
    assert matcher.patterns.layouts[0].sections[title_slot].role == "title"
    assert len({b.section for b in ex.blocks[1:]}) == 1


def test_unknown_block_inside_the_body_is_main_text(matcher, site_parts):
    html = site_parts.article(8).replace('<div class="story">',
                                         '<div class="story"><blockquote class="pull">A quote never seen in '
                                         'training</blockquote>')
    ex = extract_one(matcher, html)
    [quote] = [b for b in ex.blocks if b.tag == "blockquote"]
    assert (quote.role, quote.section, quote.method) == ("main", -1, "container")
    assert ex.text.startswith("A quote never seen")


def test_unknown_block_outside_the_body_is_dropped(matcher, site_parts):
    html = site_parts.article(8).replace("</main>", '<div class="promo"><p>Subscribe today now</p></div></main>')
    assert "Subscribe" not in extract_one(matcher, html).text


def test_links_that_are_all_the_body_of_a_page_are_its_main_text(matcher, site_parts):
    """An index page in the articles' frame (a course's page listing its lectures): its links are its text."""
    lectures = "".join(f'<li><a href="/lec/{k}.html">Lecture {k}: the chapter on topic number {k}</a></li>'
                       for k in range(1, 6))
    html = site_parts.article(8, paragraphs=0).replace('<div class="story">', f'<div class="story"><ul>{lectures}</ul>')
    ex = extract_one(matcher, html)
    assert ex.text.split("\n") == [f"Lecture {k}: the chapter on topic number {k}" for k in range(1, 6)]
    assert {b.method for b in ex.blocks if b.role == "main"} == {"container"}


def test_links_below_an_article_body_stay_out_of_its_main_text(matcher, site_parts):
    related = "".join(f'<li><a href="/news/{k}.html">Related story number {k}</a></li>' for k in range(1, 4))
    html = site_parts.article(8, paragraphs=3).replace("</div></article>", f"<ul>{related}</ul></div></article>")
    ex = extract_one(matcher, html)
    assert len(ex.text.split("\n")) == 3 and "Related story" not in ex.text


def test_only_the_first_title_block_is_the_title(matcher, site_parts):
    html = site_parts.article(8).replace('<p class="byline">', '<h1 class="headline">Second headline</h1>'
                                                              '<p class="byline">')
    ex = extract_one(matcher, html)
    assert ex.title == site_parts.titles[8 % len(site_parts.titles)]
    assert "Second headline" not in ex.text


def test_a_slot_changed_to_sub_by_hand_is_emitted_as_sub(patterns, site_parts):
    from stemmer.extract import SiteMatcher

    article = patterns.layouts[0]
    sections = tuple(replace(s, role="sub") if s.key.endswith("p.byline") else s for s in article.sections)
    edited = replace(patterns, layouts=(replace(article, sections=sections), *patterns.layouts[1:]))
    ex = extract_one(SiteMatcher(edited), site_parts.article(8))
    assert ex.sub == "By Staff Writer 8"
    assert "Staff Writer" not in ex.text


def test_unmatched_record():
    ex = unmatched("p1", None, "example.com", 0.123456)
    assert (ex.matched, ex.pattern, ex.title, ex.text, ex.sub, ex.method) == (False, None, None, "", "", "none")
    assert ex.similarity == 0.1235


def test_api_extract_keeps_input_order_and_reports_unmatched(patterns, site_parts):
    pages = [Page("a", None, "example.com", site_parts.article(7)),
             Page("b", None, "other.org", site_parts.article(7)),
             Page("c", None, "example.com", ""),
             Page("d", None, "example.com", site_parts.index(5))]
    results = list(extract(pages, PatternSet({"example.com": patterns}), fallback=None))
    assert [(r.id, r.matched, r.pattern) for r in results] == [
        ("a", True, "L0"), ("b", False, None), ("c", False, None), ("d", True, "L1")]
    assert results[1].method == "none"


def test_api_extract_without_patterns_matches_nothing(site_parts):
    [ex] = extract([Page("a", None, "example.com", site_parts.article(1))], None)
    assert not ex.matched


def test_api_extract_passes_threshold_and_strict(patterns, site_parts, about_html):
    import re

    pset = PatternSet({"example.com": patterns})
    article = [Page("a", None, "example.com", site_parts.article(8))]
    similarity = next(extract(article, pset)).similarity
    assert next(extract(article, pset, threshold=similarity)).matched
    assert not next(extract(article, pset, threshold=similarity + 0.01)).matched
    about = [Page("about", None, "example.com", about_html)]
    assert not next(extract(about, pset, threshold=0.0)).matched  # resembles articles, has no body
    no_byline = [Page("a", None, "example.com", re.sub(r'<p class="byline">.*?</p>', "", site_parts.article(8)))]
    assert next(extract(no_byline, pset)).matched
    assert not next(extract(no_byline, pset, strict=True)).matched


def test_broken_and_binary_pages_among_good_ones_do_not_stop_extract(patterns, site_parts):
    pages = [Page("good1", None, "example.com", site_parts.article(7)),
             Page("broken", None, "example.com", "<html><body><div><p>cut off <b>here"),
             Page("binary", None, "example.com", "\x00\x01\ufffd\ufffd\x02" * 100),
             Page("good2", None, "example.com", site_parts.article(8))]
    results = {r.id: r for r in extract(pages, PatternSet({"example.com": patterns}))}
    assert results["good1"].matched and results["good2"].matched
    assert results["good2"].title == site_parts.titles[8 % len(site_parts.titles)]
    assert not results["broken"].matched and not results["binary"].matched


def test_a_webstemmer_pattern_file_extracts_a_table_page(tmp_path):
    from stemmer.extract import SiteMatcher
    from stemmer.layout.store import load_patterns

    (tmp_path / "old.pat").write_text(
        "(512.3, '200601010000/www.example.com/a.html', 1, [(0.0, 0.0, 'table/tr/td:class=nav'), "
        "(0.9, 12.0, 'tr/td:class=main/h1'), (0.95, 300.0, 'tr/td:class=main/p')])\n")
    patterns = load_patterns(tmp_path / "old.pat").get("example.com")
    html = ('<html><body><div id="wrap"><table><tr><td class="nav">Home | News</td></tr><tr><td class="main">'
            "<h1>Old School Headline</h1><p>First paragraph of text.</p><p>Second one.</p></td></tr></table>"
            "</div></body></html>")
    matcher = SiteMatcher(patterns)
    ex = extract_one(matcher, html)
    assert ex.matched
    assert ex.title == "Old School Headline"
    assert ex.text == "First paragraph of text.\nSecond one."


def test_a_page_with_the_frame_of_a_layout_but_another_body_is_foreign(matcher, site_parts, patterns):
    import re

    from stemmer.extract import foreign

    normal = site_parts.article(8, paragraphs=3)
    page = blocks(normal)
    match = matcher.match(page)
    assert not foreign(apply_layout("a", None, "example.com", page, match, matcher.keymaker), match, page)
    talk = ' '.join(f'A long talk synopsis sentence number {n} about apes and empathy.' for n in range(12))
    video = re.sub(r'<div class="story">.*?</div>',
                   f'<div class="story"><p>Watch the video.</p></div></article><section class="talk">'
                   f'<p>{talk}</p><p>{talk}</p></section><article>', normal)
    page = blocks(video)
    match = matcher.match(page)
    assert match.layout is not None and match.layout.id == "L0"
    ex = apply_layout("v", None, "example.com", page, match, matcher.keymaker)
    assert ex.text == "Watch the video."
    assert foreign(ex, match, page)
    [result] = extract([Page("v", None, "example.com", video)], PatternSet({"example.com": patterns}),
                       fallback=None)
    assert not result.matched


def test_the_classifier_stands_in_for_a_layout_short_of_text_and_says_which(matcher, site_parts, patterns):
    import re

    normal = site_parts.article(8, paragraphs=3)
    talk = ' '.join(f'A long talk synopsis sentence number {n} about apes and empathy.' for n in range(12))
    video = re.sub(r'<div class="story">.*?</div>',
                   f'<div class="story"><p>Watch the video.</p></div></article><section class="talk">'
                   f'<p>{talk}</p><p>{talk}</p></section><article>', normal)
    [result] = extract([Page("v", None, "example.com", video)], PatternSet({"example.com": patterns}))
    assert (result.matched, result.pattern, result.method) == (False, "L0", "classifier")
    assert talk in result.text


def test_a_layout_without_main_text_leaves_its_pages_to_the_classifier(site_parts, patterns):
    no_main = replace(patterns, layouts=tuple(
        replace(lay, sections=tuple(replace(s, role="sub") if s.role == "main" else s for s in lay.sections))
        for lay in patterns.layouts))
    html = site_parts.article(8, paragraphs=3)
    [result] = extract([Page("a", None, "example.com", html)], PatternSet({"example.com": no_main}))
    assert not result.matched and result.pattern == "L0" and result.method == "classifier"
    assert result.text


class _SeesNothing:
    """A block classifier that finds no main text anywhere (a page it cannot read)."""

    threshold = 0.5

    def predict_proba(self, table):
        return [0.0] * len(table.blocks)


def test_a_page_with_text_that_comes_out_empty_gets_a_warning(site_parts, patterns, caplog):
    from stemmer.extract.fallback import Fallback

    html = site_parts.article(8, paragraphs=6)
    foreign_site = Page("elsewhere", None, "other.example", html)
    with caplog.at_level("WARNING", logger="stemmer"):
        [result] = extract([foreign_site], PatternSet({"example.com": patterns}),
                           fallback=Fallback(_SeesNothing(), site_models=False))
    assert result.text == ""
    assert "elsewhere: no main text found" in caplog.text


def test_a_title_slot_that_the_page_does_not_name_gives_way_to_the_heading_it_names():
    from stemmer.extract.apply import page_title

    page = blocks("<html><head><title>Storm hits coast | Daily</title></head><body><p class='crumb'>Weather</p>"
                  "<h1>Storm hits coast</h1><h2>Winds of 120 km/h</h2><p>Body.</p></body></html>")
    weather, storm = 0, 1  # the blocks of the slots
    assert page_title(weather, page) == "Storm hits coast"
    assert page_title(weather, page, ("Storm hits the coast",)) == "Storm hits coast"
    assert page_title(storm, page) == "Storm hits coast"


def test_a_page_without_title_slot_takes_its_h1_else_its_head_title():
    from stemmer.extract.apply import page_title

    index = blocks("<html><head><title>News – Daily</title></head><body><h1>News</h1>"
                   "<h2><a href='/a.html'>A teaser</a></h2><p>Teaser text.</p></body></html>")
    assert page_title(None, index) == "News"
    assert page_title(None, blocks("<html><head><title>News – Daily</title></head><body>"
                                   "<h2><a href='/a.html'>A teaser</a></h2></body></html>")) == "News – Daily"
