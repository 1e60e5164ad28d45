import io
import json
from dataclasses import replace

import pytest

from stemmer.extract import ExtractedBlock, Extraction, unmatched
from stemmer.outputs import writers
from stemmer.outputs.writers import FORMATS, Writer, jsonl_line, to_markdown, to_record, to_text, to_webstemmer


@pytest.fixture
def ex():
    blocks = (
        ExtractedBlock("title", 2, "The Title", "h1"),
        ExtractedBlock("main", 4, "First paragraph,\n  over two lines.", "p"),
        ExtractedBlock("main", 5, "A subheading", "h2"),
        ExtractedBlock("main", 6, "first item", "li"),
        ExtractedBlock("main", 6, "second item", "li"),
        ExtractedBlock("main", -1, "Quoted words", "blockquote", "container"),
        ExtractedBlock("main", -1, "x = 1", "pre", "container"),
        ExtractedBlock("sub", 8, "Related: Café opens", "li"),
    )
    return Extraction("news/a.html", "http://example.com/news/a.html", "example.com", True, "L0", 0.93,
                      "The Title", blocks, "pattern")


def written(fmt: str, *extractions) -> str:
    out = io.StringIO()
    writer = Writer(out, fmt)
    for e in extractions:
        writer.write(e)
    return out.getvalue()


def test_jsonl_record_has_the_documented_fields(ex):
    record = to_record(ex)
    assert {"id", "url", "site", "matched", "pattern", "title", "text", "sub"} <= set(record)
    assert record["id"] == "news/a.html" and record["url"] == "http://example.com/news/a.html"
    assert record["site"] == "example.com" and record["matched"] is True and record["pattern"] == "L0"
    assert record["title"] == "The Title"
    assert record["text"].split("\n")[0] == "First paragraph,"
    assert "A subheading\nfirst item\nsecond item\nQuoted words\nx = 1" in record["text"]
    assert "The Title" not in record["text"]
    assert record["sub"] == "Related: Café opens"


def test_jsonl_writes_one_json_object_a_line_keeping_unicode(ex):
    text = written("jsonl", ex, unmatched("b.html", None, "example.com"))
    lines = text.splitlines()
    assert len(lines) == 2
    assert "Café" in lines[0]
    second = json.loads(lines[1])
    assert second["matched"] is False and second["title"] is None and second["text"] == ""


def test_webstemmer_format(ex):
    assert to_webstemmer(ex) == (
        "!MATCHED: news/a.html\n"
        "PATTERN: L0\n"
        "TITLE: The Title\n"
        "MAIN-4: First paragraph, over two lines.\n"
        "MAIN-5: A subheading\n"
        "MAIN-6: first item\n"
        "MAIN-6: second item\n"
        "MAIN-6: Quoted words\n"
        "MAIN-6: x = 1\n"
        "SUB-8: Related: Café opens\n"
        "\n")


def test_webstemmer_format_of_an_unmatched_page():
    assert written("webstemmer", unmatched("b.html", None, "example.com")) == "!UNMATCHED: b.html\n\n"


def test_text_is_title_then_main_paragraphs(ex):
    text = to_text(ex)
    assert text.startswith("The Title\n\nFirst paragraph,")
    assert "\n\nA subheading\n\nfirst item\n\n" in text
    assert "Related" not in text


def test_text_writer_heads_each_page_and_skips_unmatched(ex):
    other = Extraction("b.html", None, "example.com", True, "L1", 1.0, None,
                       (ExtractedBlock("main", 1, "Only body", "p"),), "pattern")
    out = written("text", ex, unmatched("u.html", None, "example.com"), other)
    assert out.startswith("==> http://example.com/news/a.html <==\n\nThe Title\n")
    assert "\n==> b.html <==\n\nOnly body\n" in out
    assert "u.html" not in out


def test_markdown_keeps_headings_lists_quotes_and_code(ex):
    md = to_markdown(ex).split("\n\n")
    assert md[0] == "# The Title"
    assert "First paragraph, over two lines." in md
    assert "## A subheading" in md
    assert md.index("- first item") + 1 == md.index("- second item")
    assert "> Quoted words" in md
    assert "```\nx = 1\n```" in md
    assert not any("Related" in part for part in md)


def test_markdown_heading_levels():
    blocks = tuple(ExtractedBlock("main", i, f"Heading {tag}", tag) for i, tag in enumerate(("h3", "h4", "dt")))
    ex = Extraction("a", None, "s", True, "L0", 1.0, None, blocks, "pattern")
    assert to_markdown(ex) == "### Heading h3\n\n#### Heading h4\n\n- Heading dt"


def test_markdown_writer_heads_each_page_with_front_matter(ex):
    dated = replace(ex, date="2024-03-05T10:30:00+01:00", author='Jane "JD" Doe', date_from="slot")
    nameless = Extraction("b.html", None, "example.com", True, "L1", 1.0, None,
                          (ExtractedBlock("main", 1, "Only body", "p"),), "pattern")
    out = written("markdown", dated, unmatched("u.html", None, "example.com"), nameless)
    assert out.startswith('---\nurl: "http://example.com/news/a.html"\ntitle: "The Title"\n'
                          'date: 2024-03-05T10:30:00+01:00\nauthor: "Jane \\"JD\\" Doe"\n---\n\n# The Title\n')
    assert '\n---\nid: "b.html"\n---\n\nOnly body\n' in out
    assert "u.html" not in out


