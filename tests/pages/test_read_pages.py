import io
import logging

import pytest

from stemmer.errors import InputError
from stemmer.pages import read_pages


def test_dispatches_by_kind(write_wget, write_zip, write_warc, write_jsonl, html):
    inputs = [write_wget({"h.com/a.html": html("w")}), write_zip({"2006/z.com/a.html": html("z")}),
              write_warc([("http://w.com/a", html("warc"))]), write_jsonl([{"url": "http://j.com/", "html": html("j")}])]
    assert [p.site for p in read_pages(inputs)] == ["h.com", "z.com", "w.com", "j.com"]


def test_single_html_file_uses_canonical_url(tmp_path, html):
    path = tmp_path / "page.html"
    path.write_text(html("x", head='<link href="https://www.ex.com/p" rel="canonical">'))
    [page] = read_pages(path)
    assert (page.id, page.url, page.site) == (str(path), "https://www.ex.com/p", "ex.com")


def test_single_html_file_without_url_is_local(tmp_path, html):
    path = tmp_path / "page.html"
    path.write_text(html("x"))
    assert next(read_pages(str(path))).site == "local"


def test_unknown_suffix_sniffed(write_warc, write_zip, html):
    warc, zipped = write_warc([("http://w.com/a", html("a"))], name="crawl.bin"), write_zip({"2006/z.com/a": html("z")}, name="z.dat")
    assert [p.id for p in read_pages([warc, zipped])] == ["http://w.com/a", "2006/z.com/a"]


def test_stdin_list_of_files(tmp_path, monkeypatch, html, write_zip, caplog):
    (tmp_path / "a.html").write_text(html("a"))
    (tmp_path / "b.htm").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    zipped = write_zip({"2006/z.com/a": html("z")})
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{tmp_path / 'a.html'}\n\n{tmp_path / 'b.htm'}\n{zipped}\n"))
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.id for p in read_pages("-")] == [str(tmp_path / "a.html"), "2006/z.com/a"]
    assert "b.htm: skipped, binary content (PNG image)" in caplog.text


def test_missing_path_raises_input_error(tmp_path):
    with pytest.raises(InputError, match=r"nope\.warc: no such file or directory"):
        list(read_pages(tmp_path / "nope.warc"))


def test_unknown_format_raises_input_error(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"\0\1\2 binary")
    with pytest.raises(InputError, match=r"data\.bin: unknown input format"):
        list(read_pages(path))


def test_duplicate_id_skipped_with_warning(write_warc, html, caplog):
    path = write_warc([("http://w.com/a", html("1")), ("http://w.com/a", html("2"))])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.html for p in read_pages(path)] == [html("1")]
    assert "http://w.com/a: skipped, same id as an earlier page" in caplog.text


def test_page_with_stray_nuls_is_read(write_wget, html):
    page = html("<p>one</p>\0<p>two</p>", title="t").encode().replace(b"<p>", b"\0<p>")
    [read] = read_pages(write_wget({"h.com/a.html": page}))
    assert read.html == html("<p>one</p><p>two</p>", title="t")
