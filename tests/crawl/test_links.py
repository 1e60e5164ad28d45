from stemmer.crawl.links import charset_of, extract_links, guess_encoding


def test_anchor_text_is_collapsed_and_includes_image_alt():
    body = b'<p><a href="/a"> Big\n  <b>news</b> <img src="x.png" alt="today"> </a></p>'
    assert extract_links(body, "http://example.com/") == [("http://example.com/a", "Big news today")]


def test_area_links_use_their_alt():
    body = b'<map><area href="b.html" alt="Region  B"></map>'
    assert extract_links(body, "http://example.com/dir/") == [("http://example.com/dir/b.html", "Region B")]


def test_base_href_changes_the_base_url():
    body = b'<head><base href="http://cdn.example.com/x/"></head><a href="y">Y</a>'
    assert extract_links(body, "http://example.com/") == [("http://cdn.example.com/x/y", "Y")]


def test_anchors_without_href_and_script_text_are_ignored():
    body = b'<a name="top">Top</a><a href="/s">S<script>var x = 1;</script></a>'
    assert extract_links(body, "http://example.com/") == [("http://example.com/s", "S")]


def test_empty_or_binary_body_gives_no_links():
    assert extract_links(b"", "http://example.com/") == []
    assert extract_links(b"  \n", "http://example.com/") == []


def test_page_encoding_from_header_then_meta_then_default():
    latin = "<a href='/x'>caf\u00e9</a>".encode("iso-8859-1")
    assert guess_encoding(latin, "text/html; charset=ISO-8859-1") == "iso8859-1"
    assert guess_encoding(b'<meta charset="shift_jis">' + latin) == "shift_jis"
    assert guess_encoding(latin, None, default="iso-8859-1") == "iso8859-1"
    assert guess_encoding(latin) == "cp1252"
    assert guess_encoding("caf\u00e9".encode()) == "utf-8"
    [(url, text)] = extract_links(latin, "http://example.com/", encoding=guess_encoding(latin))
    assert text == "caf\u00e9"


def test_charset_of_content_type():
    assert charset_of('text/html; charset="UTF-8"') == "UTF-8"
    assert charset_of("text/html") is None
