import pytest

from stemmer.update.history import apply_pins, carry_over, check_date, days_between, stamp
from stemmer.layout.model import Layout, Section, SitePatterns


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


def test_stamp_dates_every_layout():
    site = stamp(SitePatterns("s", (layout("L0", sec("p", "main")),)), "2024-03-04", pages=7)
    assert (site.layouts[0].first_seen, site.layouts[0].last_seen, site.layouts[0].seen) == ("2024-03-04",) * 2 + (3,)
    assert site.history == ({"date": "2024-03-04", "command": "analyze", "pages": 7, "layouts": 1},)


@pytest.mark.parametrize("bad", ["2024-13-01", "20240101", "yesterday", ""])
def test_dates_must_be_iso_days(bad):
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        check_date(bad)


def test_days_between():
    assert days_between("2024-01-01", "2024-03-01") == 60
