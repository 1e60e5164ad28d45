"""A layout's life over crawls: seen dates and counts, and the history of runs.

analyze stamps the layouts it learns with the day's date; `stemmer update` moves
`last_seen` and `seen` forward for the layouts its pages match and flags the
ones not seen for a while (`stemmer.update.updater`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import replace

from stemmer.layout.model import HISTORY_MAX, SitePatterns


def today() -> str:
    """Today's date (UTC) as ``YYYY-MM-DD``."""
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def check_date(value: str) -> str:
    """`value` if it is a date ``YYYY-MM-DD``.

    Raises:
        ValueError: it is not.
    """
    try:
        if len(value) == 10:
            return dt.date.fromisoformat(value).isoformat()
    except (TypeError, ValueError):
        pass
    raise ValueError(f"expected a date as YYYY-MM-DD, got {value!r}")


def days_between(earlier: str, later: str) -> int:
    """Days from one ``YYYY-MM-DD`` date to another."""
    return (dt.date.fromisoformat(later) - dt.date.fromisoformat(earlier)).days


def add_history(site: SitePatterns, entry: dict) -> SitePatterns:
    """The site with `entry` appended to its history (the latest `HISTORY_MAX` kept)."""
    return replace(site, history=(*site.history, entry)[-HISTORY_MAX:])


def stamp(site: SitePatterns, date: str, *, pages: int, command: str = "analyze", **entry) -> SitePatterns:
    """A freshly learned site: every layout first and last seen on `date`, seen on its pages.

    The run goes into the history as ``{"date", "command", "pages", "layouts", **entry}``.
    """
    layouts = tuple(replace(lay, first_seen=date, last_seen=date, seen=lay.pages) for lay in site.layouts)
    return add_history(replace(site, layouts=layouts), {"date": date, "command": command, "pages": pages,
                                                        "layouts": len(layouts), **entry})


