"""Hostile pages served on 127.0.0.1, crawled, then analyzed (by `main`): no exception, no site lost."""
from __future__ import annotations

import logging
import os
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from stemmer.cli import main  # noqa: E402

from .hostile import BAD_URLS, hostile_page  # noqa: E402


@pytest.fixture(scope="module")
def server():
    """A server on 127.0.0.1 answering each path from `pages` (bytes), 404 otherwise."""
    pages: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's naming
            body = pages.get(self.path.split("?")[0])
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", pages
    httpd.shutdown()


@settings(max_examples=int(os.environ.get("STEMMER_FUZZ_EXAMPLES", 3)), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_crawl_then_analyze_hostile_pages(seed, server, tmp_path_factory, capsys, caplog):
    base, pages = server
    rng = random.Random(seed)
    served = [hostile_page(rng, "127.0.0.1", i, scale=0.05) for i in range(8)]
    links = "".join(f'<a href="/p{i}.html">page {i}</a><a href="{rng.choice(BAD_URLS)}">x</a>'
                    for i in range(len(served)))
    pages.clear()
    pages["/"] = f'<html><head><base href="{rng.choice(BAD_URLS)}"></head><body>{links}</body></html>'.encode()
    pages.update({f"/p{i}.html": p.data for i, p in enumerate(served)})
    tmp = tmp_path_factory.mktemp("crawl")
    with caplog.at_level(logging.DEBUG, logger="stemmer"):
        assert main(["crawl", base + "/", "-o", str(tmp / "site.warc.gz"), "-m", "2", "-D", "0"]) == 0
        code = main(["analyze", str(tmp / "site.warc.gz"), "-o", str(tmp / "patterns")])
    said = capsys.readouterr().err + caplog.text
    assert code in (0, 1) and "Traceback" not in said and "analyze failed" not in said