def test_jsonl_has_date_and_author_and_where_they_came_from(ex):
    record = json.loads(written("jsonl", replace(ex, date="2024-03-05", date_from="json-ld", author="Jane Doe",
                                                  author_from="byline")))
    assert (record["date"], record["date_from"], record["author"], record["author_from"]) == (
        "2024-03-05", "json-ld", "Jane Doe", "byline")
    assert json.loads(written("jsonl", ex))["date"] is None


def test_webstemmer_format_has_date_and_author_lines(ex):
    lines = to_webstemmer(replace(ex, date="2024-03-05", author="Jane Doe")).splitlines()
    assert lines[:5] == ["!MATCHED: news/a.html", "PATTERN: L0", "DATE: 2024-03-05", "AUTHOR: Jane Doe",
                         "TITLE: The Title"]
    assert to_webstemmer(replace(unmatched("b.html", None, "x"), date="2020-01-02")) == (
        "!UNMATCHED: b.html\nDATE: 2020-01-02\n\n")


def test_every_format_is_accepted_and_others_are_refused(ex):
    assert set(FORMATS) == {"jsonl", "webstemmer", "text", "markdown"}
    for fmt in FORMATS:
        assert written(fmt, ex)
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        Writer(io.StringIO(), "xml")


def test_webstemmer_lines_keep_the_main_n_form_for_container_blocks():
    blocks = (ExtractedBlock("main", -1, "Lead quote", "blockquote", "container"),
              ExtractedBlock("main", 3, "Body", "p"), ExtractedBlock("main", -1, "Aside", "p", "container"))
    ex = Extraction("a", None, "s", True, "L0", 1.0, None, blocks, "pattern")
    assert to_webstemmer(ex).splitlines()[2:-1] == ["MAIN-0: Lead quote", "MAIN-3: Body", "MAIN-3: Aside"]


def test_markdown_quotes_the_paragraphs_of_a_blockquote():
    from stemmer.blocks import parse_html, segment
    from stemmer.extract.apply import _tag

    page = segment(parse_html("<html><body><blockquote><p>Quoted words</p></blockquote><p>Plain</p></body></html>"))
    assert [_tag(b) for b in page.blocks] == ["blockquote", "p"]


def test_the_classifier_s_headline_is_not_repeated_as_the_first_line_of_text():
    blocks = (ExtractedBlock("main", -1, "Harbour Bridge Opens", "h1", "classifier", 0.9),
              ExtractedBlock("main", -1, "The bridge opened on Monday.", "p", "classifier", 0.8))
    ex = Extraction("a.html", None, "example.com", False, None, 0.2, "Harbour Bridge Opens", blocks, "classifier")
    for text in (to_record(ex)["text"], to_text(ex), to_markdown(ex)):
        assert text.count("Harbour Bridge Opens") <= 1 and "The bridge opened on Monday." in text
    assert to_record(ex)["text"] == "The bridge opened on Monday."
    other = Extraction("a.html", None, "example.com", False, None, 0.2, "Another title", blocks, "classifier")
    assert to_record(other)["text"] == "Harbour Bridge Opens\nThe bridge opened on Monday."


# Every character json escapes or not (controls, quotes, backslash, DEL, line separators, beyond the BMP).
_AWKWARD = "".join(map(chr, range(0x100))) + "\u2028\u2029\ufeff\U0001f600\ue000\uffff"


@pytest.mark.parametrize("orjson", [True, False])
@pytest.mark.parametrize("value", [_AWKWARD, "", None, True, False, 0.0, 0.9312, 1e-05, 1e16, 5e-324, 2 ** 70,
                                   float("nan"), float("inf"), "\ud800 lone surrogate"])
def test_jsonl_line_is_json_dumps_byte_for_byte(value, orjson, monkeypatch):
    if not orjson:
        monkeypatch.setattr(writers, "_orjson_dumps", None)
    record = {"id": "a", "value": value, "text": "Café\n«x»"}
    expected = json.dumps(record, ensure_ascii=False) + "\n"
    try:
        line = jsonl_line(record)
    except UnicodeEncodeError:  # a lone surrogate is no UTF-8: json's error, with or without orjson
        assert isinstance(value, str) and "\ud800" in value
        return
    assert line == expected.encode("utf-8")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_binary_stream_gets_the_text_streams_utf8(fmt, ex):
    other = replace(ex, id="b", title=_AWKWARD, date="2024-03-05", author="Zoë")
    out = io.BytesIO()
    writer = Writer(out, fmt)
    for e in (ex, other, unmatched("c", None, "example.com")):
        writer.write(e)
    assert out.getvalue() == written(fmt, ex, other, unmatched("c", None, "example.com")).encode("utf-8")
