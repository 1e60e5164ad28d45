import gc
import gzip
import json
from pathlib import Path

import pytest
from lxml import etree

from stemmer.blocks import parse_html
from stemmer.metadata import visible, visible_metadata


def page(body):
    return parse_html(f"<html><head><title>T</title></head><body>{body}</body></html>")


def test_date_and_byline_under_the_headline():
    shown = visible_metadata(page(
        '<nav><a>Home</a> <a>World</a></nav><article><h1>Storm hits coast</h1>'
        '<div class="meta"><span>By</span> <a href="/u/jane">Jane Doe</a> · <span>Dec</span> <span>4, 2025</span></div>'
        '<p>The storm reached the coast on 1 December 2025 after days at sea, the forecasters said on Monday.</p>'
        '</article>'))
    assert (shown.date, shown.author, shown.above) == ("2025-12-04", "Jane Doe", False)


def test_an_update_date_is_kept_apart_and_prose_dates_are_not_the_page_s():
    shown = visible_metadata(page(
        '<h1>Guide</h1><p class="post-updated">Last updated: March 2, 2024</p>'
        '<p>Back on January 5, 2020, when we first wrote this guide, the rules were different and far simpler.</p>'))
    assert (shown.date, shown.updated) == (None, "2024-03-02")


def test_a_date_above_the_headline_and_another_language():
    shown = visible_metadata(page('<header><p class="kicker">Politica · 12 marzo 2021</p>'
                                  '<h1>Crisi di governo</h1><p class="autore">Scritto da Daniel Andreoli</p></header>'),
                             lang="it")
    assert (shown.date, shown.above, shown.author) == ("2021-03-12", True, "Daniel Andreoli")


def test_the_headline_is_found_by_the_title_where_there_is_no_h1():
    root = page('<div class="post-title">Gardens of Rajshahi</div><div class="entry_date">20 Dec 2025, 11:59</div>')
    assert visible_metadata(root, "Gardens of Rajshahi").date == "2025-12-20T11:59"
    assert visible_metadata(root, None).date is None


def test_comment_and_avatar_classes_are_not_bylines():
    shown = visible_metadata(page('<h1>Post</h1><div class="comment-author">Spammer</div>'
                                  '<img class="author-avatar"><p>Some text of the post, long enough.</p>'))
    assert shown.author is None


def test_a_japanese_label_after_its_date():
    shown = visible_metadata(page('<h1>レビュー</h1><div class="article-meta"><span>2025-01-08</span><span>に更新</span>'
                                  '<span>2024-05-06</span><span>に投稿</span></div>'), lang="ja")
    assert (shown.date, shown.updated) == ("2024-05-06", "2025-01-08")


def test_what_is_not_looked_for_stays_empty_and_the_rest_is_as_a_full_read():
    root = page('<p>By Ann Lee</p><h1>Storm</h1><p>Updated May 2, 2024</p>'
                + "".join(f"<p>line {i}</p>" for i in range(12)) + '<p>March 5, 2024</p><p class="byline">Bob Roe</p>')
    full = visible_metadata(root)
    assert (full.date, full.updated, full.author) == ("2024-03-05", "2024-05-02", "Bob Roe")
    dated = visible_metadata(root, find_author=False)
    assert (dated.date, dated.date_text, dated.author) == (full.date, full.date_text, None)
    named = visible_metadata(root, find_date=False)
    assert (named.date, named.updated, named.author) == (None, None, "Bob Roe")
    assert visible_metadata(root, find_date=False, find_author=False) == visible_metadata(page("<p>x</p>"))


def test_a_date_that_opens_a_long_piece_counts_and_one_inside_it_does_not():
    prose = "the storm reached the coast after many days at sea, as the forecasters had said it would"
    assert visible_metadata(page(f"<h1>A</h1><p>March 5, 2024 — {prose}</p>")).date == "2024-03-05"
    assert visible_metadata(page(f"<h1>A</h1><p>On {prose}, on March 5, 2024.</p>")).date is None


def test_reading_the_headline_s_surroundings_leaves_no_reference_cycle():
    # A cycle through the pieces (they hold elements) would keep each page's tree alive until
    # Python's collector runs: a run's memory would grow by hundreds of trees.
    root = page('<header><p>Politica · 12 marzo 2021</p><div><span>x</span> y</div><h1>Crisi</h1></header>'
                '<p>No byline here, and no date either: the whole surroundings are read.</p>' * 3)
    gc.collect()
    gc.disable()
    try:
        visible_metadata(root, lang="it")
        visible_metadata(root, find_date=False)
        del root
        assert gc.collect() == 0
    finally:
        gc.enable()


def _pieces(pieces):
    return [(p.text, p.owner, p.distance, visible._classes(p.owner, {}) if p.classes is None else p.classes)
            for p in pieces]


_AROUND = [
    '<div><p>kicker <b>bold</b> tail</p><span>a</span></div><header><em>x</em> y<h1>Title</h1> tail of h1'
    '<script>var a = 1;</script> after script<svg><text>no</text></svg>after svg<!-- c --> after comment'
    '<div class="meta">By <a href="/u">Ann</a>, <time>May 2, 2024</time></div></header> tail of header'
    '<p>\u00a0\u3000</p><p>  spaced\n\t out  </p><p>日本語 の テキスト</p><?pi x?> after pi',
    '<h1>At the end</h1>',
    '<section><div><div><h1>Deep</h1></div>between</div>' + "".join(f"<p>p{i} <i>i{i}</i></p>" for i in range(40))
    + '</section><footer>foot</footer>',
]


