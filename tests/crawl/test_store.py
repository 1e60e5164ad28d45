import ast
import os
import zipfile

import pytest

from stemmer.crawl.fetch import Fetched
from stemmer.crawl.store import (LINKINFO_CONTENT_TYPE, atomic_output, format_of, member_name,
                                 write_warc, write_zip)

from .conftest import read_warc


def page(url: str, body: bytes = b"<html><p>hi</p></html>") -> Fetched:
    return Fetched(url=url, requested=url, status=200, reason="OK", protocol="HTTP/1.1",
                   headers=(("Content-Type", "text/html"), ("Content-Length", str(len(body)))),
                   request_headers=(("User-Agent", "stemmer/0.1"),), body=body,
                   date="2024-05-06T07:08:09Z")


def test_member_name_drops_scheme_and_fragment_keeps_query():
    assert member_name("https://example.com/a/b.html?x=1#top", "202401010000") == \
        "202401010000/example.com/a/b.html?x=1"


def test_member_name_appends_index_name_after_slash():
    assert member_name("http://example.com:8080/news/", "T", "index.html") == "T/example.com:8080/news/index.html"
    assert member_name("http://example.com/news/", "T") == "T/example.com/news/"


def test_format_from_extension_or_argument():
    assert format_of("x.zip") == "zip"
    assert format_of("x.warc.gz") == "warc"
    assert format_of("x.warc.gz", "zip") == "zip"
    with pytest.raises(ValueError, match="warc, zip"):
        format_of("x", "tar")


def test_warc_has_warcinfo_request_response_and_linkinfo_last(tmp_path):
    path = tmp_path / "out.warc.gz"
    write_warc(path, [page("http://example.com/")], [("http://example.com/a", ["A", "\u00e9"])],
               info={"software": "stemmer/0.1", "default-charset": "iso-8859-1"})
    records = read_warc(path)
    assert [r["type"] for r in records] == ["warcinfo", "response", "request", "metadata"]
    assert b"default-charset: iso-8859-1" in records[0]["body"]
    assert records[1]["status"] == "200" and records[1]["body"] == b"<html><p>hi</p></html>"
    assert records[-1]["content_type"] == LINKINFO_CONTENT_TYPE
    assert records[-1]["body"].decode() == '{"url": "http://example.com/a", "anchors": ["A", "\u00e9"]}\n'


def test_zip_members_and_linkinfo(tmp_path):
    path = tmp_path / "out.zip"
    write_zip(path, [page("http://example.com/"), page("http://example.com/a?p=1")],
              [("http://example.com/a?p=1", ["A one"])], timestamp="202401010000", index_name="index.html")
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == ["202401010000/example.com/index.html",
                                      "202401010000/example.com/a?p=1", "linkinfo"]
        lines = archive.read("linkinfo").decode().splitlines()
    assert [ast.literal_eval(line) for line in lines] == [("202401010000/example.com/a?p=1", ["A one"])]


def test_failed_write_leaves_no_file(tmp_path):
    path = tmp_path / "out.warc.gz"
    with pytest.raises(RuntimeError), atomic_output(path) as out:
        out.write(b"half")
        raise RuntimeError("disk full")
    assert os.listdir(tmp_path) == []
