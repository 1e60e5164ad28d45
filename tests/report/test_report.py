import gzip
import json
import re

import pytest
from lxml import html as lxml_html

import stemmer
from stemmer.cli import main
from stemmer.report import report

from .conftest import DEMO, SITE


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(capsys, *argv, mentions: str = "") -> None:
    code, _, err = run(capsys, *argv)
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("stemmer: error: ") and mentions in lines[0]
    assert "Traceback" not in err


def test_report_is_self_contained(demo_report):
    text = demo_report.read_text()
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""\s(src|href)=["']?(https?:|//)""", text)
    assert "@import" not in text and "url(" not in text
    assert "<svg" in text


def test_every_layout_and_block_is_in_the_html(demo_report, demo_patterns):
    dom = lxml_html.fromstring(demo_report.read_bytes())
    for lay in json.loads(demo_patterns.read_text())["layouts"]:
        rows = dom.xpath('//details[@data-layout=$id]//table[contains(@class, "slots")]//tr[@data-slot]',
                         id=lay["id"])
        assert [(r.get("data-key"), r.get("data-role")) for r in rows] == \
               [(b["key"], b["role"]) for b in lay["blocks"]]


def test_unmatched_page_is_listed_with_its_nearest_layout(demo_report):
    dom = lxml_html.fromstring(demo_report.read_bytes())
    [row] = dom.xpath('//table[contains(@class, "unmatched")]//tr[@data-page]')
    cells = [c.text_content() for c in row.xpath("td")]
    assert cells[0].endswith("about.html") and re.fullmatch(r"L\d+", cells[1])
    assert 0 <= float(cells[2]) < 0.5 and "below the match threshold" in cells[3]


def test_hand_edited_role_shows_in_report_and_extract(capsys, tmp_path, demo_patterns):
    doc = json.loads(demo_patterns.read_text())
    slot = next(i for i, b in enumerate(doc["layouts"][0]["blocks"]) if b["role"] == "static" and b["sample"])
    doc["layouts"][0]["blocks"][slot].update(role="sub", pinned=True)
    edited = tmp_path / f"{SITE}.json"
    edited.write_text(json.dumps(doc))
    page = sorted((DEMO / SITE / "news").rglob("*.html"))[0]
    assert run(capsys, "report", "-q", edited, page, "-o", tmp_path / "r.html")[0] == 0
    dom = lxml_html.fromstring((tmp_path / "r.html").read_bytes())
    [row] = dom.xpath('//details[@data-layout="L0"]//table[contains(@class, "slots")]//tr[@data-slot=$n]',
                      n=str(slot))
    assert row.get("data-role") == "sub" and "pinned" in row.text_content()
    shown = dom.xpath('//details[@data-layout="L0"]//table[contains(@class, "blocks")]//tr[@data-slot=$n]',
                      n=str(slot))
    assert shown and shown[0].get("data-role") == "sub"
    assert f"SUB-{slot}: " in run(capsys, "extract", "-q", "-p", edited, "-f", "webstemmer", page)[1]


def test_report_without_pages_shows_the_patterns(capsys, tmp_path, demo_patterns):
    assert run(capsys, "report", "-q", demo_patterns, "-o", tmp_path / "r.html")[0] == 0
    text = (tmp_path / "r.html").read_text()
    assert "No pages given" in text and 'data-layout="L0"' in text


def test_report_to_stdout(capsys, demo_patterns):
    code, out, _ = run(capsys, "report", "-q", demo_patterns, "-o", "-")
    assert code == 0 and out.startswith("<!DOCTYPE html>")


def test_texts_are_escaped(tmp_path, demo_patterns):
    doc = json.loads(demo_patterns.read_text())
    doc["layouts"][0]["blocks"][0]["sample"] = "<script>alert(1)</script>"
    doc["site"] = 'x"><img src=x>'
    html = report(stemmer.layout.store.from_json(doc))
    assert "<script>alert(1)" not in html and "<img src=x>" not in html


def test_api_report_accepts_pages_and_counts_other_sites(demo_patterns):
    pages = [stemmer.Page("x", "http://other.org/", "other.org", "<p>hello there</p>"),
             *list(stemmer.read_pages(DEMO))[:3]]
    html = report(stemmer.load_patterns(demo_patterns), pages, pages_per_layout=1)
    assert "Pages of sites without patterns" in html and "other.org" in html
    with pytest.raises(ValueError, match="pages_per_layout"):
        report(stemmer.load_patterns(demo_patterns), pages_per_layout=-1)


# --- bad input: one line, non-zero, no traceback, no report -----------------------------------

def test_corrupt_pattern_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "stemmer-patterns", "version": 1, "layouts": [')
    assert_one_line_error(capsys, "report", bad, "-o", tmp_path / "r.html", mentions="not valid JSON")
    assert not (tmp_path / "r.html").exists()


def test_foreign_json_file(capsys, tmp_path):
    foreign = tmp_path / "package.json"
    foreign.write_text('{"name": "left-pad", "version": "1.3.0"}')
    assert_one_line_error(capsys, "report", foreign, "-o", tmp_path / "r.html",
                          mentions="not a stemmer pattern file")


def test_binary_file_as_patterns(capsys, tmp_path):
    blob = tmp_path / "crawl.json"
    blob.write_bytes(gzip.compress(b"not json at all"))
    assert_one_line_error(capsys, "report", blob, "-o", tmp_path / "r.html", mentions=str(blob))


def test_html_page_as_patterns(capsys, tmp_path):
    assert_one_line_error(capsys, "report", sorted(DEMO.rglob("*.html"))[0], "-o", tmp_path / "r.html")


def test_pattern_file_with_a_bad_field(capsys, tmp_path, demo_patterns):
    doc = json.loads(demo_patterns.read_text())
    doc["layouts"][0]["blocks"][2]["role"] = "headline"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert_one_line_error(capsys, "report", bad, "-o", tmp_path / "r.html", mentions="layouts[0].blocks[2].role")


def test_corrupt_page_input_writes_no_report(capsys, tmp_path, demo_patterns):
    broken = tmp_path / "crawl.zip"
    broken.write_bytes(b"PK\x03\x04" + bytes(range(200)))
    assert_one_line_error(capsys, "report", demo_patterns, broken, "-o", tmp_path / "r.html", mentions=str(broken))
    assert not (tmp_path / "r.html").exists()


def test_report_into_a_missing_directory(capsys, tmp_path, demo_patterns):
    target = tmp_path / "no" / "r.html"
    assert_one_line_error(capsys, "report", demo_patterns, "-o", target, mentions=str(target))
