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


def test_the_date_shown_by_the_headline_beats_a_stale_stated_one():
    meta = page_metadata(page("<h1>A</h1><p>March 5, 2024</p>", ld={"@type": "Article", "datePublished": "2019-01-01"}))
    assert (meta.date, meta.date_from) == ("2024-03-05", "visible")


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
    shown = page(f"<h1>Latest</h1><p>March 1, 2025</p><ul>{teasers}</ul>")  # the first teaser's date, shown
    assert page_metadata(shown).date is None
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
