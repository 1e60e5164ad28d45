"""Shared test helpers: an HTML builder and writers of tiny crawls in each input format."""
from __future__ import annotations

import gzip
import io
import json
import zipfile
from pathlib import Path

import pytest


def build_html(body: str = "", *, title: str = "", head: str = "") -> str:
    """A small complete HTML page."""
    return f"<html><head>{head}<title>{title}</title></head><body>{body}</body></html>"


@pytest.fixture
def html():
    """The HTML builder: ``html(body, title=..., head=...)``."""
    return build_html


@pytest.fixture
def write_wget(tmp_path):
    """Writes ``{relative path: str | bytes}`` under ``tmp_path/mirror`` and returns the root."""
    def write(files: dict[str, str | bytes], root: str = "mirror") -> Path:
        for rel, data in files.items():
            path = tmp_path / root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.encode() if isinstance(data, str) else data)
        return tmp_path / root
    return write


@pytest.fixture
def write_zip(tmp_path):
    """Writes ``{member: str | bytes}`` (and ``linkinfo`` lines) to a zip and returns its path."""
    def write(members: dict[str, str | bytes], linkinfo: list[str] | None = None,
              name: str = "crawl.zip") -> Path:
        path = tmp_path / name
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for member, data in members.items():
                z.writestr(member, data)
            if linkinfo is not None:
                z.writestr("linkinfo", "\n".join(linkinfo) + "\n")
        return path
    return write


@pytest.fixture
def write_warc(tmp_path):
    """Writes records to a WARC.gz with warcio and returns its path.

    Each record is ``(url, body)`` for a 200 ``text/html`` response, or a dict with keys
    ``url``, ``body`` and optionally ``type`` (WARC-Type), ``content_type`` (HTTP, or the
    record's for resource/metadata; None leaves it out) and ``status``.
    """
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    def write(records: list, name: str = "crawl.warc.gz", gzip_records: bool = True) -> Path:
        path = tmp_path / name
        with open(path, "wb") as f:
            writer = WARCWriter(f, gzip=gzip_records)
            for rec in records:
                if isinstance(rec, tuple):
                    rec = {"url": rec[0], "body": rec[1]}
                body = rec["body"].encode() if isinstance(rec["body"], str) else rec["body"]
                kind = rec.get("type", "response")
                content_type = rec.get("content_type", "text/html")
                if kind == "response":
                    headers = [("Content-Type", content_type)] if content_type else []
                    http = StatusAndHeaders(rec.get("status", "200 OK"), headers, protocol="HTTP/1.1")
                    record = writer.create_warc_record(rec["url"], kind, payload=io.BytesIO(body),
                                                       http_headers=http)
                else:
                    record = writer.create_warc_record(rec["url"], kind, payload=io.BytesIO(body),
                                                       warc_content_type=content_type)
                writer.write_record(record)
        return path
    return write


@pytest.fixture
def write_jsonl(tmp_path):
    """Writes objects (or raw str lines) as JSON Lines, gzipped if the name ends in .gz."""
    def write(rows: list, name: str = "pages.jsonl") -> Path:
        path = tmp_path / name
        text = "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows)
        path.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
        return path
    return write


# --- a small synthetic site: two templates sharing a header and a footer ------------------

_WORDS = ("council harbour library river market school bridge garden festival budget volunteers "
          "station museum orchard tower theatre bakery meadow ferry railway clinic square").split()
SITE_HEADER = ('<header class="site-header"><a class="logo" href="/">The Daily Example</a>'
               '<nav class="menu"><ul><li><a href="/news/">News</a></li><li><a href="/sport/">Sport</a></li>'
               '<li><a href="/about.html">About us</a></li></ul></nav></header>')
SITE_FOOTER = ('<footer class="site-footer"><p class="copyright">Copyright 2024 Example Media, all rights '
               'reserved.</p><p class="legal"><a href="/privacy.html">Privacy policy</a></p></footer>')
ARTICLE_TITLES = ["Council Approves Harbour Footbridge", "Library Opens on Sundays at Last",
                  "Storm Closes the Ferry for Three Days", "Bakery Wins Award for Rye Bread",
                  "School Choir Sings at the Museum", "Orchard Festival Draws Record Crowd"]


def _sentence(rng, n: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n)).capitalize() + "."


def article_html(i: int, paragraphs: int | None = None) -> str:
    """Article ``i`` of the synthetic site: per-post id/classes, a headline, ``paragraphs`` paragraphs."""
    import random

    rng = random.Random(i)
    title = ARTICLE_TITLES[i % len(ARTICLE_TITLES)]
    paragraphs = paragraphs if paragraphs is not None else 3 + i % 4
    body = "".join(f"<p>{_sentence(rng, 12)} {_sentence(rng, 9)}</p>" for _ in range(paragraphs))
    return (f"<html><head><title>{title} - The Daily Example</title></head><body>{SITE_HEADER}"
            f'<main class="content"><article id="post-{1000 + i}" class="post post-{1000 + i}">'
            f'<h1 class="headline">{title}</h1><p class="byline">By Staff Writer {i}</p>'
            f'<div class="story">{body}</div></article></main>{SITE_FOOTER}</body></html>')


def index_html(j: int) -> str:
    """Index page ``j`` of the synthetic site: a list of teasers linking to articles."""
    import random

    rng = random.Random(100 + j)
    items = "".join(
        f'<li class="teaser"><a href="/news/{k}.html">{ARTICLE_TITLES[k % len(ARTICLE_TITLES)]}</a>'
        f'<span class="summary">{_sentence(rng, 10)}</span></li>'
        for k in range(j, j + 4))
    return (f"<html><head><title>News, page {j + 1} - The Daily Example</title></head><body>"
            f'{SITE_HEADER}<section class="archive"><h2 class="archive-title">Latest news</h2>'
            f'<ul class="teasers">{items}</ul></section>{SITE_FOOTER}</body></html>')


@pytest.fixture
def site_pages():
    """Six articles (one template) and four index pages (another) of example.com, as Pages."""
    from stemmer.pages import Page

    pages = [Page(f"example.com/news/{i}.html", f"http://example.com/news/{i}.html", "example.com",
                  article_html(i)) for i in range(6)]
    pages += [Page(f"example.com/news/index{j}.html", f"http://example.com/news/index{j}.html",
                   "example.com", index_html(j)) for j in range(4)]
    return pages


@pytest.fixture
def site_parts():
    """The synthetic site's builders: ``article(i, paragraphs)``, ``index(j)``, ``header``, ``footer``, ``titles``."""
    from types import SimpleNamespace

    return SimpleNamespace(article=article_html, index=index_html, header=SITE_HEADER, footer=SITE_FOOTER,
                           titles=ARTICLE_TITLES)
