"""A fixture web site on 127.0.0.1 for the crawler tests, and readers for what the crawler writes."""
from __future__ import annotations

import gzip
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from warcio.archiveiterator import ArchiveIterator

from stemmer.crawl import CrawlOptions, crawl

TIMEOUT = 0.5     # -T in the tests; /slow.html answers after SLOW seconds
SLOW = 1.5
MAX_BYTES = 10_000  # /big.html and /big-stream.html are 30,000 bytes


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    headers: dict = field(default_factory=dict)
    delay: float = 0.0
    gzip: bool = False
    content_length: bool = True
    trickle: float = 0.0  # seconds between the body's bytes


def html(title: str, links=(), text: str = "") -> bytes:
    """A small page: a title, a paragraph and a list of (href, anchor HTML) links."""
    items = "".join(f'<li><a href="{href}">{anchor}</a></li>' for href, anchor in links)
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<p>{text or title + ' text.'}</p><ul>{items}</ul></body></html>").encode()


class Site:
    """A ThreadingHTTPServer serving `routes`.

    Every request's path goes to `requests`, and (host, path, headers) to `log`;
    `peak` is the most requests it has answered at once.
    """

    def __init__(self):
        self.routes: dict[str, Route] = {}
        self.requests: list[str] = []
        self.log: list[tuple[str, str, dict]] = []
        self.peak = 0
        in_flight = [0]
        lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's naming
                with lock:
                    in_flight[0] += 1
                    site.peak = max(site.peak, in_flight[0])
                try:
                    self.answer()
                finally:
                    with lock:
                        in_flight[0] -= 1

            def answer(self):
                site.requests.append(self.path)
                site.log.append((self.headers.get("Host", "").split(":")[0], self.path, dict(self.headers)))
                route = site.routes.get(self.path, Route(404, b"<html><body>not found</body></html>"))
                if route.delay:
                    time.sleep(route.delay)
                body = route.body
                headers = {"Content-Type": "text/html; charset=utf-8", **route.headers}
                if route.gzip and "gzip" in self.headers.get("Accept-Encoding", ""):
                    body = gzip.compress(body)
                    headers["Content-Encoding"] = "gzip"
                if route.content_length:
                    headers["Content-Length"] = str(len(body))
                try:
                    self.send_response(route.status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    if route.trickle:
                        for byte in body:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            time.sleep(route.trickle)
                    else:
                        self.wfile.write(body)
                except OSError:  # the crawler gave up on us (timeout, size cap)
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def page(self, path: str, title: str, links=(), **route) -> None:
        self.routes[path] = Route(body=html(title, links), **route)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def hub_links(site: Site) -> list[tuple[str, str]]:
    """The links of the home page: articles, a section, and every kind of trouble."""
    other = site.url("", host="localhost")  # the same server under another host name
    return [
        ("/a1.html", "Article  one"), ("/a2.html", "Article two"), ("/a3.html", "Article three"),
        ("/section/", "Section"), ("/private/secret.html", "Secret"),
        (f"{other}/elsewhere.html", "Elsewhere"),
        ("/img/photo.jpg", '<img alt="Photo" src="/img/photo.jpg">'),
        ("/old.html", "Old"), ("/away.html", "Away"), ("/missing.html", "Missing"),
        ("/broken.html", "Broken"), ("/slow.html", "Slow"), ("/big.html", "Big"),
        ("/big-stream.html", "Big stream"), ("/report", "Report"),
        ("mailto:someone@example.com", "Mail"), ("/a1.html#comments", "Comments"),
    ]


def build_site(site: Site) -> None:
    """The fixture site: a hub linking to articles and to every kind of trouble."""
    other = site.url("", host="localhost")  # the same server under another host name
    site.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow: /private/\n",
                                       headers={"Content-Type": "text/plain"})
    site.page("/", "Home", hub_links(site))
    site.page("/a1.html", "Article one", [("/a2.html", "Two again"), ("/", "Home")])
    site.page("/a2.html", "Article two", [("/a1.html", "One again")])
    site.page("/a3.html", "Article three", gzip=True)
    site.page("/a4.html", "Article four")
    site.page("/section/", "Section", [("deep.html", "Deep")])
    site.page("/section/deep.html", "Deep")
    site.page("/private/secret.html", "Secret")
    site.page("/elsewhere.html", "Elsewhere")
    site.routes["/old.html"] = Route(301, headers={"Location": "/a4.html"})
    site.routes["/away.html"] = Route(301, headers={"Location": f"{other}/a1.html"})
    site.routes["/broken.html"] = Route(500, b"<html><body>oops</body></html>")
    site.page("/slow.html", "Slow", delay=SLOW)
    site.routes["/big.html"] = Route(body=b"<html><body>" + b"x" * 30_000 + b"</body></html>")
    site.routes["/big-stream.html"] = Route(body=b"<html><body>" + b"y" * 30_000 + b"</body></html>",
                                            content_length=False)
    site.routes["/report"] = Route(body=b"%PDF-1.4 " + b"0" * 100, headers={"Content-Type": "application/pdf"})
    site.routes["/img/photo.jpg"] = Route(body=b"\xff\xd8", headers={"Content-Type": "image/jpeg"})


@pytest.fixture
def site():
    server = Site()
    build_site(server)
    yield server
    server.close()


@pytest.fixture
def run(site, tmp_path):
    """Crawl the fixture site with test-friendly knobs; keyword arguments override them."""
    def run_crawl(*start_paths, output="site.warc.gz", progress=None, **options):
        options = {"delay": 0, "timeout": TIMEOUT, "max_bytes": MAX_BYTES, **options}
        starts = [site.url(p) for p in (start_paths or ["/"])]
        return crawl(starts, tmp_path / output, CrawlOptions(**options), progress=progress)
    return run_crawl


def read_warc(path) -> list[dict]:
    """The records of a WARC file, read with warcio: type, URI, status, content type, body."""
    records = []
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            records.append({
                "type": record.rec_type,
                "uri": record.rec_headers.get_header("WARC-Target-URI"),
                "content_type": record.rec_headers.get_header("Content-Type"),
                "status": record.http_headers.get_statuscode() if record.http_headers else None,
                "http_headers": record.http_headers,
                "body": record.content_stream().read(),
            })
    return records


def warc_pages(path) -> dict[str, bytes]:
    """URL -> body of the response records of a WARC file."""
    return {r["uri"]: r["body"] for r in read_warc(path) if r["type"] == "response"}


def warc_linkinfo(path) -> dict[str, list[str]]:
    """URL -> anchors of the linkinfo metadata record of a WARC file."""
    [record] = [r for r in read_warc(path) if r["type"] == "metadata"]
    return {line["url"]: line["anchors"]
            for line in map(json.loads, record["body"].decode("utf-8").splitlines())}
