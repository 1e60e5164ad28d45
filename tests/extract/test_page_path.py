"""One page through extract: parsed and walked once, and never empty without a warning, on every path."""
import importlib
import os
from dataclasses import replace

import numpy as np
import pytest

from stemmer import Page, extract
from stemmer.extract.fallback import Fallback
from stemmer.layout.model import PatternSet

SEGMENT = importlib.import_module("stemmer.blocks.segment")  # the module: stemmer.blocks.segment is its function


class Blind:
    """A block classifier that finds no main text anywhere (a page it cannot read)."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.zeros(len(table.blocks))


class Everything:
    """A block classifier that calls every block main text."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.ones(len(table.blocks))


class Headline:
    """A block classifier that calls the page's h1 alone main text: its headline, no body."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.array([1.0 if b.tag == "h1" else 0.0 for b in table.blocks])


def headline_only(patterns):
    """The site's patterns with the title slot turned main and every main slot sub: the headline alone is main text."""
    roles = {"title": "main", "main": "sub"}
    return replace(patterns, layouts=tuple(
        replace(lay, sections=tuple(replace(s, role=roles.get(s.role, s.role)) for s in lay.sections))
        for lay in patterns.layouts), model=None)


def without_main(patterns):
    """The site's patterns with every main slot turned sub: each page they match is sent on (`foreign`)."""
    return replace(patterns, layouts=tuple(
        replace(lay, sections=tuple(replace(s, role="sub") if s.role == "main" else s for s in lay.sections))
        for lay in patterns.layouts), model=None)


@pytest.fixture
def counted(monkeypatch):
    """How often extract parsed a page and walked a parsed page (`segment`'s walker, with or without recorder)."""
    import stemmer.api

    calls = {"parse": 0, "walk": 0}
    parse = stemmer.api.parse_html

    def counting_parse(*args, **kwargs):
        calls["parse"] += 1
        return parse(*args, **kwargs)

    monkeypatch.setattr(stemmer.api, "parse_html", counting_parse)
    for name, walk in list(SEGMENT.WALKERS.items()):
        def counting_walk(*args, _walk=walk):
            calls["walk"] += 1
            return _walk(*args)

        monkeypatch.setitem(SEGMENT.WALKERS, name, counting_walk)
    return calls


@pytest.mark.parametrize("unknown_blocks", ["container", "classifier"])
def test_a_page_a_layout_matches_and_sends_on_is_parsed_and_walked_once(site_parts, patterns, counted,
                                                                        unknown_blocks):
    page = Page("a", None, "example.com", site_parts.article(8, paragraphs=3))
    [result] = extract([page], PatternSet({"example.com": without_main(patterns)}),
                       fallback=Fallback(Everything(), unknown_blocks=unknown_blocks))
    assert (result.matched, result.pattern, result.method) == (False, "L0", "classifier") and result.text
    assert counted == {"parse": 1, "walk": 1}


def test_a_matched_page_is_parsed_and_walked_once_with_or_without_fallback(site_parts, patterns, counted):
    page = Page("a", None, "example.com", site_parts.article(8, paragraphs=3))
    for fallback in (None, Fallback(Everything(), unknown_blocks="classifier")):
        before = dict(counted)
        [result] = extract([page], PatternSet({"example.com": patterns}), fallback=fallback)
        assert result.method == "pattern" and result.text
        assert (counted["parse"] - before["parse"], counted["walk"] - before["walk"]) == (1, 1)


def test_a_site_without_patterns_is_parsed_and_walked_once(site_parts, counted):
    [result] = extract([Page("a", None, "elsewhere.example", site_parts.article(8, paragraphs=3))], None,
                       fallback=Fallback(Everything()))
    assert result.method == "classifier" and result.text
    assert counted == {"parse": 1, "walk": 1}


# --- never empty without a warning --------------------------------------------------------

def paths(patterns):
    """Each path by which a page with text can come out empty: (patterns, fallback, the page's site)."""
    example = "example.com"
    return {
        "a layout that matched, patterns only": (PatternSet({example: without_main(patterns)}), None, example),
        "the site model": (PatternSet({example: replace(without_main(patterns), model=Blind())}),
                           Fallback(Blind()), example),
        "the generic model": (PatternSet({example: without_main(patterns)}), Fallback(Blind()), example),
        "a site never analyzed": (PatternSet({example: patterns}), Fallback(Blind()), "elsewhere.example"),
    }


PATHS = ["a layout that matched, patterns only", "the site model", "the generic model", "a site never analyzed"]


def headline_paths(patterns):
    """Each path by which a page with text can come out with its headline alone as main text."""
    example = "example.com"
    return {
        "a layout that matched, patterns only": (PatternSet({example: headline_only(patterns)}), None, example),
        "the site model": (PatternSet({example: replace(without_main(patterns), model=Headline())}),
                           Fallback(Headline()), example),
        "the generic model": (PatternSet({example: without_main(patterns)}), Fallback(Headline()), example),
        "a site never analyzed": (PatternSet({example: patterns}), Fallback(Headline()), "elsewhere.example"),
    }


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_page_whose_body_comes_out_empty_beside_its_headline_is_warned_about_on_every_path(
        site_parts, patterns, caplog, path, jobs):
    from stemmer.scale.runner import extract_crawl

    pats, fallback, site = headline_paths(patterns)[path]
    pages = [Page(f"p{k}", None, site, site_parts.article(8, paragraphs=6)) for k in range(2)]
    with caplog.at_level("WARNING", logger="stemmer"):
        results = list(extract_crawl(pages, pats, jobs=jobs, batch_pages=1, fallback=fallback))
    headline = site_parts.titles[8 % len(site_parts.titles)]
    if path == "a layout that matched, patterns only":  # a layout that reads the headline alone is foreign (`foreign`)
        assert [(r.text, r.matched) for r in results] == [("", False)] * 2
        said = "no main text found in"
    else:
        assert [(r.text, r.title) for r in results] == [(headline, headline)] * 2
        said = "no main text found beyond its title"
    warned = [r for r in caplog.records if said in r.getMessage()]
    assert sorted(r.getMessage().split(":")[0] for r in warned) == ["p0", "p1"]
    if jobs > 1:  # told in a worker process, retold here
        assert all(r.process != os.getpid() for r in warned)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_page_with_text_that_comes_out_empty_is_warned_about_on_every_path(site_parts, patterns, caplog,
                                                                             path, jobs):
    from stemmer.scale.runner import extract_crawl

    pats, fallback, site = paths(patterns)[path]
    pages = [Page(f"p{k}", None, site, site_parts.article(8, paragraphs=6)) for k in range(2)]
    with caplog.at_level("WARNING", logger="stemmer"):
        results = list(extract_crawl(pages, pats, jobs=jobs, batch_pages=1, fallback=fallback))
    assert [r.text for r in results] == ["", ""]
    warned = [r for r in caplog.records if "no main text found" in r.getMessage()]
    assert sorted(r.getMessage().split(":")[0] for r in warned) == ["p0", "p1"]
    if jobs > 1:  # told in a worker process, retold here
        assert all(r.process != os.getpid() for r in warned)


def test_a_page_no_layout_matched_in_a_run_without_fallback_is_not_warned_about(site_parts, patterns, caplog):
    page = Page("p", None, "elsewhere.example", site_parts.article(8, paragraphs=6))
    with caplog.at_level("WARNING", logger="stemmer"):
        [result] = extract([page], PatternSet({"example.com": patterns}), fallback=None)
    assert result.method == "none" and not caplog.records
