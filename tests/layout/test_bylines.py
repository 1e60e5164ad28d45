"""Date and byline slots: learned by agreement with what the pages state, stored as roles, read at extract."""
import json
import random

import pytest

from stemmer import Page, analyze, extract
from stemmer.layout.bylines import byline_author, slot_date
from stemmer.layout.store import VERSION, load_patterns, save_patterns

DAYS = ["2024-03-05", "2023-11-20", "2022-01-09", "2024-07-12", "2021-06-03", "2023-02-28", "2020-10-01",
        "2024-12-24", "2022-08-07", "2021-04-11"]


def _words(rng: random.Random, k: int) -> str:
    return " ".join("".join(rng.choice("abcdefghijklmnoprstuvy") for _ in range(rng.randint(3, 8))) for _ in range(k))


def _numeric(day: str, day_first: bool) -> str:
    y, m, d = day.split("-")
    return f"{d}/{m}/{y}" if day_first else f"{m}/{d}/{y}"


def _post(n: int, *, stated: bool = True, day_first: bool = True, stated_day: str | None = None) -> Page:
    """A post whose header shows "Posted 05/03/2024 by <author>"; `stated`: its JSON-LD says date and author too.

    A sidebar shows another date (the latest comment's) that agrees with nothing the page states.
    """
    rng = random.Random(n)
    day, author = DAYS[n % len(DAYS)], ["Jane Doe", "John Roe", "Ann Lee"][n % 3]
    ld = (f'<script type="application/ld+json">{{"@type": "BlogPosting", "datePublished": "{stated_day or day}", '
          f'"author": {{"@type": "Person", "name": "{author}"}}}}</script>') if stated else ""
    other = DAYS[(n + 3) % len(DAYS)]
    return Page(f"post-{n}", f"https://blog.example/post-{n}.html", "blog.example",
                f'<html><head><title>{_words(rng, 4)} | Blog</title>{ld}</head><body>'
                '<nav><a href="/">Home</a> <a href="/about.html">About</a></nav><header class="post-header">'
                f'<h1 class="post-title">{_words(rng, 5)}</h1>'
                f'<p class="post-meta">Posted {_numeric(day, day_first)} by {author}</p></header><article>'
                + "".join(f"<p>{_words(rng, 40)}</p>" for _ in range(3))
                + f'</article><aside class="latest"><p class="stamp">Last comment {other}</p></aside></body></html>')


def _roles(patterns, site="blog.example") -> dict[str, str]:
    [layout] = patterns.get(site).layouts
    return {s.key.rsplit("/", 1)[-1]: s.role for s in layout.sections}


@pytest.mark.parametrize("day_first", [True, False])
def test_the_slot_whose_text_says_what_the_pages_state_is_the_byline(day_first):
    patterns = analyze([_post(n, day_first=day_first) for n in range(8)], site_model=False)
    roles = _roles(patterns)
    assert roles["p.post-meta"] == "byline"
    assert roles["p.stamp"] not in ("date", "byline")
    [layout] = patterns.get("blog.example").layouts
    [meta] = [s for s in layout.sections if s.role == "byline"]
    assert meta.day_first is day_first
    # Pages that state nothing for machines: the slot alone gives their date and author.
    tests = [_post(n, stated=False, day_first=day_first) for n in range(8, 12)]
    for page, got in zip(tests, extract(tests, patterns, fallback=None)):
        n = int(page.id.split("-")[1])
        assert (got.date, got.date_from) == (DAYS[n % len(DAYS)], "slot")
        assert (got.author, got.author_from) == (["Jane Doe", "John Roe", "Ann Lee"][n % 3], "slot")
        assert "Posted" not in got.text and "Posted" not in got.sub


def test_the_page_s_own_statement_outweighs_a_slot_that_says_otherwise():
    patterns = analyze([_post(n) for n in range(8)], site_model=False)
    [got] = extract([_post(9, stated_day="2019-05-05")], patterns, fallback=None)
    assert (got.date, got.date_from) == ("2019-05-05", "json-ld")
    [got] = extract([_post(9)], patterns, fallback=None)
    assert (got.date, got.date_from) == (DAYS[9], "slot")


