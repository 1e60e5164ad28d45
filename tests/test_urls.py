import gzip
import itertools
import json
import os
import random
from pathlib import Path

import pytest

from stemmer.urls import LinkResolver, join_url, last_name, normal_url

BASES = ["http://h/a/b.html", "http://h/a/c.html?x=/y#z/q", "http://h/a/", "http://h", "https://h/a/b;p?q",
         "http://[::1]:80/a/b", "http://h/a/../b/c", " http://h/a/d", "http://h/a/b/", "file:///a/b/c",
         "http://[oops/a/b", "h/a/b", "HTTP://h/a/b", "http://h:80/a/b.html", "http://h:x/a", "http:///a/b",
         "http://h//a/b", "http://h/.a/b", "http://h/a/./b", "http://u@h/a?q#f", "http://h?q", "http://h#f",
         "http://ｈ/a/b", "http://h/é/b", "http://h/a/b/c/d.html", "https://h/a/b/c/"]
HREFS = ["", " ", "\t", "?x", "#f", "x", "./x", "../x", "../../../x", "/x", "//g/x", "http:g", "https:g",
         "http://o/y", " /x", "\t/x", "/\t/x", "x/..", ".", "..", "index.html", "a/index.html", ";p", "g?y#s",
         "mailto:a@b", "http://[oops/x", "http://h:abc/", "//[bad/x", "x\ty", "a//b",
         "b/", "b/index.htm", "/a/index.html?q#f", "/", "/?q", "/#f", "x?", "x#", "x?#f", "x?a?b#c#d", "x#?a",
         "/a/./b", "/a/../b", "/.well-known/x", "a/.b", "http://o", "http://o?q", "http://o#f", "http://o/a/../b",
         "https://h/x", "http://h:80/x", "http://h:x/y", "http:///x", "http://[::1]/x", "HTTP://o/y",
         "http://o/a;p", "a;b", "a\\b", "é/ü", "a:b", "a/b:c", "1:x", "x?y=a:b", "http://ｈ/x", "x\x7f",
         "x\x00y", "x\u3000y", "./", "../", "../../", "./a/../b", ".././x", "./../x", "../a/", "../../../../x/",
         "./.x", ".../x", "..a", "../x?q#f", "../index.html", "//o/x", "//o", "//o?q", "//h:x/y", "//o/a/../b"]


@pytest.mark.parametrize("seed", range(3))
def test_resolver_answers_as_join_url_whatever_page_asked_first(seed):
    # the memo is keyed by the base's folder or origin: a page of the same folder
    # must never get an answer that only another page's URL would give
    pairs = list(itertools.product(BASES, HREFS))
    random.Random(seed).shuffle(pairs)
    resolver = LinkResolver()
    for base, href in pairs:
        url = join_url(base, href)
        assert resolver.resolve(base, href) == (url, last_name(url or ""), normal_url(url)), (base, href)


def test_resolver_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(LinkResolver, "MAX_ENTRIES", 3)
    resolver = LinkResolver()
    for k in range(10):
        assert resolver.resolve("http://h/a/b", f"p{k}.html").url == f"http://h/a/p{k}.html"
    assert len(resolver._memo) <= 3


DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
STRIDE = 1 if os.environ.get("STEMMER_ALL_PAGES") else 40


@pytest.mark.skipif(not DATA.is_dir(), reason=f"no data sets in {DATA}")
def test_resolver_answers_as_join_url_on_the_links_of_the_data_sets():
    # every 40th page of each set (every page with STEMMER_ALL_PAGES=1), every link
    from stemmer.blocks import parse_html, segment

    for pages in sorted(DATA.glob("*/pages.jsonl.gz")):
        resolver = LinkResolver()
        with gzip.open(pages, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f):
                page = json.loads(line)
                if n % STRIDE or not page.get("url"):
                    continue
                base = page["url"]
                for href, _ in segment(parse_html(page["html"]), with_links=True).links:
                    url = join_url(base, href)
                    assert resolver.resolve(base, href) == (url, last_name(url or ""), normal_url(url)), (base, href)
