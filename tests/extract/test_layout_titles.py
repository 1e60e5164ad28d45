"""Titles of learned layouts, on sites of several pages of one layout each (issue 42, item 3).

Each site is built like the blind pages where stemmer returned a wrong title:
analyze its training pages, extract new pages of the same layout.
"""
import random

import pytest

from stemmer import Page, analyze, extract
from stemmer.blocks import parse_html, segment
from stemmer.extract.apply import page_title

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
         "quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def _words(rng: random.Random, k: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(k))


def _body(rng: random.Random) -> str:
    return "".join(f"<p>{_words(rng, rng.randint(30, 50))}.</p>" for _ in range(4))


def _problem_page(n: int, kind: str) -> tuple[Page, str]:
    """A page of a site of numbered problems: the headline is "1351 Name" (or "Name (Gloss)")
    in its h1, `<title>` and og:title; the body's h2 repeats "Name"."""
    rng = random.Random(n)
    name = rng.choice(WORDS).title()
    headline = f"{1351 + n} {name}" if kind == "number" else f"{name} ({rng.choice(('film', 'band'))})"
    side = "".join(f'<li><a href="/c/{k}/">{_words(random.Random(k), 2)}</a></li>' for k in range(15))
    html = (f'<html><head><title>{headline}</title><meta property="og:title" content="{headline}"></head><body>'
            f'<header><a href="/">Site</a><nav><a href="/a/">A</a> <a href="/b/">B</a></nav></header>'
            f'<main><h1 class="entry-title">{headline}</h1><div class="content"><h2>{name}</h2>{_body(rng)}</div>'
            f'</main><aside><ul>{side}</ul></aside><footer><p>Footer text here</p></footer></body></html>')
    return Page(f"p{n}", f"http://problems.test/p{n}/", "problems.test", html), headline


@pytest.mark.parametrize("kind", ["number", "gloss"])
def test_the_headline_wins_over_a_body_heading_that_repeats_part_of_it(kind):
    patterns = analyze([_problem_page(n, kind)[0] for n in range(8)], site_model=False)
    tests = [_problem_page(n, kind) for n in range(50, 60)]
    got = list(extract([page for page, _ in tests], patterns, fallback=None))
    assert all(r.matched for r in got)
    assert [r.title for r in got] == [headline for _, headline in tests]


def test_a_layout_whose_title_slot_is_a_body_heading_still_gives_the_headline():
    """Patterns learned before: the title slot is the body's h2; the page's h1 headline wins at extract."""
    page = segment(parse_html('<html><head><title>1351 Two Sums</title></head><body><h1>1351 Two Sums</h1>'
                              '<div><h2>Two Sums</h2><p>Given an array, find two numbers.</p></div></body></html>'))
    h2 = next(i for i, b in enumerate(page.blocks) if b.tag == "h2")
    assert page_title(h2, page, ("1351 Two Sums",)) == "1351 Two Sums"
    # a body heading that is the headline's equal, or not a part of it, stays
    other = segment(parse_html('<html><head><title>Two Sums</title></head><body><h1>Problems</h1>'
                               '<div><h2>Two Sums</h2><p>Given an array, find two numbers.</p></div></body></html>'))
    assert page_title(h2, other) == "Two Sums"


def _portal_page(n: int, *, title: str, headline_tag: str = "h1", og: bool = False,
                 moved: bool = False) -> tuple[Page, str]:
    """A news portal's story (no URL, as in an archive): its headline a link to the story itself.

    `moved`: the headline sits in a new wrapper, so the layout's title slot misses it."""
    rng = random.Random(n)
    headline = _words(rng, 6).capitalize()
    link = f'<a href="/story/{n}">{headline}</a>' if headline_tag == "h1" else headline
    hed = f'<{headline_tag} class="headline">{link}</{headline_tag}>'
    if moved:
        hed = f'<div class="hed">{hed}</div>'
    meta = f'<meta property="og:title" content="{headline}">' if og else ""
    side = "".join(f'<li><a href="/c/{k}/">{_words(random.Random(k), 2)}</a></li>' for k in range(15))
    html = (f'<html><head><title>{title.format(headline=headline, section=rng.choice(WORDS).title())}</title>'
            f'{meta}</head><body><div id="masthead"><a href="/">Portal</a><ul><li><a href="/a/">World</a></li>'
            f'<li><a href="/b/">Sport</a></li></ul></div><div id="story">{hed}<p class="byline">By '
            f'{_words(rng, 2)}</p><div class="storybody">{_body(rng)}</div></div><div id="rail"><ul>{side}</ul>'
            f'</div><div id="footer"><p>Copyright Portal Inc.</p></div></body></html>')
    return Page(f"story{n}", None, "portal.test", html), headline


@pytest.mark.parametrize("train_pages", [3, 7])
def test_a_layout_never_gives_no_title_to_a_page_with_a_headline(train_pages):
    """The same `<title>` on every page (it names none), the title slot missed: the page's linked h1."""
    title = "Portal - News"
    patterns = analyze([_portal_page(n, title=title)[0] for n in range(train_pages)], site_model=False)
    tests = [_portal_page(n, title=title, moved=True) for n in range(50, 55)]
    got = list(extract([page for page, _ in tests], patterns, fallback=None))
    assert all(r.matched for r in got)
    assert [r.title for r in got] == [headline for _, headline in tests]


def test_a_masthead_that_repeats_a_constant_title_is_not_the_title():
    """Two training pages, both titled "Portal - News": the masthead's "Portal" agrees with that `<title>`."""
    title = "Portal - News"
    patterns = analyze([_portal_page(n, title=title)[0] for n in range(2)], site_model=False)
    tests = [_portal_page(n, title=title) for n in range(50, 55)]
    got = list(extract([page for page, _ in tests], patterns, fallback=None))
    assert [r.title for r in got] == [headline for _, headline in tests]


@pytest.mark.parametrize("og", [False, True])
def test_a_site_suffixed_title_gives_way_to_the_page_s_shorter_headline(og):
    """`<title>` "Headline - Section | Portal", the sections many: the suffix is not all names."""
    title = "{headline} - {section} | Portal"
    patterns = analyze([_portal_page(n, title=title, og=og)[0] for n in range(7)], site_model=False)
    tests = [_portal_page(n, title=title, og=og, moved=True) for n in range(50, 55)]
    got = list(extract([page for page, _ in tests], patterns, fallback=None))
    assert all(r.matched for r in got)
    assert [r.title for r in got] == [headline for _, headline in tests]
