import json
import logging

import pytest

from stemmer.pages.jsonl import read_jsonl


def test_lines_become_pages_with_given_site(write_jsonl, html):
    path = write_jsonl([{"id": "p1", "site": "blog-7", "url": "http://www.ex.com/a", "html": html("a")},
                        {"url": "http://www.ex.com/b", "html": html("b"), "anchors": ["B"]}], name="p.jsonl.gz")
    assert [(p.id, p.url, p.site, p.anchors) for p in read_jsonl(path)] == [
        ("p1", "http://www.ex.com/a", "blog-7", ()), ("http://www.ex.com/b", "http://www.ex.com/b", "ex.com", ("B",))]


def test_bad_line_warns_with_line_number(write_jsonl, html, caplog):
    path = write_jsonl([{"url": None, "html": html("a")}, "{not json", {"url": "http://e.com/"}])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.id for p in read_jsonl(path)] == ["pages.jsonl:1"]
    assert "pages.jsonl line 2: skipped" in caplog.text and "line 3: skipped, no 'html' string" in caplog.text


def test_truncated_gzip_warns_after_good_lines(write_jsonl, html, caplog):
    path = write_jsonl([{"url": f"http://e.com/{i}", "html": html(str(i) * 2000)} for i in range(50)], name="p.jsonl.gz")
    path.write_bytes(path.read_bytes()[:-40])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert len(list(read_jsonl(path))) >= 1
    assert "truncated or damaged after line" in caplog.text


def test_gzipped_lines_longer_than_a_read_come_whole(tmp_path, html):
    import gzip
    import random

    from stemmer.pages.jsonl import _gzip_lines

    words = random.Random(0).choices(["alpha", "beta", "gamma", "delta"], k=400_000)  # compresses to many reads
    rows = [{"url": "http://e.com/a", "html": html(" ".join(words))}, {"url": "http://e.com/b", "html": html("b")},
            {"url": "http://e.com/c", "html": html("c")}]
    text = "\n".join(json.dumps(r) for r in rows)  # the last line has no end of line
    path = tmp_path / "p.jsonl.gz"
    path.write_bytes(gzip.compress(text.encode()))
    with gzip.open(path, "rb") as f:
        assert list(_gzip_lines(f)) == text.encode().splitlines(keepends=True)
    assert [len(p.html) for p in read_jsonl(path)] == [len(html(" ".join(words))), len(html("b")), len(html("c"))]


def test_lines_read_the_same_with_and_without_orjson(tmp_path, monkeypatch, html):
    from stemmer.pages import jsonl

    lines = [b'{"url": "http://e.com/a", "html": "<p>\\u00e9 caf\xc3\xa9</p>", "id": 12345678901234567890123}',
             b'{"url": "http://e.com/b", "html": "<p>lone \\ud800 surrogate</p>"}',  # json takes it, orjson not
             b'{"url": "http://e.com/c", "html": "<p>nan</p>", "site": NaN}',
             b'\xef\xbb\xbf{"url": "http://e.com/d", "html": "<p>bom</p>"}',
             '{"url": "http://e.com/e", "html": "<p>utf-16</p>"}'.encode("utf-16"),
             b'{"url": "http://e.com/f", "html": "<p>dup</p>", "html": "<p>last</p>"}',
             b'{"url": "http://e.com/g", "html": 1}', b"[1, 2]", b"{bad"]
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")

    def pages():
        return [(p.id, p.url, p.site, p.html) for p in jsonl.read_jsonl(path)]

    if jsonl._orjson_loads is None:
        pytest.skip("orjson is not installed")
    fast = pages()
    monkeypatch.setattr(jsonl, "_orjson_loads", None)
    assert fast == pages() and len(fast) >= 4


def test_nuls_in_a_pages_html_are_dropped(write_jsonl, html):
    path = write_jsonl([{"url": "http://e.com/a", "html": html("a\x00b")}, {"url": "http://e.com/b", "html": html("c")}])
    assert ["\x00" in p.html for p in read_jsonl(path)] == [False, False]
    assert "ab" in next(iter(read_jsonl(path))).html


@pytest.mark.parametrize("damage", ["cut", "garbage after"])
def test_gzip_lines_are_the_same_with_and_without_isal(write_jsonl, html, monkeypatch, caplog, damage):
    from stemmer.pages import jsonl

    path = write_jsonl([{"url": f"http://e.com/{i}", "html": html(f"{i} " * 3000)} for i in range(60)],
                       name="p.jsonl.gz")
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2] if damage == "cut" else data + b"garbage")

    def read():
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="stemmer"):
            pages = [(p.id, p.html) for p in read_jsonl(path)]
        return pages, [r.getMessage() for r in caplog.records]

    if jsonl._igzip is None:
        pytest.skip("isal is not installed")
    fast = read()
    monkeypatch.setattr(jsonl, "_igzip", None)
    slow = read()
    assert fast == slow and len(slow[0]) >= (10 if damage == "cut" else 60) and len(slow[1]) == 1
