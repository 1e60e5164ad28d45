"""The drift signal of an extract run: per site, the share of pages that matched no layout,
and per layout, the share of its pages where each named field came out empty.

A site that redesigns its templates shows up as a jump in the first share; one
that moves a field (the price, the tags) out of its slot, as a jump in the second.
A daily job reads them from ``extract --stats FILE`` and alerts.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from stemmer.extract.apply import Extraction

FORMAT = "stemmer-extract-stats"
VERSION = 1


@dataclass(slots=True)
class SiteCount:
    """One site's pages in a run: how many, how many matched, per layout, by method."""

    pages: int = 0
    matched: int = 0
    layouts: Counter = field(default_factory=Counter)
    methods: Counter = field(default_factory=Counter)
    has_patterns: bool = True
    field_pages: Counter = field(default_factory=Counter)  # (layout, field) -> matched pages of the layout
    field_empty: Counter = field(default_factory=Counter)  # (layout, field) -> those where it was empty

    @property
    def unmatched(self) -> int:
        return self.pages - self.matched

    @property
    def unmatched_share(self) -> float:
        return self.unmatched / self.pages if self.pages else 0.0


class DriftStats:
    """Counts an extract run's pages per site, for the drift signal.

    Args:
        sites_with_patterns: the sites that have patterns; pages of other
            sites are counted too, marked ``"patterns": false`` (their
            unmatched share says nothing about drift).
    """

    def __init__(self, sites_with_patterns=None) -> None:
        self.sites: dict[str, SiteCount] = {}
        # `Patterns` (not iterable: a `LazyPatterns` answers `in` by reading one file), or site names
        known = sites_with_patterns
        self.known = set(known) if isinstance(known, Iterable) else known
        self._names: dict[tuple[str, str], frozenset[str] | None] = {}

    def add(self, ex: Extraction) -> None:
        """Count one extracted page."""
        count = self.sites.get(ex.site)
        if count is None:
            count = self.sites[ex.site] = SiteCount(has_patterns=self.known is None or ex.site in self.known)
        count.pages += 1
        count.methods[ex.method] += 1
        if ex.matched:
            count.matched += 1
            if ex.pattern:
                count.layouts[ex.pattern] += 1
                named = self._named(ex.site, ex.pattern)
                for name, value in ex.fields.items():
                    if named is None or name in named:
                        count.field_pages[ex.pattern, name] += 1
                        count.field_empty[ex.pattern, name] += not value

    def _named(self, site: str, layout_id: str) -> frozenset[str] | None:
        """The fields the layout's slots name (not what every page states: `BUILTIN_FIELDS`, nor
        a date's ``_iso``), or None where the patterns are not at hand: every field counts."""
        key = (site, layout_id)
        if key not in self._names:
            patterns = self.known.get(site) if hasattr(self.known, "get") else None
            layout = next((lay for lay in patterns.layouts if lay.id == layout_id), None) if patterns else None
            self._names[key] = frozenset(s.field for s in layout.sections if s.field) if layout else None
        return self._names[key]

    def to_json(self) -> dict:
        """The ``--stats`` document: totals and one entry per site, sorted."""
        pages = sum(c.pages for c in self.sites.values())
        matched = sum(c.matched for c in self.sites.values())
        return {
            "format": FORMAT, "version": VERSION,
            "pages": pages, "matched": matched, "unmatched": pages - matched,
            "unmatched_share": round((pages - matched) / pages, 4) if pages else 0.0,
            "sites": {
                site: {"pages": c.pages, "matched": c.matched, "unmatched": c.unmatched,
                       "unmatched_share": round(c.unmatched_share, 4), "patterns": c.has_patterns,
                       "layouts": dict(sorted(c.layouts.items())), "methods": dict(sorted(c.methods.items())),
                       **({"fields": _fields(c)} if c.field_pages else {})}
                for site, c in sorted(self.sites.items())
            },
        }

    def lines(self, limit: int = 20) -> list[str]:
        """One line per site, the highest unmatched shares first (at most `limit`, then a count of the rest)."""
        ranked = sorted(self.sites.items(), key=lambda kv: (-kv[1].unmatched_share, kv[0]))
        out = [f"{site}: {c.unmatched} of {c.pages} pages unmatched ({c.unmatched_share:.0%})"
               + ("" if c.has_patterns else ", no patterns for this site")
               for site, c in ranked[:limit]]
        if len(ranked) > limit:
            out.append(f"... and {len(ranked) - limit} more sites (see --stats)")
        empty = sorted(((c.field_empty[k] / n, site, k, c.field_empty[k], n) for site, c in self.sites.items()
                        for k, n in c.field_pages.items() if c.field_empty[k]), key=lambda t: (-t[0], t[1], t[2]))
        out += [f"{site}: layout {lay}: field {name!r} empty on {k} of {n} pages ({share:.0%})"
                for share, site, (lay, name), k, n in empty[:limit]]
        if len(empty) > limit:
            out.append(f"... and {len(empty) - limit} more empty fields (see --stats)")
        return out


def _fields(c: SiteCount) -> dict:
    """Per layout, per named field: its pages, those where it came out empty, and their share."""
    out: dict[str, dict] = {}
    for (lay, name), n in sorted(c.field_pages.items()):
        empty = c.field_empty[lay, name]
        out.setdefault(lay, {})[name] = {"pages": n, "empty": empty, "empty_share": round(empty / n, 4)}
    return out