def test_without_statements_no_slot_is_a_date_slot():
    patterns = analyze([_post(n, stated=False) for n in range(8)], site_model=False)
    assert not {"date", "author", "byline"} & set(_roles(patterns).values())


def test_date_and_author_roles_survive_the_pattern_file(tmp_path):
    patterns = analyze([_post(n, day_first=False) for n in range(8)], site_model=False)
    save_patterns(patterns, tmp_path)
    doc = json.loads((tmp_path / "blog.example.json").read_text())
    assert doc["version"] == VERSION >= 2
    [meta] = [b for b in doc["layouts"][0]["blocks"] if b["role"] == "byline"]
    assert meta["day_first"] is False
    assert load_patterns(tmp_path) == patterns
    # An older file (version 1, no such roles) still loads.
    doc["version"] = 1
    for b in doc["layouts"][0]["blocks"]:
        if b["role"] == "byline":
            b["role"] = "sub"
            del b["day_first"]
    (tmp_path / "blog.example.json").write_text(json.dumps(doc))
    assert not {"date", "author", "byline"} & {s.role for s in load_patterns(tmp_path).get("blog.example").layouts[0].sections}


def test_a_pinned_date_slot_gives_the_date_and_outlives_a_new_analysis(tmp_path):
    """Pages that state no date: the user pins the sidebar's stamp as the date slot by hand."""
    pages = [_post(n, stated=False) for n in range(8)]
    save_patterns(analyze(pages, site_model=False), tmp_path)
    path = tmp_path / "blog.example.json"
    doc = json.loads(path.read_text())
    [stamp] = [b for b in doc["layouts"][0]["blocks"] if b["key"].endswith("p.stamp")]
    stamp.update(role="date", pinned=True)
    path.write_text(json.dumps(doc))
    save_patterns(analyze(pages, site_model=False), tmp_path)  # analyze again: the pin stays
    patterns = load_patterns(tmp_path)
    assert _roles(patterns)["p.stamp"] == "date"
    [got] = extract([_post(9, stated=False)], patterns, fallback=None)
    assert (got.date, got.date_from) == (DAYS[(9 + 3) % len(DAYS)], "slot")


@pytest.mark.parametrize("text, author", [
    ("By Jane Doe", "Jane Doe"),
    ("Posted 31-12-2022 by Sebastian Proost", "Sebastian Proost"),
    ("Publié le 5 mars 2024 par Marie Curie", "Marie Curie"),
    ("December 19, 2018 8 minute read", None),
])
def test_the_author_a_byline_names(text, author):
    assert byline_author(text) == author


def test_a_slot_s_date_in_its_order_of_day_and_month():
    assert slot_date("Posted 05/03/2024", day_first=True) == "2024-03-05"
    assert slot_date("Posted 05/03/2024", day_first=False) == "2024-05-03"
    assert slot_date("Fri, 03 April 2015 in pwn") == "2015-04-03"
    assert slot_date("8 minute read") is None
    assert slot_date("2025-01-10に更新2024-11-04に投稿15分で読む") == "2024-11-04"  # updated, then posted


def test_the_report_shows_the_byline_slot_and_the_page_s_date():
    from lxml import html as lxml_html

    from stemmer.report import report

    patterns = analyze([_post(n) for n in range(8)], site_model=False)
    dom = lxml_html.fromstring(report(patterns, [_post(9, stated=False)], pages_per_layout=1))
    [slot] = dom.xpath('//table[contains(@class, "slots")]//tr[@data-role="byline"]')
    [block] = dom.xpath('//table[contains(@class, "blocks")]//tr[@data-role="byline"]')
    assert "Posted" in block.text_content() and slot.get("data-slot") == block.get("data-slot")
    assert f"date {DAYS[9]} (slot)" in dom.xpath('string(//div[@class="extracted"])')
