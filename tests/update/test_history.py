import pytest

from stemmer.layout.model import Layout, Section, SitePatterns
from stemmer.update.history import check_date, days_between, stamp


def layout(lid, *sections, **kw) -> Layout:
    return Layout(lid, 3, 1.0, tuple(sections), **kw)


def sec(key, role, pinned=False) -> Section:
    return Section(key, role, repeats=2, pinned=pinned)


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
