"""Titles where no link text helps: what is the same on every page of a layout is no page's title; what varies can be.

Each site is a few pages of one layout, analyzed and extracted without URLs (so
without link texts) except where said.
"""
import random

import pytest

from stemmer import Page, analyze, extract


def _words(rng: random.Random, k: int) -> str:
    return " ".join("".join(rng.choice("abcdefghijklmnoprstuvy") for _ in range(rng.randint(3, 8))) for _ in range(k))


def _learned_titles(pages: list[Page]) -> list[str | None]:
    """Each page's extracted title, the site analyzed on its own pages."""
    patterns = analyze(pages)
    results = list(extract(pages, patterns))
    assert all(r.matched for r in results)
    return [r.title for r in results]


@pytest.mark.parametrize("headline_markup", [
    '<div class="headline">{}</div>',                            # no heading: the markup's class names it
    '<h2 class="section">Breaking News</h2><h3>{}</h3>',         # a heading the constant <title> agrees with
])
def test_a_title_that_is_the_same_on_every_page_of_a_layout_is_no_page_s_title(headline_markup):
    pages, headlines = [], []
    for n in range(8):
        rng = random.Random(600 + n)
        headline = _words(rng, 6).capitalize()
        html = ('<html><head><title>Online Edition: Breaking News</title></head><body>'
                '<div id="top"><a href="/">Home</a> <a href="/world">World</a></div>'
                f'<div class="story">{headline_markup.format(headline)}<div class="byline">By {_words(rng, 2)}</div>'
                + "".join(f"<p>{_words(rng, 40)}</p>" for _ in range(4))
                + '</div><div id="foot">Copyright Online Edition</div></body></html>')
        pages.append(Page(f"story-{n}", None, "portal.example", html))
        headlines.append(headline)
    assert _learned_titles(pages) == headlines


@pytest.mark.parametrize("title", ["Site.com: {}", "{} – Site.com"])
def test_the_site_s_name_shared_by_every_title_is_stripped(title):
    """Pages whose headline is in no block of its own (a lead paragraph runs on): the `<title>` names them."""
    pages, headlines = [], []
    for n in range(8):
        rng = random.Random(700 + n)
        headline = _words(rng, 5).capitalize()
        html = (f'<html><head><title>{title.format(headline)}</title></head><body>'
                '<div id="nav"><a href="/">Home</a> <a href="/archive">Archive</a></div><div class="content">'
                + "".join(f"<p>{_words(rng, 40)}</p>" for _ in range(4))
                + '</div><div id="foot">(c) Site.com</div></body></html>')
        pages.append(Page(f"page-{n}", None, "site.example", html))
        headlines.append(headline)
    assert _learned_titles(pages) == headlines


def test_a_book_s_name_above_every_chapter_is_not_the_chapter_s_title():
    """mdBook: `<title>` is "Summary entry - Book"; the chapter's own h1 may say something else."""
    pages, headlines = [], []
    toc = "".join(f'<li><a href="/ch{k}.html">Chapter {k}</a></li>' for k in range(8))
    for n in range(8):
        rng = random.Random(800 + n)
        entry, heading = _words(rng, 2).capitalize(), _words(rng, 4).capitalize()
        html = (f'<html><head><title>{entry} - The Example Book</title></head><body>'
                f'<nav class="sidebar"><ol>{toc}</ol></nav><div id="page">'
                '<div class="menu-bar"><h1 class="menu-title">The Example Book</h1></div>'
                f'<main><h1>{heading}</h1>' + "".join(f"<p>{_words(rng, 40)}</p>" for _ in range(3))
                + '</main></div></body></html>')
        pages.append(Page(f"ch{n}", None, "book.example", html))
        headlines.append(heading)
    assert _learned_titles(pages) == headlines


@pytest.mark.parametrize("heading", ['<span class="num">{num}</span><br>{name}',
                                     '<div class="num">{num}</div><div class="name">{name}</div>'])
def test_a_headline_cut_into_blocks_keeps_its_number(heading):
    """"1351 Name": the index pages link to each problem by its name alone; h1, `<title>` and og:title carry the number."""
    rng = random.Random(900)
    problems = [(1300 + 7 * n, _words(rng, 3).title()) for n in range(10)]
    pages, headlines = [], []
    for num, name in problems:
        headline = f"{num} {name}"
        html = (f'<html><head><title>{headline} | Algo Notes</title><meta property="og:title" content="{headline}">'
                '</head><body><header><a href="/">Algo Notes</a></header><article>'
                f'<h1 class="post-title">{heading.format(num=num, name=name)}</h1>'
                + "".join(f"<p>{_words(rng, 40)}</p>" for _ in range(3)) + '</article></body></html>')
        pages.append(Page(f"p{num}", f"https://algo.example/p/{num}/", "algo.example", html))
        headlines.append(headline)
    links = "".join(f'<li><a href="/p/{num}/">{name}</a></li>' for num, name in problems)
    index = [Page(f"index-{k}", f"https://algo.example/page/{k}/", "algo.example",
                  '<html><head><title>Algo Notes</title></head><body><header><a href="/">Algo Notes</a></header>'
                  f'<ul class="list">{links}</ul></body></html>') for k in range(3)]
    patterns = analyze(pages + index)
    results = list(extract(pages, patterns))
    assert [r.title for r in results] == headlines
