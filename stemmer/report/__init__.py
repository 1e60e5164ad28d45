"""`stemmer report`: what was learned, as one self-contained HTML file.

Per site: its layouts with page counts, scores, dates and member pages; each
layout's slots (tag path, role, DiffScore, MainScore, a sample); for a few
input pages per layout their blocks coloured by the role extract gave them and
what chose it, beside the extracted title and text; the unmatched pages with
their nearest layout; and two inline SVG charts (pages per layout, similarity
of pages to their nearest layout against the match threshold).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from stemmer.layout.model import PatternSet, SitePatterns
from stemmer.pages import Page
from stemmer.report.collect import ReportData, collect
from stemmer.report.render import render

__all__ = ["ReportData", "collect", "render", "report"]


def report(patterns: PatternSet | SitePatterns, pages: Iterable[Page] = (), *, pages_per_layout: int = 3,
           threshold: float | None = None, max_unmatched: int = 200, title: str = "stemmer report",
           source: str = "", generated: str = "",
           progress: Callable[[int], None] | None = None) -> str:
    """The HTML report of what was learned about each site, and how pages fare with it.

    Args:
        patterns: the sites' patterns (`load_patterns`).
        pages: optional pages of those sites: each is extracted, and a few per
            layout are shown block by block; unmatched ones are listed.
        pages_per_layout: pages shown block by block per layout.
        threshold: the match threshold, as for extract; default each site's own.
        max_unmatched: list at most this many unmatched pages per site.
        title: the page's title.
        source: where the patterns came from, shown in the header.
        generated: a date or note for the header.
        progress: called with 1 for each page read.

    Returns:
        One self-contained HTML document (inline CSS, SVG and JS; it fetches nothing).

    Raises:
        ValueError: `pages_per_layout` or `max_unmatched` is negative.
    """
    if pages_per_layout < 0 or max_unmatched < 0:
        raise ValueError(f"pages_per_layout and max_unmatched must be 0 or more, got "
                         f"{pages_per_layout} and {max_unmatched}")
    if isinstance(patterns, SitePatterns):
        patterns = PatternSet({patterns.site: patterns})
    data = collect(patterns, pages, pages_per_layout=pages_per_layout, max_unmatched=max_unmatched,
                   threshold=threshold, progress=progress)
    return render(data, title=title, generated=generated, source=source)