@pytest.mark.skipif(visible._compiled_after is None, reason="the compiled walker is not built")
@pytest.mark.parametrize("body", _AROUND)
def test_the_compiled_walk_finds_the_python_walk_s_pieces(body):
    # Comments and processing instructions kept (parse_html drops them): their tails are pieces.
    root = etree.fromstring(f"<html><head><title>T</title></head><body>{body}</body></html>", etree.HTMLParser())
    for head in root.iter():
        for limit in (1, 3, 8, 30, 100):
            python = visible._After(head)
            python.walk(limit)
            assert _pieces(visible._compiled_after(head, limit, visible.Piece, visible._SKIP)) \
                == _pieces(python.pieces[:limit])
            assert _pieces(visible._compiled_before(head, limit, visible.Piece, visible._SKIP)) \
                == _pieces(visible._pieces_before(head, limit))
        unread = visible._compiled_after(head, 30, visible.Piece, visible._SKIP, [], False)
        assert all(p.classes is None or p.owner is None for p in unread)
        assert _pieces(unread) == _pieces(visible._compiled_after(head, 30, visible.Piece, visible._SKIP))
        shorter = visible._compiled_after(head, 3, visible.Piece, visible._SKIP)
        longer = visible._compiled_after(head, 30, visible.Piece, visible._SKIP, shorter)
        assert longer[:3] == shorter and _pieces(longer) == _pieces(visible._compiled_after(head, 30, visible.Piece,
                                                                                           visible._SKIP))


_TITLED = [
    '<h2>two</h2><div><h3>three <b>x</b></h3><h4>four</h4><h5>five</h5></div><!-- c --><?pi x?>'
    '<a class="post-title">link</a><meta class="title"><img class="headline"><span class="entry-title">span</span>'
    '<div class="Title">upper case</div><p class="x headline-y">p</p><p class="ti tle">split</p>'
    '<div class="t&#105;tle">by reference</div><div class="&quot;title&quot;">quoted</div>'
    '<svg><title class="title">svg</title></svg><section class="">empty</section><h2 class="title">both</h2>',
    '<p>no heading, no title class</p>',
]


@pytest.mark.skipif(visible._compiled_title_like is None, reason="the compiled walker is not built")
@pytest.mark.parametrize("body", _TITLED)
def test_the_compiled_walk_finds_the_python_walk_s_title_like_elements(body):
    # Comments and processing instructions kept (parse_html drops them): the walks pass them by.
    root = etree.fromstring(f"<html><head><title>T</title></head><body>{body}</body></html>", etree.HTMLParser())
    for top in root.iter():
        for limit in (-1, 0, 3, 5, 100):
            assert visible._compiled_title_like(top, limit) == list(visible._title_like_elements(top, limit))
    assert len(visible._compiled_title_like(root)) == (9 if "<h2>" in body else 0)
    # "three x" has 6 letters (an element's text and its children's): not a title of 5 characters.
    assert [el.tag for el in visible._compiled_title_like(root, 5)][:3] == (["h2", "h4", "span"] if "<h2>" in body
                                                                            else [])


def test_both_walks_find_the_headline_by_its_title_without_h1(monkeypatch):
    root = page('<div class="crumb-title">Home</div><h2>Other news</h2><div class="title-box"><p>Gardens</p>'
                '<p>A long text around the title</p></div>'
                '<div class="post-title">Gardens</div><p>By Ann Lee</p><p>20 Dec 2025</p>')
    shown = visible_metadata(root, "Gardens")
    monkeypatch.setattr(visible, "_compiled_title_like", None)
    assert visible_metadata(root, "Gardens") == shown and (shown.date, shown.author) == ("2025-12-20", "Ann Lee")


def test_both_walks_read_the_same_around_the_headline(monkeypatch):
    root = page(_AROUND[0] + '<p>Updated June 3, 2024</p><p class="byline-x">Bob Roe</p>')
    shown = visible_metadata(root)
    monkeypatch.setattr(visible, "_compiled_after", None)
    assert visible_metadata(root) == shown and shown.author == "Ann"


DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.mark.skipif(visible._compiled_after is None, reason="the compiled walker is not built")
@pytest.mark.skipif(not DATA.is_dir(), reason=f"no data sets in {DATA}")
def test_both_walks_find_the_same_pieces_on_the_data_sets():
    # Every 40th page of each set: around its headings and every 50th element.
    for pages in sorted(DATA.glob("*/pages.jsonl.gz")):
        with gzip.open(pages, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f):
                if n % 40 or (root := parse_html(json.loads(line)["html"])) is None:
                    continue
                for body in root.iter("body"):
                    for limit in (-1, 30):
                        assert visible._compiled_title_like(body, limit) \
                            == list(visible._title_like_elements(body, limit)), f"{pages.parent.name} page {n}"
                elements = [el for el in root.iter() if isinstance(el.tag, str)]
                for head in [el for el in elements if el.tag in ("h1", "h2")] + elements[::50]:
                    python = visible._After(head)
                    python.walk(visible.AFTER)
                    where = f"{pages.parent.name} page {n}, <{head.tag}>"
                    assert _pieces(visible._compiled_after(head, visible.AFTER, visible.Piece, visible._SKIP)) \
                        == _pieces(python.pieces[:visible.AFTER]), where
                    assert _pieces(visible._compiled_before(head, visible.BEFORE, visible.Piece, visible._SKIP)) \
                        == _pieces(visible._pieces_before(head, visible.BEFORE)), where
