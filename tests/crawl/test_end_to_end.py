"""crawl -> analyze -> extract on a news site whose headline only the link texts give away.

The article template of the fixture site puts three blocks before the body:

- an ``<h1>`` section banner ("World news"), the most title-like tag of the page;
- the real headline, in a plain ``<div class="headline">``;
- a standfirst that repeats the opening of the body's intro paragraph.

``<title>`` is the site's name on every page (a headline there would give it away on its
own). Without link texts, analyze falls back on the similarity rule (the block whose text
runs longest inside the main text) and takes the standfirst or the intro for the title. With the link
texts the crawler records (the index pages link to every article with its headline), it
takes the headline.
"""
from __future__ import annotations

import ast
import json
import random
import zipfile
from dataclasses import replace

import pytest

from stemmer.api import analyze, extract
from stemmer.cli import main
from stemmer.crawl import CrawlOptions, crawl
from stemmer.pages import read_pages

from .conftest import Route, Site

HEADLINE_KEY = "body/div.article/div.headline"
TIMESTAMP = "202401010000"

# Day one's articles, then the two that appear on day two. Path -> (section, headline).
DAY1 = {f"/news/{i}.html": item for i, item in enumerate([
    ("World", "Harbour town votes to rebuild its old stone bridge"),
    ("Sport", "Rowing club wins the river cup for a third year"),
    ("World", "Storm closes the coast road for two days"),
    ("Sport", "New stadium lights switched on before the derby"),
    ("World", "Library opens a reading room in the railway station"),
    ("Sport", "Cycling race moves its finish to the market square"),
    ("World", "Ferry service returns to the island after repairs"),
    ("Sport", "Young goalkeeper signs with the city team"),
], 1)}
DAY2 = {"/news/9.html": ("World", "Orchard growers expect an early harvest"),
        "/news/10.html": ("Sport", "Marathon route passes the cathedral for the first time")}

NAV = ('<ul class="nav"><li><a href="/">Home</a></li><li><a href="/world/">World</a></li>'
       '<li><a href="/sport/">Sport</a></li></ul>')
# Article bodies are random words, seeded by the article number: every body differs (as
# DiffScore needs) and every run serves the same pages.
_WORDS = ("council harbour winter market bridge school garden museum festival budget village "
          "forest doctor teacher farmer election court ferry tunnel theatre bakery factory airport "
          "canal hospital plans opens delays approves welcomes doubles visitors morning evening").split()


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def article_html(number: int, section: str, headline: str) -> bytes:
    rng = random.Random(number)
    opening = _sentence(rng, 16)
    intro = f"{opening} {_sentence(rng, 14)} {_sentence(rng, 12)}"
    paragraphs = "".join(f"<p>{_sentence(rng, 24)} {_sentence(rng, 20)}</p>" for _ in range(4))
    return f"""<html><head><title>The Fixture Times</title></head><body>
<div class="masthead">The Fixture Times</div>
{NAV}
<div class="article">
<h1 class="section">{section} news</h1>
<div class="headline">{headline}</div>
<p class="standfirst">{opening}</p>
<div class="body"><p class="intro">{intro}</p>{paragraphs}</div>
</div>
<div class="footer">Copyright The Fixture Times</div>
</body></html>""".encode()


def index_html(name: str, articles: dict[str, tuple[str, str]]) -> bytes:
    items = "".join(f'<li><a href="{path}">{headline}</a> <a href="{path}">Read more</a></li>'
                    for path, (_, headline) in articles.items())
    return (f"<html><head><title>The Fixture Times</title></head><body>"
            f'<div class="masthead">The Fixture Times</div>{NAV}<h2>{name}</h2>'
            f'<ul class="teasers">{items}</ul><div class="footer">Copyright The Fixture Times</div>'
            f"</body></html>").encode()


def publish(site: Site, articles: dict[str, tuple[str, str]]) -> None:
    """Serve `articles` and index pages linking to all of them, headline as link text."""
    for path, (section, headline) in articles.items():
        site.routes[path] = Route(body=article_html(int(path.split("/")[-1].split(".")[0]), section, headline))
    site.routes["/"] = Route(body=index_html("Latest", articles))
    for section in ("World", "Sport"):
        site.routes[f"/{section.lower()}/"] = Route(
            body=index_html(section, {p: a for p, a in articles.items() if a[0] == section}))


