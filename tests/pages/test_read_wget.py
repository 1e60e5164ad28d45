import logging

from stemmer.pages.wget import read_wget

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 20


def test_each_subdir_is_a_host(write_wget, html):
    root = write_wget({"example.com/index.html": html("home"), "example.com/news/a.html": html("a"),
                       "www.other.org/b.htm": html("b")})
    pages = list(read_wget(root))
    assert [(p.id, p.url, p.site) for p in pages] == [
        ("example.com/index.html", "http://example.com/", "example.com"),
        ("example.com/news/a.html", "http://example.com/news/a.html", "example.com"),
        ("www.other.org/b.htm", "http://www.other.org/b.htm", "other.org")]


def test_root_named_like_a_host_is_the_host(write_wget, html):
    root = write_wget({"dir/index.html": html("x")}, root="example.com")
    [page] = read_wget(root)
    assert (page.id, page.url) == ("example.com/dir/index.html", "http://example.com/dir/")


def test_assets_and_robots_txt_are_skipped(write_wget, html):
    root = write_wget({"h.com/a.html": html("a"), "h.com/s.css": "body{}", "h.com/x.js": "<x",
                       "h.com/robots.txt": "<User-agent: *", "h.com/p.png": PNG, "h.com/noext": html("n"),
                       "h.com/page.php?id=3": html("q"), "h.com/feed.cgi2": "plain text"})
    assert [p.id for p in read_wget(root)] == ["h.com/a.html", "h.com/noext", "h.com/page.php?id=3"]


def test_empty_file_and_png_skipped_with_warning(write_wget, html, caplog):
    root = write_wget({"h.com/a.html": html("a"), "h.com/empty.html": "", "h.com/logo": PNG})
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [p.id for p in read_wget(root)] == ["h.com/a.html"]
    messages = caplog.text
    assert "empty.html: skipped, empty" in messages and "logo: skipped, binary content (PNG image)" in messages


def test_default_charset_applies(write_wget):
    root = write_wget({"h.com/a.html": "<p>Привет</p>".encode("cp1251")})
    [page] = read_wget(root, charset="cp1251")
    assert page.html == "<p>Привет</p>"
