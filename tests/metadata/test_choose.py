import json

from stemmer.blocks import parse_html
from stemmer.metadata import page_metadata


def page(body, *, ld=None, head=""):
    script = f'<script type="application/ld+json">{json.dumps(ld)}</script>' if ld else ""
    return parse_html(f"<html lang='en'><head>{script}{head}<title>T</title></head><body>{body}</body></html>")


def test_a_stated_date_that_agrees_with_the_shown_one_gives_its_time_and_source():
    meta = page_metadata(page("<h1>A</h1><p>March 5, 2024</p>", ld={"@type": "Article",
                                                                  "datePublished": "2024-03-05T10:00:00Z"}))
    assert (meta.date, meta.date_from) == ("2024-03-05T10:00:00+00:00", "json-ld")


def test_a_shown_date_no_statement_confirms_yields_to_the_stated_publication():
    # theweek.com, breakingsoup.com (dates set): an embedded post's date by the headline, the article's in its markup
    meta = page_metadata(page("<h1>A</h1><p>March 5, 2024</p>", ld={"@type": "Article", "datePublished": "2019-01-01"}))
    assert (meta.date, meta.date_from) == ("2019-01-01", "json-ld")
    alone = page_metadata(page("<h1>A</h1><p>March 5, 2024</p>"))
    assert (alone.date, alone.date_from) == ("2024-03-05", "visible")


def test_a_date_above_the_headline_yields_to_a_stated_one():
    meta = page_metadata(page("<p>Recorded on August 19, 2025</p><h1>A</h1><p>text</p>",
                              ld={"@type": "Article", "datePublished": "2023-11-21"}))
    assert (meta.date, meta.date_from) == ("2023-11-21", "json-ld")


def test_a_stated_date_settles_an_ambiguous_numeric_one():
    meta = page_metadata(page('<h1>A</h1><p>02-12-2025</p>', head='<meta name="date" content="2025-12-02">'))
    assert (meta.date, meta.date_from) == ("2025-12-02", "meta")


def test_without_any_shown_date_the_most_reliable_statement_and_then_the_url():
    root = page("<h1>A</h1><p>text</p><time datetime='2020-02-02'>x</time>",
                head='<meta property="article:published_time" content="2021-01-01">')
    assert page_metadata(root).date_from == "meta"
    assert page_metadata(page("<h1>A</h1>"), "https://x.org/2022/03/04/a").date == "2022-03-04"
    assert page_metadata(page("<h1>A</h1>")).date is None


def test_the_times_of_a_listings_teasers_are_not_its_date():
    teasers = "".join(f"<li><a href='/p{d}'>Post {d}</a> <time datetime='2025-03-{d:02d}'>x</time></li>"
                      for d in range(1, 7))
    listing = page(f"<h1>Latest</h1><ul>{teasers}</ul>")
    assert page_metadata(listing).date is None
    assert page_metadata(listing, "https://x.org/2022/03/04/latest").date_from == "url"
    shown = page(f"<h1>Latest</h1><p>March 1, 2025</p><ul>{teasers}</ul>")  # shown by the headline: its own
    assert page_metadata(shown).date == "2025-03-01"
    one = page("<h1>A</h1><p>text</p><time datetime='2025-03-01'>x</time>")
    assert page_metadata(one).date == "2025-03-01"


def test_a_person_stated_as_author_beats_the_byline_and_the_byline_beats_an_organization():
    body = '<h1>A</h1><p class="byline">By Jane Doe</p>'
    person = page_metadata(page(body, ld={"@type": "Article", "author": {"@type": "Person", "name": "J. Doe"}}))
    org = page_metadata(page(body, ld={"@type": "Article", "author": {"@type": "Organization", "name": "Acme"}}))
    assert (person.author, person.author_from) == ("J. Doe", "json-ld")
    assert (org.author, org.author_from) == ("Jane Doe", "byline")
    assert page_metadata(page('<h1>A</h1>', ld={"@type": "Article", "author": {"@type": "Organization",
                                                                              "name": "Acme"}})).author == "Acme"


