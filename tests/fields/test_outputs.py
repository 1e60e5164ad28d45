"""Named fields in every output format, and their drift figure in `extract --stats`."""
import io
import json

import pytest

from stemmer.extract import ExtractedBlock, Extraction
from stemmer.outputs import DriftStats, Writer

FIELDS = {"price": "$19.99", "tags": ["Energy", "Eco"], "posted": "Posted 3 May 2024", "posted_iso": "2024-05-03",
          "manual": None, "specs": []}


def _page(n: int, fields: dict, pattern: str = "L0") -> Extraction:
    blocks = (ExtractedBlock("title", 1, "Solar Lantern", "h1"), ExtractedBlock("main", 2, "Bright and light.", "p"))
    return Extraction(f"shop/p{n}.html", f"http://shop.example/p{n}.html", "shop.example", True, pattern, 0.9,
                      "Solar Lantern", blocks, "pattern", fields=fields)


def _written(fmt: str, *pages) -> str:
    out = io.StringIO()
    writer = Writer(out, fmt)
    for page in pages:
        writer.write(page)
    return out.getvalue()


def test_jsonl_has_the_fields_and_an_empty_mapping_without_them():
    first, second = map(json.loads, _written("jsonl", _page(1, FIELDS), _page(2, {})).splitlines())
    assert first["fields"] == FIELDS
    assert second["fields"] == {}


def test_webstemmer_gives_one_field_line_per_value():
    text = _written("webstemmer", _page(1, FIELDS))
    lines = text.splitlines()
    assert lines[:2] == ["!MATCHED: shop/p1.html", "PATTERN: L0"]
    assert [line for line in lines if line.startswith("FIELD-")] == [
        "FIELD-price: $19.99", "FIELD-tags: Energy", "FIELD-tags: Eco", "FIELD-posted: Posted 3 May 2024",
        "FIELD-posted_iso: 2024-05-03"]
    assert lines.index("FIELD-price: $19.99") < lines.index("TITLE: Solar Lantern")


def test_markdown_front_matter_has_the_fields_as_yaml():
    text = _written("markdown", _page(1, FIELDS))
    head = text.split("---\n")[1]
    assert "fields:\n" in head
    fields = dict(line.strip().split(": ", 1) for line in head.split("fields:\n")[1].splitlines())
    assert {json.loads(k): json.loads(v) for k, v in fields.items()} == FIELDS
    assert "fields:" not in _written("markdown", _page(2, {}))


def test_text_format_stays_title_and_body():
    assert _written("text", _page(1, FIELDS)).splitlines()[2:] == ["Solar Lantern", "", "Bright and light."]


def test_stats_give_per_layout_the_share_of_pages_where_each_field_came_out_empty():
    drift = DriftStats({"shop.example"})
    pages = [_page(1, {"price": "$1.00", "tags": ["Eco"]}), _page(2, {"price": None, "tags": ["Eco"]}),
             _page(3, {"price": "$3.00", "tags": []}), _page(4, {"price": None, "tags": ["Eco"]}),
             _page(5, {"price": "$5.00"}, pattern="L1"), _page(6, {})]  # a page of a layout without names: not counted
    for page in pages:
        drift.add(page)
    site = drift.to_json()["sites"]["shop.example"]
    assert site["fields"] == {
        "L0": {"price": {"pages": 4, "empty": 2, "empty_share": 0.5},
               "tags": {"pages": 4, "empty": 1, "empty_share": 0.25}},
        "L1": {"price": {"pages": 1, "empty": 0, "empty_share": 0.0}}}
    lines = drift.lines()
    assert "shop.example: layout L0: field 'price' empty on 2 of 4 pages (50%)" in lines
    assert "shop.example: layout L0: field 'tags' empty on 1 of 4 pages (25%)" in lines
    assert not any("L1" in line for line in lines)


def test_stats_of_a_run_without_fields_have_none():
    drift = DriftStats({"shop.example"})
    drift.add(_page(1, {}))
    assert "fields" not in drift.to_json()["sites"]["shop.example"]
    assert drift.lines() == ["shop.example: 0 of 1 pages unmatched (0%)"]


def test_jsonl_line_is_json_dumps_byte_for_byte_with_fields():
    from stemmer.outputs.writers import jsonl_line, to_record
    record = to_record(_page(1, FIELDS))
    assert jsonl_line(record) == (json.dumps(record, ensure_ascii=False) + "\n").encode()
