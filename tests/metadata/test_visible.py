import gc

from stemmer.blocks import parse_html
from stemmer.metadata import visible_metadata


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