def test_what_the_caller_has_is_not_looked_for():
    root = page('<h1>A</h1><p class="byline">By Ann Lee</p><p>March 5, 2024</p>')
    assert (page_metadata(root).date, page_metadata(root).author) == ("2024-03-05", "Ann Lee")
    meta = page_metadata(root, find_date=False)
    assert (meta.date, meta.author, meta.author_from) == (None, "Ann Lee", "byline")
    meta = page_metadata(root, find_author=False)
    assert (meta.date, meta.date_from, meta.author) == ("2024-03-05", "visible", None)


# Issue 43's date mechanisms, each built like the dev pages it was seen on.

def test_a_day_read_from_a_month_and_a_number_does_not_beat_a_stated_full_date():
    # "Issue 1 January 2025" by the headline reads as 2025-01-01; the article states its day
    meta = page_metadata(page("<h1>A</h1><p>Issue 1 January 2025</p><p>text</p>",
                              head='<meta property="article:published_time" content="2025-01-17T09:00:00+01:00">'))
    assert meta.date[:10] == "2025-01-17"


def test_an_update_date_nothing_confirms_is_not_the_publication_where_one_is_stated():
    ld = {"@type": "Article", "datePublished": "2024-10-15T18:50:03+00:00"}
    meta = page_metadata(page("<h1>A</h1><p>Updated on June 18, 2025</p><p>text</p>", ld=ld))
    assert (meta.date[:10], meta.date_from) == ("2024-10-15", "json-ld")
    only = page_metadata(page("<h1>A</h1><p>Updated on June 18, 2025</p><p>text</p>"))
    assert only.date == "2025-06-18"  # nothing else dates the page
    # the page shows its last change and its markup says so (mceb 0044, 0075, 0199: the readers' date)
    changed = page_metadata(page("<h1>A</h1><p>Updated on June 18, 2025</p><p>text</p>",
                                 ld=ld | {"dateModified": "2025-06-18T16:35:02+00:00"}))
    assert changed.date[:10] == "2025-06-18"


def test_the_opening_posts_date_is_a_threads_date_not_a_date_in_a_reply():
    # mceb 0559 (Vanilla forum): the first post's text opens with another date
    ld = {"@type": "DiscussionForumPosting", "headline": "A", "dateCreated": "2025-03-01 16:35:52"}
    posts = "".join(f"<div class='post'><time datetime='2025-03-0{d}T10:00:00+00:00'>March 2025</time>"
                    f"<p>{text}</p></div>" for d, text in ((1, "On 2 Dec 2024, I received this message"),
                                                             (4, "Sad news"), (6, "Indeed")))
    meta = page_metadata(page(f"<h1>A</h1>{posts}", ld=ld))
    assert meta.date[:10] == "2025-03-01"


def test_a_shown_local_day_agrees_with_a_utc_moment_of_the_next_or_the_day_before():
    # Repubblica.it, whdh.com (dates set): 23:01 UTC is already the next day where the page is published
    ld = {"@type": "NewsArticle", "datePublished": "2023-11-01T23:01:00Z"}
    meta = page_metadata(page("<h1>A</h1><p>2 novembre 2023</p>", ld=ld))
    assert meta.date == "2023-11-02"
    own_zone = {"@type": "NewsArticle", "datePublished": "2020-09-23T20:12:38+03:00"}  # mk.ru: its own zone
    assert page_metadata(page("<h1>A</h1><p>24 September 2020</p>", ld=own_zone)).date[:10] == "2020-09-23"


def test_where_nothing_dates_the_page_an_element_marked_as_a_date_does():
    # beltz.de, medef.fr (dates set): the headline found is not the article's, its date is in a "...-date" element
    menu = "".join(f"<li>Topic {i}</li>" for i in range(40))  # more than the headline's surroundings read
    meta = page_metadata(page(f"<h1>Newsletter</h1><ul>{menu}</ul><div class='a'><h2>Post</h2>"
                              "<span class='news-list-date'>Mittwoch, 20. Februar 2019</span><p>text</p></div>"))
    assert (meta.date, meta.date_from) == ("2019-02-20", "marked")
