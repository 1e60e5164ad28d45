import logging
import zipfile

import pytest

from stemmer.errors import InputError
from stemmer.pages.zips import read_zip


def test_members_become_pages(write_zip, html):
    path = write_zip({"200601010000/www.example.com/a.html": html("a"), "200601010000/example.com/d/": html("d")})
    assert [(p.id, p.url, p.site) for p in read_zip(path)] == [
        ("200601010000/www.example.com/a.html", "http://www.example.com/a.html", "example.com"),
        ("200601010000/example.com/d/", "http://example.com/d/", "example.com")]


def test_repr_linkinfo_attaches_anchors(write_zip, html):
    linkinfo = ["('200601010000/ex.com/a.html', ['First story', u'Première'])",
                "('200601010000/ex.com/b.html', ['Other'])"]
    path = write_zip({"200601010000/ex.com/a.html": html("a")}, linkinfo=linkinfo)
    [page] = read_zip(path)
    assert page.anchors == ("First story", "Première")


def test_json_linkinfo_attaches_anchors(write_zip, html):
    path = write_zip({"2006/ex.com/a.html": html("a")},
                     linkinfo=['{"url": "http://ex.com/a.html", "anchors": ["Story"]}'])
    assert next(read_zip(path)).anchors == ("Story",)


def test_bad_linkinfo_line_warns_and_is_never_run(write_zip, html, caplog):
    path = write_zip({"2006/ex.com/a.html": html("a")},
                     linkinfo=["__import__('os').system('touch hacked')", "('2006/ex.com/a.html', ['ok'])"])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert next(read_zip(path)).anchors == ("ok",)
    assert "linkinfo line 1: skipped" in caplog.text


def test_unsafe_member_names_skipped_with_warning(write_zip, html, caplog):
    path = write_zip({"../../x": html("x"), "/abs/y.html": html("y"), "2006\\h.com\\z.html": html("z"),
                      "2006/h.com/ok.html": html("ok")})
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.id for p in read_zip(path)] == ["2006/h.com/ok.html"]
    assert caplog.text.count("unsafe member name") == 3


def test_truncated_zip_raises_input_error(write_zip, html):
    path = write_zip({f"2006/h.com/{i}.html": html("x" * 500 + str(i)) for i in range(10)})
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(InputError, match=r"crawl\.zip: not a readable zip file"):
        list(read_zip(path))


def test_corrupt_member_skipped_others_read(tmp_path, html, caplog):
    path = tmp_path / "crawl.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("2006/h.com/a.html", html("AAAA"))
        z.writestr("2006/h.com/b.html", html("BBBB"))
    path.write_bytes(path.read_bytes().replace(b"AAAA", b"AXAA"))  # breaks a.html's CRC only
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.id for p in read_zip(path)] == ["2006/h.com/b.html"]
    assert "2006/h.com/a.html: skipped, damaged member" in caplog.text
