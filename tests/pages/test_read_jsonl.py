import logging

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
