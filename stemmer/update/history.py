"""A layout's life over crawls: seen dates and counts, stale flags, and roles a user pinned.

analyze stamps the layouts it learns with the day's date; `stemmer update` moves
`last_seen` and `seen` forward for the layouts its pages match and flags the
ones not seen for a while. Roles a user pinned by hand (``"pinned": true``) are
carried from a site's previous patterns onto the corresponding layouts of a new
analysis, so a re-analyze does not undo hand edits.
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import replace
from pathlib import Path

from stemmer.cluster import layout_sequence, similarity
from stemmer.errors import PatternFileError
from stemmer.layout.model import Layout, PatternSet, SitePatterns
from stemmer.layout.store import load_patterns, site_filename

log = logging.getLogger("stemmer")

# The history of a pattern file keeps the latest this many runs.
HISTORY_MAX = 50
# A new layout takes the pinned roles of the previous layout most like it, if at
# least this similar (the layout similarity of their slot sequences, as in
# matching): a re-analyzed template keeps most of its slots.
CARRY_MIN_SIMILARITY = 0.5


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


def layout_similarity(a: Layout, b: Layout) -> float:
    """How alike two layouts' slot sequences are: the Sim of matching, in [0, 1]."""
    ids = {k: i for i, k in enumerate(sorted({s.key for s in (*a.sections, *b.sections)}))}
    seq_a = layout_sequence((s.key for s in a.sections), ids, {s.key: s.repeats for s in a.sections})
    seq_b = layout_sequence((s.key for s in b.sections), ids, {s.key: s.repeats for s in b.sections})
    return similarity(seq_a, seq_b)


def apply_pins(target: Layout, source: Layout) -> tuple[Layout, list[str]]:
    """`target` with the pinned roles of `source` on the slots of the same key.

    A pinned title replaces the title `target` learned (that slot becomes ``sub``).

    Returns:
        The layout, and the keys of pinned slots that `target` lacks.
    """
    pins = {s.key: s.role for s in source.sections if s.pinned}
    if not pins:
        return target, []
    keys = {s.key for s in target.sections}
    title_pinned = any(role == "title" and key in keys for key, role in pins.items())
    sections = []
    for s in target.sections:
        if s.key in pins:
            s = replace(s, role=pins[s.key], pinned=True)
        elif title_pinned and s.role == "title" and not s.pinned:
            s = replace(s, role="sub")
        sections.append(s)
    return replace(target, sections=tuple(sections)), [k for k in pins if k not in keys]


def carry_over(previous: SitePatterns, new: SitePatterns) -> tuple[SitePatterns, list[str]]:
    """Keep what a new analysis must not lose from a site's previous patterns.

    Each new layout is paired with the previous layout most like it (one to one,
    most similar pairs first, at least `CARRY_MIN_SIMILARITY`); it takes that
    layout's pinned roles and its earlier ``first_seen``. The history goes on.

    Returns:
        The new patterns, and one warning per pinned slot that found no place.
    """
    pairs = sorted(((layout_similarity(n, p), i, j) for i, n in enumerate(new.layouts)
                    for j, p in enumerate(previous.layouts)), key=lambda t: (-t[0], t[1], t[2]))
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for sim, i, j in pairs:
        if sim >= CARRY_MIN_SIMILARITY and i not in partner and j not in taken:
            partner[i] = j
            taken.add(j)
    layouts, warnings = [], []
    for i, lay in enumerate(new.layouts):
        if i in partner:
            old = previous.layouts[partner[i]]
            lay, lost = apply_pins(lay, old)
            if old.first_seen and (not lay.first_seen or old.first_seen < lay.first_seen):
                lay = replace(lay, first_seen=old.first_seen)
            warnings += [f"{new.site}: pinned block {k!r} of layout {old.id} is not in the new layout {lay.id}"
                         for k in lost]
        layouts.append(lay)
    for j, old in enumerate(previous.layouts):
        if j not in taken and any(s.pinned for s in old.sections):
            warnings.append(f"{new.site}: layout {old.id} with pinned blocks has no counterpart in the new analysis")
    return replace(new, layouts=tuple(layouts), history=(*previous.history, *new.history)[-HISTORY_MAX:]), warnings


def carry_over_saved(patterns: PatternSet, directory: str | Path) -> PatternSet:
    """`carry_over` from the pattern files that `patterns` is about to replace in `directory`.

    A previous file that cannot be read is replaced without carrying anything (a warning says so).
    """
    sites = {}
    for name, site in patterns.sites.items():
        path = Path(directory) / site_filename(site.site)
        if path.is_file():
            try:
                previous = load_patterns(path).get(site.site)
            except PatternFileError as exc:
                log.warning("not keeping pinned roles: %s", exc)
                previous = None
            if previous is not None:
                site, warnings = carry_over(previous, site)
                for w in warnings:
                    log.warning("%s", w)
        sites[name] = site
    return PatternSet(sites)