@pytest.fixture
def news():
    site = Site()
    site.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow: /private/\n",
                                       headers={"Content-Type": "text/plain"})
    publish(site, DAY1)
    yield site
    site.close()


def headlines(site: Site, articles) -> dict[str, str]:
    return {site.url(path): headline for path, (_, headline) in articles.items()}


def title_key(patterns) -> str | None:
    """The title slot of the layout the articles were put in."""
    [layout] = [lay for lay in patterns.get("127.0.0.1").layouts
                if all("/news/" in page_id for page_id in lay.members)]
    return next((s.key for s in layout.sections if s.role == "title"), None)


def titles(pages, patterns) -> dict[str, str | None]:
    return {ex.url: ex.title for ex in extract(pages, patterns) if "/news/" in ex.url}


def test_link_texts_find_the_headline_that_similarity_alone_misses(news, tmp_path):
    report = crawl(news.url("/"), tmp_path / "day1.warc.gz", CrawlOptions(delay=0, timeout=2, urldb=tmp_path / "urls.db"))
    assert report.stored == 3 + len(DAY1) and report.errors == 0
    pages = list(read_pages(tmp_path / "day1.warc.gz"))
    articles = [p for p in pages if "/news/" in p.url]
    # The linkinfo record: each link text once per target, in order of first sight.
    assert {p.url: p.anchors for p in articles} == {url: (headline, "Read more")
                                                    for url, headline in headlines(news, DAY1).items()}

    patterns = analyze(pages)
    assert title_key(patterns) == HEADLINE_KEY
    assert titles(pages, patterns) == headlines(news, DAY1)

    # Either source of link texts is enough: the crawler's linkinfo record (index pages
    # left out of analyze), or the links of the crawled index pages (anchors dropped).
    assert title_key(analyze(articles)) == HEADLINE_KEY
    assert title_key(analyze([replace(p, anchors=()) for p in pages])) == HEADLINE_KEY

    # Without any link text, the similarity rule takes a body-like block for the title.
    bare = [replace(p, anchors=()) for p in articles]
    blind = analyze(bare)
    assert title_key(blind) != HEADLINE_KEY, "the fixture no longer shows what link texts add"
    assert not set(titles(bare, blind).values()) & set(headlines(news, DAY1).values())

    # The next day: a crawl with the URL database fetches only the new articles, and the
    # patterns learned on day one find their headlines without any link text.
    publish(news, {**DAY1, **DAY2})
    crawl(news.url("/"), tmp_path / "day2.warc.gz", CrawlOptions(delay=0, timeout=2, urldb=tmp_path / "urls.db"))
    new = [replace(p, anchors=()) for p in read_pages(tmp_path / "day2.warc.gz")]
    assert titles(new, patterns) == headlines(news, DAY2)


def test_zip_crawl_analyze_extract_through_the_command_line(news, tmp_path):
    archive, patterns, out = tmp_path / "site.zip", tmp_path / "patterns", tmp_path / "out.jsonl"
    assert main(["crawl", news.url("/"), "-o", str(archive), "--format", "zip", "-D", "0", "-q",
                 "-i", "index.html", "-b", TIMESTAMP]) == 0
    host = f"127.0.0.1:{news.port}"
    with zipfile.ZipFile(archive) as z:
        linkinfo = dict(ast.literal_eval(line) for line in z.read("linkinfo").decode().splitlines())
    for path, (_, headline) in DAY1.items():
        assert linkinfo[f"{TIMESTAMP}/{host}{path}"] == [headline, "Read more"]

    assert main(["analyze", str(archive), "-o", str(patterns), "-q"]) == 0
    assert main(["extract", str(archive), "-p", str(patterns), "-o", str(out), "-q"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["url"]: r["title"] for r in records if "/news/" in r["url"]} == headlines(news, DAY1)

    # The zip's linkinfo alone (index pages left out) gives the same titles.
    articles = [p for p in read_pages(archive) if "/news/" in p.id]
    assert {p.url: p.anchors[0] for p in articles} == headlines(news, DAY1)
    assert all(p.anchors == (p.anchors[0], "Read more") for p in articles)
    assert title_key(analyze(articles)) == HEADLINE_KEY
    assert title_key(analyze([replace(p, anchors=()) for p in articles])) != HEADLINE_KEY
