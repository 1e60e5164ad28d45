import codecs
import random

from stemmer.pages.decode import decode_html, skip_reason


def test_utf8_bom_wins_over_meta():
    data = codecs.BOM_UTF8 + '<meta charset="shift_jis"><p>é</p>'.encode()
    assert decode_html(data) == '<meta charset="shift_jis"><p>é</p>'


def test_utf16_bom():
    assert decode_html(codecs.BOM_UTF16_LE + "<p>ü</p>".encode("utf-16-le")) == "<p>ü</p>"


def test_http_charset_wins_over_meta():
    data = '<meta charset="utf-8"><p>Привет</p>'.encode("koi8-r")
    assert "Привет" in decode_html(data, http_charset="koi8-r")


def test_meta_charset_cp1251():
    data = '<meta charset="windows-1251"><p>Привет</p>'.encode("cp1251")
    assert "Привет" in decode_html(data)


def test_http_equiv_shift_jis():
    data = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>日本語</p>'
    assert "日本語" in decode_html(data.encode("shift_jis"))


def test_xml_declaration():
    data = '<?xml version="1.0" encoding="iso-8859-2"?><p>łódź</p>'.encode("iso-8859-2")
    assert "łódź" in decode_html(data)


def test_wrong_declared_charset_falls_back_to_utf8():
    data = '<meta charset="shift_jis"><p>Ünïcödé ✓</p>'.encode()
    assert "Ünïcödé ✓" in decode_html(data)


def test_bogus_charset_label_is_ignored():
    data = '<meta charset="no-such-charset"><p>café</p>'.encode()
    assert "café" in decode_html(data, http_charset="rot13")


def test_default_used_when_nothing_declared():
    data = "<p>Привет</p>".encode("cp1251")
    assert decode_html(data, default="cp1251") == "<p>Привет</p>"


def test_latin1_label_decodes_as_windows_1252():
    assert decode_html(b"<p>\x93quoted\x94</p>", http_charset="ISO-8859-1") == "<p>\u201cquoted\u201d</p>"


def test_gb2312_label_decodes_as_gb18030():
    data = '<meta charset="gb2312"><p>𠀀汉字</p>'.encode("gb18030")
    assert "𠀀汉字" in decode_html(data)


def test_garbage_bytes_never_fail():
    text = decode_html(bytes(range(256)))
    assert isinstance(text, str) and len(text) == 255  # the NUL dropped


def test_skip_reason_png_empty_and_nul():
    assert "PNG" in skip_reason(b"\x89PNG\r\n\x1a\n" + b"\0" * 20)
    assert skip_reason(b"  \n") == "empty"
    assert "NUL" in skip_reason(b"<html>\0\0\0")
    assert skip_reason(b"<html></html>") is None


def test_stray_nuls_do_not_make_a_page_binary():
    page = b"<html><body>" + b"".join(b"\0<p>para %d</p>" % i for i in range(50)) + b"</body></html>"
    assert skip_reason(page) is None
    assert skip_reason(page.decode()) is None
    assert decode_html(page).startswith("<html><body><p>para 0</p><p>para 1</p>")  # NULs dropped


def test_random_bytes_and_magic_numbers_are_binary():
    noise = random.Random(1).randbytes(5000)
    assert "control bytes" in skip_reason(noise)
    assert "PDF" in skip_reason(b"%PDF-1.7\n" + b"<< /Type /Catalog >>\n" * 50)
    assert "executable" in skip_reason(b"\x7fELF" + b"<html>" * 10)


def test_utf16_without_bom_is_decoded():
    text = "<html><body><p>héllo wörld Ā</p></body></html>"
    for codec in ("utf-16-le", "utf-16-be"):
        assert skip_reason(text.encode(codec)) is None
        assert decode_html(text.encode(codec)) == text


DECODED_CASES = [  # (bytes, http charset, default charset)
    ("<p>plain ascii</p>".encode(), None, None), ('<meta charset="utf-8"><p>café €</p>'.encode(), None, None),
    ("<p>nul\x00 and é</p>".encode(), "utf-8", None), (b"<p>bad \xff utf-8</p>", None, None),
    (b"<p>surrogate \xed\xa0\x80</p>", "utf-8", None), (b"<p>cut \xe2\x82", None, None),
    ('<meta charset="windows-1251"><p>Привет</p>'.encode("cp1251"), None, None),
    ('<meta charset="euc-jp"><p>日本語</p>'.encode("utf-8"), None, None),  # a label the bytes fail, then UTF-8
    ("<p>é</p>".encode(), "iso-8859-1", None), ("<p>é</p>".encode(), None, "koi8-r"), ("<p>é</p>".encode(), "bogus", None),
    (codecs.BOM_UTF8 + "<p>é</p>".encode(), None, None), ("<p>ü</p>".encode("utf-16-le"), None, None),
]


def test_a_decoded_pages_html_is_decode_htmls():
    from stemmer.pages.decode import decoded_page

    for data, http, default in DECODED_CASES:
        page = decoded_page("a", None, "s", data, http_charset=http, default=default)
        text = decode_html(data, http_charset=http, default=default)
        assert page.html == text and page.utf8 == text.encode("utf-8", "surrogatepass"), data
    assert decoded_page("a", None, "s", DECODED_CASES[1][0])._utf8 is not None  # read as its bytes


def test_the_utf8_checks_agree_with_decoding():
    from stemmer.pages import decode

    try:
        from stemmer.pages._utf8 import valid_utf8
    except ImportError:
        valid_utf8 = decode._valid_utf8_python
    rng = random.Random(3)
    pieces = [b"a", b"<p>", b"abcdefghij", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\xed\x9f\xbf",
              b"\xc0\xaf", b"\xe0\x80\x80", b"\xf4\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xff", b"\xc3", b"\x80", b"\x00"]
    for _ in range(5000):
        data = b"".join(rng.choices(pieces, k=rng.randrange(0, 20)))
        try:
            data.decode("utf-8")
            valid = True
        except UnicodeDecodeError:
            valid = False
        assert valid_utf8(data) == decode._valid_utf8_python(data) == valid, data


def test_the_character_ends_agree_with_decoding():
    from stemmer.pages import decode

    try:
        from stemmer.pages._utf8 import chars_end
    except ImportError:
        chars_end = decode._chars_end_python
    rng = random.Random(5)
    pieces = ["a", "<p>", "\x01", "é", "€", "\U0001F600", "\ud800", "\udc00", "\ud83d\ude00", "\u3000"]
    for _ in range(3000):
        text = "".join(rng.choices(pieces, k=rng.randrange(0, 400)))
        data = text.encode("utf-8", "surrogatepass")
        for count in (0, 1, 5, 20, 60, rng.randrange(0, 500)):
            end = len(text[:count].encode("utf-8", "surrogatepass"))
            assert chars_end(data, count) == decode._chars_end_python(data, count) == end, (text, count)
