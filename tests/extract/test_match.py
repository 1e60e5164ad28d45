import re

import pytest

from stemmer.cluster import layout_sequence, similarity
from stemmer.cluster.similarity import repeats
from stemmer.extract import SiteMatcher
from stemmer.extract.match import _symbol
from stemmer.layout.model import SitePatterns

from .conftest import blocks


def test_new_article_matches_the_article_layout(matcher, site_parts):
    match = matcher.match(blocks(site_parts.article(8, paragraphs=25)))
    assert match.layout.id == "L0"
    assert match.similarity == pytest.approx(1.0)


def test_new_index_page_matches_the_index_layout(matcher, site_parts):
    assert matcher.match(blocks(site_parts.index(9))).layout.id == "L1"


@pytest.mark.parametrize("html", ["", "<html><body><p>Some other site entirely</p></body></html>",
                                  "<table><tr><td>x</td></tr></table>"])
def test_unrelated_or_empty_page_is_unmatched(matcher, html):
    match = matcher.match(blocks(html))
    assert match.layout is None
    assert 0.0 <= match.similarity < matcher.threshold


def test_default_threshold_comes_from_the_patterns(patterns):
    assert SiteMatcher(patterns).threshold == patterns.params["match_threshold"]
    assert SiteMatcher(patterns, threshold=0.9).threshold == 0.9


def test_threshold_decides_a_borderline_page(patterns, about_html):
    page = blocks(about_html)
    sim = SiteMatcher(patterns, threshold=0.0).match(page).similarity
    assert 0.0 < sim < 1.0
    assert SiteMatcher(patterns, threshold=sim).match(page).layout is not None
    rejected = SiteMatcher(patterns, threshold=sim + 0.01).match(page)
    assert rejected.layout is None
    assert rejected.similarity == pytest.approx(sim)


def test_strict_mode_rejects_a_page_missing_a_slot(patterns, site_parts):
    page = blocks(re.sub(r'<p class="byline">.*?</p>', "", site_parts.article(8)))
    assert SiteMatcher(patterns).match(page).layout.id == "L0"
    assert SiteMatcher(patterns, strict=True).match(page).layout is None


def test_strict_mode_accepts_a_complete_page(patterns, site_parts):
    page = blocks(site_parts.article(8, paragraphs=2))
    assert SiteMatcher(patterns, strict=True).match(page).layout.id == "L0"


def test_slots_seen_on_only_some_pages_are_not_required_in_strict_mode(patterns, site_parts):
    from dataclasses import replace

    article = patterns.layouts[0]
    sections = tuple(replace(s, share=0.5) if s.key.endswith("p.byline") else s for s in article.sections)
    relaxed = replace(patterns, layouts=(replace(article, sections=sections), *patterns.layouts[1:]))
    page = blocks(re.sub(r'<p class="byline">.*?</p>', "", site_parts.article(8)))
    assert SiteMatcher(relaxed, strict=True).match(page).layout.id == "L0"


def test_match_returns_the_keys_of_every_block(matcher, site_parts):
    page = blocks(site_parts.article(8))
    match = matcher.match(page)
    assert len(match.keys) == len(page.blocks)
    assert "main.content/article.post/div.story/p" in match.keys


def test_site_without_layouts_matches_nothing(site_parts):
    matcher = SiteMatcher(SitePatterns("example.com", ()))
    assert matcher.match(blocks(site_parts.article(1))).layout is None


def test_similarity_is_that_of_the_layout_sequences_as_numbers(matcher, site_parts, about_html):
    """The matcher compares key sequences as strings: the same similarity as `layout_sequence`'s numbers."""
    for html in (site_parts.article(8, paragraphs=25), site_parts.index(9), about_html):
        page = blocks(html)
        match = SiteMatcher(matcher.patterns, threshold=0.0).match(page)
        ids = {k: i for i, k in enumerate(sorted({s.key for lay in matcher.patterns.layouts for s in lay.sections}))}
        own: dict[str, int] = {}
        for key, b in zip(match.keys, page.blocks):
            own[key] = own.get(key, 0) + b.weight
        best = 0.0
        for lay in matcher.patterns.layouts:
            reps = {s.key: s.repeats for s in lay.sections}
            page_reps = {k: reps.get(k, repeats(w)) for k, w in own.items()}
            best = max(best, similarity(layout_sequence(own, ids, page_reps),
                                        layout_sequence((s.key for s in lay.sections), ids, reps)))
        assert match.similarity == best


def test_key_symbols_skip_the_surrogates():
    symbols = [_symbol(n) for n in range(0xD700, 0xE100)]
    assert len(set(symbols)) == len(symbols)
    assert not any(0xD800 <= ord(c) < 0xE000 for c in symbols)
