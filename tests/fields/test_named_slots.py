"""Named slots in the pattern file: written, read back, checked, kept over a new analysis."""
import json
from dataclasses import replace

import pytest

from stemmer.errors import PatternFileError
from stemmer.layout import store
from stemmer.layout.model import Layout, Section, SitePatterns
from stemmer.layout.pins import apply_pins, carry_over
from stemmer.layout.store import load_patterns, save_patterns


def _site(*sections) -> SitePatterns:
    return SitePatterns("shop.example", (Layout("L0", 3, 1.0, tuple(sections)),), {}, {"key_depth": 4.0})


PRICE = Section("div.product/p.price", "sub", 1.0, 5.0, 1, 1.0, "$19.99", field="price")
TAGS = Section("ul.tags/li", "sub", 0.8, 6.0, 2, 1.0, "Energy", field="tags", many=True)
MANUAL = Section("p.manual", "sub", 0.9, 7.0, 1, 1.0, "Manual", field="manual", field_type="url")


def test_named_slots_round_trip(tmp_path):
    site = _site(Section("nav", "static"), PRICE, TAGS, MANUAL)
    [path] = save_patterns(site, tmp_path, keep_pins=False)
    doc = json.loads(path.read_text())
    assert doc["version"] == store.VERSION == 3
    blocks = doc["layouts"][0]["blocks"]
    assert "field" not in blocks[0]
    assert (blocks[1]["field"], "many" in blocks[1], "type" in blocks[1]) == ("price", False, False)
    assert (blocks[2]["many"], blocks[3]["type"]) == (True, "url")
    assert load_patterns(path).get("shop.example") == site


def test_version_2_file_loads_unchanged(tmp_path):
    [path] = save_patterns(_site(Section("nav", "static"), replace(PRICE, field="")), tmp_path, keep_pins=False)
    doc = json.loads(path.read_text())
    doc["version"] = 2
    path.write_text(json.dumps(doc))
    [layout] = load_patterns(path).get("shop.example").layouts
    assert [s.field for s in layout.sections] == ["", ""]


@pytest.mark.parametrize("edit, message", [
    ({"type": "price"}, "'layouts[0].blocks[0].type' is 'price'"),
    ({"many": "yes"}, "'layouts[0].blocks[0].many' must be true, false or absent"),
    ({"field": 3}, "'layouts[0].blocks[0].field' must be str"),
])
def test_a_bad_named_slot_is_one_line_naming_the_field(tmp_path, edit, message):
    [path] = save_patterns(_site(PRICE), tmp_path, keep_pins=False)
    doc = json.loads(path.read_text())
    doc["layouts"][0]["blocks"][0].update(edit)
    path.write_text(json.dumps(doc))
    with pytest.raises(PatternFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_patterns(path)


def test_named_slot_is_pinned_by_nature_over_a_new_analysis(tmp_path):
    old = _site(Section("nav", "static"), PRICE, TAGS)
    new = _site(Section("nav", "static"), replace(PRICE, field="", role="static"),
                replace(TAGS, field="", many=False), Section("gone", "sub", field="price"))
    carried, warnings = carry_over(old, new)
    named = {s.key: (s.field, s.many, s.role) for s in carried.layouts[0].sections if s.field}
    # the names come back on their keys; the role analyze chose stays (a name pins no role);
    # a slot the new analysis had named the same loses the name: a layout names one slot so
    assert named == {PRICE.key: ("price", False, "static"), TAGS.key: ("tags", True, "sub")}
    assert warnings == []
    lost, warnings = carry_over(_site(Section("nav", "static"), replace(PRICE, field=""), TAGS, MANUAL), new)
    assert [s.field for s in lost.layouts[0].sections] == ["", "", "tags", "price"]
    assert warnings == ["shop.example: block of field 'manual' 'p.manual' of layout L0 is not in the new layout L0"]


def test_save_patterns_keeps_names_of_the_file_it_replaces(tmp_path):
    save_patterns(_site(Section("nav", "static"), PRICE), tmp_path)
    save_patterns(_site(Section("nav", "static"), replace(PRICE, field="")), tmp_path)
    [layout] = load_patterns(tmp_path).get("shop.example").layouts
    assert [s.field for s in layout.sections] == ["", "price"]


def test_apply_pins_gives_a_new_layout_the_names():
    target = Layout("L1", 2, 1.0, (Section("nav", "static"), replace(PRICE, field="")))
    carried, lost = apply_pins(target, Layout("L0", 3, 1.0, (PRICE, TAGS)))
    assert [s.field for s in carried.sections] == ["", "price"] and lost == [TAGS.key]
