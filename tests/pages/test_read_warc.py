import gzip
import json
import logging

import pytest

from stemmer.errors import InputError
from stemmer.pages.warc import LINKINFO_TYPE, read_warc


def test_html_responses_become_pages(write_warc, html):
    path = write_warc([("http://www.ex.com/a", html("a")),
                       {"url": "http://ex.com/img.png", "body": b"\x89PNG", "content_type": "image/png"},
                       {"url": "http://ex.com/gone", "body": html("404"), "status": "404 Not Found"},
                       {"url": "http://ex.com/r", "body": html("r"), "type": "resource"}])
    assert [(p.id, p.url, p.site) for p in read_warc(path)] == [
        ("http://www.ex.com/a", "http://www.ex.com/a", "ex.com"), ("http://ex.com/r", "http://ex.com/r", "ex.com")]


def test_missing_content_type_sniffs_body(write_warc, html):
    path = write_warc([{"url": "http://ex.com/a", "body": html("a"), "content_type": None},
                       {"url": "http://ex.com/t", "body": "just text", "content_type": None}])
    assert [p.id for p in read_warc(path)] == ["http://ex.com/a"]


def test_http_charset_decodes(write_warc):
    body = '<meta charset="utf-8"><p>Привет</p>'.encode("cp1251")
    path = write_warc([{"url": "http://ex.com/a", "body": body, "content_type": "text/html; charset=windows-1251"}])
    assert "Привет" in next(read_warc(path)).html


def test_linkinfo_metadata_at_end_attaches_anchors(write_warc, html):
    lines = "\n".join(json.dumps({"url": u, "anchors": a}) for u, a in [("http://ex.com/a", ["Story A"])])
    path = write_warc([("http://ex.com/a", html("a")), ("http://ex.com/b", html("b")),
                       {"url": "urn:stemmer:linkinfo", "body": lines, "type": "metadata", "content_type": LINKINFO_TYPE}])
    assert [p.anchors for p in read_warc(path)] == [("Story A",), ()]


def test_truncated_warc_gz_yields_records_before_damage(write_warc, html, caplog):
    path = write_warc([(f"http://ex.com/{i}", html(f"page {i} " + "x" * 3000)) for i in range(4)])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 5 // 8])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        pages = list(read_warc(path))
    assert [p.id for p in pages] == ["http://ex.com/0", "http://ex.com/1"]
    assert "crawl.warc.gz: truncated or damaged at offset" in caplog.text
    assert "Traceback" not in caplog.text


def test_truncated_plain_warc_yields_records_before_damage(write_warc, html, caplog):
    path = write_warc([(f"http://ex.com/{i}", html("x" * 3000)) for i in range(3)], name="c.warc", gzip_records=False)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.id for p in read_warc(path)] == ["http://ex.com/0"]
    assert "c.warc: truncated or damaged at offset" in caplog.text


def test_non_warc_file_raises_input_error(tmp_path):
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(gzip.compress(b"<!DOCTYPE html>\n<html></html>\n"))
    with pytest.raises(InputError, match=r"crawl\.warc\.gz: not a WARC file \(first line: '<!DOCTYPE html>'\)"):
        list(read_warc(path))


def test_whole_warc_gz_reads_without_warnings(write_warc, html, caplog):
    path = write_warc([(f"http://ex.com/{i}", html(f"page {i}")) for i in range(3)])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert len(list(read_warc(path))) == 3
    assert caplog.text == ""
