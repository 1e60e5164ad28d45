import json

from stemmer import analyze, save_patterns
from stemmer.layout.model import Layout, Section, SitePatterns
from stemmer.layout.pins import apply_pins, carry_over


def layout(lid, *sections, **kw) -> Layout:
    return Layout(lid, 3, 1.0, tuple(sections), **kw)


def sec(key, role, pinned=False) -> Section:
    return Section(key, role, repeats=2, pinned=pinned)


def test_pinned_role_is_carried_to_the_same_key():
    old = layout("L0", sec("nav", "static"), sec("h1", "title"), sec("related", "sub", pinned=True))
    new = layout("L0", sec("nav", "static"), sec("h1", "title"), sec("related", "static"))
    carried, lost = apply_pins(new, old)
    assert [(s.role, s.pinned) for s in carried.sections] == [("static", False), ("title", False), ("sub", True)]
    assert lost == []


def test_pinned_title_replaces_the_learned_title():
    old = layout("L0", sec("kicker", "title", pinned=True), sec("h1", "sub"))
    new = layout("L0", sec("kicker", "sub"), sec("h1", "title"))
    carried, _ = apply_pins(new, old)
    assert [s.role for s in carried.sections] == ["title", "sub"]


def test_pin_without_its_block_is_reported():
    old = layout("L0", sec("nav", "static"), sec("gone", "main", pinned=True))
    new = layout("L0", sec("nav", "static"), sec("p", "main"))
    assert apply_pins(new, old)[1] == ["gone"]


def test_carry_over_pairs_layouts_by_similarity_and_keeps_first_seen():
    article = (sec("nav", "static"), sec("h1", "title"), sec("p", "main"))
    index = (sec("nav", "static"), sec("li", "sub"), sec("pager", "static"))
    previous = SitePatterns("s", (layout("L0", *index[:2], sec("pager", "main", pinned=True), first_seen="2023-05-01"),
                                  layout("L1", *article, first_seen="2023-01-01")),
                            history=({"date": "2023-01-01", "command": "analyze"},))
    new = SitePatterns("s", (layout("L0", *article, first_seen="2024-01-01"),
                             layout("L1", *index, first_seen="2024-01-01")),
                       history=({"date": "2024-01-01", "command": "analyze"},))
    carried, warnings = carry_over(previous, new)
    assert [lay.first_seen for lay in carried.layouts] == ["2023-01-01", "2023-05-01"]
    assert carried.layouts[1].sections[2].role == "main" and carried.layouts[1].sections[2].pinned
    assert [h["date"] for h in carried.history] == ["2023-01-01", "2024-01-01"]
    assert warnings == []


def test_python_save_keeps_the_roles_pinned_in_the_file_it_replaces(tmp_path, site_pages):
    [path] = save_patterns(analyze(site_pages, date="2024-01-01"), tmp_path)
    doc = json.loads(path.read_text())
    slot = next(s for s in doc["layouts"][0]["blocks"] if s["role"] == "static")
    slot.update(role="sub", pinned=True)
    path.write_text(json.dumps(doc))
    save_patterns(analyze(site_pages, date="2024-02-01"), tmp_path)
    again = json.loads(path.read_text())
    kept = next(s for s in again["layouts"][0]["blocks"] if s["key"] == slot["key"])
    assert (kept["role"], kept.get("pinned")) == ("sub", True)
    assert again["layouts"][0]["first_seen"] == "2024-01-01"
    assert [h["date"] for h in again["history"]] == ["2024-01-01", "2024-02-01"]
    save_patterns(analyze(site_pages, date="2024-03-01"), tmp_path, keep_pins=False)
    assert not any(s.get("pinned") for lay in json.loads(path.read_text())["layouts"] for s in lay["blocks"])
