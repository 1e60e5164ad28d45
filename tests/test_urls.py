import itertools
import random

import pytest

from stemmer.urls import LinkResolver, join_url, last_name, normal_url

BASES = ["http://h/a/b.html", "http://h/a/c.html?x=/y#z/q", "http://h/a/", "http://h", "https://h/a/b;p?q",
         "http://[::1]:80/a/b", "http://h/a/../b/c", " http://h/a/d", "http://h/a/b/", "file:///a/b/c",
         "http://[oops/a/b", "h/a/b"]
HREFS = ["", " ", "\t", "?x", "#f", "x", "./x", "../x", "../../../x", "/x", "//g/x", "http:g", "https:g",
         "http://o/y", " /x", "\t/x", "/\t/x", "x/..", ".", "..", "index.html", "a/index.html", ";p", "g?y#s",
         "mailto:a@b", "http://[oops/x", "http://h:abc/", "//[bad/x", "x\ty", "a//b"]


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
