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


# Lines whose html the UTF-8 reader (`_html_utf8`) must read as json.loads reads it, or leave to it.
TRICKY_LINES = [
    b'{"url": "http://e.com/a", "html": "<p>\\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9 caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80</p>"}',
    b'{"url": "http://e.com/b", "html": "<p>pair \\uD83D\\uDE00 \\ud83d\\ude00</p>"}',
    b'{"url": "http://e.com/c", "html": "<p>lone \\ud800 \\udc00 \\uD800\\uD800\\uDC00 \\uD800\\u0041 end\\uDBFF"}',
    b'{"url": "http://e.com/d", "html": "<p>nul\\u0000 \\u0000dropped</p>", "id": "x\\u0000y"}',
    b'{"url": "http://e.com/e", "html": "<p>bad \xff byte</p>"}',
    b'{"url": "http://e.com/f", "html": "<p>overlong \xc0\xaf, surrogate \xed\xa0\x80</p>"}',
    b'{"url": "http://e.com/g", "html": "<p>cut \xe2\x82</p>"}',
    b'{"url": "http://e.com/h", "html": "<p>control \x01 char</p>"}',
    b'{"url": "http://e.com/i", "html": "<p>bad \\x escape</p>"}',
    b'{"url": "http://e.com/j", "html": "<p>bad \\u12G4 escape</p>"}',
    b'{"url": "http://e.com/k", "\\u0068tml": "<p>escaped key</p>"}',
    b'{"url": "http://e.com/l", "html": "<p>dup</p>", "html": "<p>last</p>"}',
    b'{"url": "http://e.com/m", "meta": {"html": "<p>nested</p>", "a": [1, {"b": "}"}]}, "html": "<p>top</p>"}',
    b'{"url": "http://e.com/n", "note": "\\"html\\": \\"fake\\"", "html": "<p>real</p>"}',
    b' \t{ "url" : "http://e.com/o" ,\t"html"\n:\r"<p>spaces</p>" , "anchors" : [ "x" ] } ',
    b'{"url": "http://e.com/p", "html": "<p>trailing</p>"} x',
    b'{"url": "http://e.com/q", "html": "<p>number</p>", "n": 1, "f": 2.5, "b": true}',
    b'{"url": "http://e.com/r", "html": "<p>unclosed</p>',
    b'{"url": "http://e.com/s", "html": 5}',
    b'{"url": 5, "html": "<p>bad url</p>"}',
    b'{"url": "http://e.com/t", "html": ""}',
    b'{"url": "http://e.com/u", "html": "   \\u3000\\n"}',
    b'{"url": "http://e.com/v", "html": "\\u0089PNG\\r\\n"}',
    b'{}', b'[1, 2]', b'{bad', b'\xef\xbb\xbf{"url": "http://e.com/w", "html": "<p>bom</p>"}',
]


def _reference(line: bytes):
    """What json.loads makes of a line's html as UTF-8 bytes, NULs dropped; None where it refuses the line."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    html = obj.get("html") if isinstance(obj, dict) else None
    return html.replace("\x00", "").encode("utf-8", "surrogatepass") if isinstance(html, str) else None


def _utf8_readers():
    from stemmer.pages import jsonl
    try:
        from stemmer.pages._utf8 import html_utf8
    except ImportError:
        return [jsonl._html_utf8_python]
    return [jsonl._html_utf8_python, html_utf8]


@pytest.mark.parametrize("line", TRICKY_LINES)
def test_the_utf8_reader_reads_a_lines_html_as_json_does_or_leaves_the_line(line):
    for read in _utf8_readers():
        found = read(line)
        if found is not None:
            utf8, start, end = found
            # the line's html where json reads the line (else `_utf8_page` leaves the line to it), the span its content
            assert utf8 == _reference(line) or _reference(line) is None, (read, line)
            assert utf8 == _reference(b'{"html": "' + line[start:end] + b'"}'), (read, line)
    answers = {str(read(line)) for read in _utf8_readers()}
    assert len(answers) == 1, line  # the compiled twin and the Python one agree


def test_the_utf8_readers_agree_on_random_strings():
    import random
    rng = random.Random(7)
    pieces = [b"a", b"<p>", b" ", b'\\"', b"\\\\", b"\\/", b"\\n", b"\\t", b"\\u00e9", b"\\u0000", b"\\uD83D", b"\\uDE00",
              b"\\ud800", b"\\x", b"\\u12", b'"', b"\x01", b"\x1f", b"\x7f", b"\xc3\xa9", b"\xe2\x82\xac",
              b"\xf0\x9f\x98\x80", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\\"]
    readers = _utf8_readers()
    for _ in range(3000):
        content = b"".join(rng.choices(pieces, k=rng.randrange(0, 30)))
        line = b'{"url": "http://e.com/", "html": "' + content + b'"}'
        answers = [read(line) for read in readers]
        assert all(a == answers[0] for a in answers), line
        if answers[0] is not None:
            assert answers[0][0] == _reference(line), line
        elif _reference(line) is not None:  # left to json: only a content json.loads would refuse
            pytest.fail(f"not read: {line!r}")


@pytest.mark.parametrize("reader", ["compiled", "python"])
def test_lines_read_the_same_with_and_without_the_utf8_reader(tmp_path, monkeypatch, caplog, reader):
    from stemmer.pages import jsonl

    if reader == "compiled":
        if jsonl._compiled_html_utf8 is None:
            pytest.skip("the compiled reader is not built")
        monkeypatch.setattr(jsonl, "_HTML_UTF8", jsonl._compiled_html_utf8)
    else:
        monkeypatch.setattr(jsonl, "_HTML_UTF8", jsonl._html_utf8_python)
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\n".join(TRICKY_LINES) + b"\n")

    def read():
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="stemmer"):
            pages = list(jsonl.read_jsonl(path))
        return pages, [r.getMessage() for r in caplog.records]

    fast, fast_warnings = read()
    monkeypatch.setattr(jsonl, "_HTML_UTF8", lambda line: None)
    slow, slow_warnings = read()
    assert [(p.id, p.url, p.site, p.html, p.anchors, p.utf8) for p in fast] == \
        [(p.id, p.url, p.site, p.html, p.anchors, p.utf8) for p in slow]
    assert fast_warnings == slow_warnings and len(fast) >= 10 and len(slow_warnings) >= 10


@pytest.mark.parametrize("text", ["", "   \n", "\u3000 \u2003", "\x1c\x1f", " \ufeff<p>", "\x85 \xa0\u2028", " \u3000x", "<p>" + "é" * 9000 + "\x01" * 200,
                                  "é" * 8191 + "\x01" * 3000, "\U0001F600" * 8190 + "\x01\x01\x01\x01\x01",
                                  "<p>lone \ud800</p>" + "\x02" * 900, "\x89PNG\r\n", "GIF8" + "é" * 10, "\x00" * 50])
def test_skip_reason_of_utf8_bytes_is_the_texts(text):
    from stemmer.pages.decode import skip_reason, text_skip_reason

    assert text_skip_reason(text.encode("utf-8", "surrogatepass")) == skip_reason(text)


def test_a_page_read_as_utf8_is_the_page_of_its_text():
    from stemmer.pages.page import Page

    text = "<p>caf\u00e9 \ud800 \U0001F600</p>"
    read, made = Page.from_utf8("a", None, "s", text.encode("utf-8", "surrogatepass")), Page("a", None, "s", text)
    assert read == made and hash(read) == hash(made) and repr(read) == repr(made)
    assert read.html == text and read.utf8 == made.utf8
