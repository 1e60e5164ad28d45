"""What a report shows, gathered from the patterns and, optionally, pages of the sites.

Each page is extracted as `stemmer.extract` does it (the real path, whatever it
is), and its blocks matched once more with no threshold to find its nearest
layout. For a few pages per layout the page's own blocks are kept, each
labelled with the role it got and what chose it.
"""
from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from stemmer import api
from stemmer.blocks import PageBlocks
from stemmer.extract import Extraction, SiteMatcher
from stemmer.layout.model import METADATA_ROLES, Layout, PatternSet, SitePatterns
from stemmer.pages import Page


@dataclass(frozen=True, slots=True)
class BlockView:
    """One block of a page, as the report explains it.

    Attributes:
        text: the block's text.
        key: its layout key.
        slot: the slot of the (nearest) layout with this key, -1 if none.
        role: title, main or sub if extract kept it; date, author or byline (a
            slot read for the page's date and author); else ``static`` (a static
            slot), ``dropped`` (not kept: a key the layout lacks, a second title)
            or ``none`` (the page matched no layout).
        chosen_by: what gave the role: ``pattern``, ``container``, a fallback's
            name (``classifier``), or ``""`` for blocks extract left out.
        confidence: the fallback's confidence where it gives one.
        note: why a block was left out.
    """

    text: str
    key: str
    slot: int
    role: str
    chosen_by: str = ""
    confidence: float | None = None
    note: str = ""


@dataclass(slots=True)
class PageView:
    """One input page: its extraction, its nearest layout, and (for samples) its blocks."""

    id: str
    url: str | None
    extraction: Extraction
    nearest: str | None
    similarity: float
    blocks: list[BlockView] | None = None
    reason: str = ""


@dataclass(slots=True)
class SiteView:
    """Everything the report shows about one site."""

    patterns: SitePatterns
    threshold: float
    pages: int = 0
    matched: Counter = field(default_factory=Counter)
    similarities: list[tuple[float, bool]] = field(default_factory=list)
    samples: dict[str, list[PageView]] = field(default_factory=dict)
    unmatched: list[PageView] = field(default_factory=list)
    unmatched_count: int = 0

    @property
    def site(self) -> str:
        return self.patterns.site


@dataclass(slots=True)
class ReportData:
    """The sites of the report, and input pages of sites that have no patterns."""

    sites: list[SiteView]
    pages: int = 0
    other_sites: Counter = field(default_factory=Counter)


def collect(patterns: PatternSet, pages: Iterable[Page] = (), *, pages_per_layout: int = 3,
            max_unmatched: int = 200, threshold: float | None = None,
            progress: Callable[[int], None] | None = None) -> ReportData:
    """Gather the report's data: extract every page, keep the blocks of a few per layout.

    Args:
        patterns: the sites' patterns.
        pages: pages of those sites (others are only counted).
        pages_per_layout: how many matched pages per layout to show block by block.
        max_unmatched: list at most this many unmatched pages per site (and show the
            blocks of the first `pages_per_layout` of them).
        threshold: the match threshold, as for extract; default each site's own.
        progress: called with 1 for each page read.
    """
    views: dict[str, SiteView] = {}
    nearest: dict[str, SiteMatcher] = {}
    for name, site in sorted(patterns.sites.items()):
        exact = SiteMatcher(site, threshold=threshold)
        views[name] = SiteView(site, exact.threshold)
        nearest[name] = SiteMatcher(site, threshold=0.0)
    data = ReportData(list(views.values()))
    for page, ex, blocks in _extract(pages, patterns, threshold):
        data.pages += 1
        if progress:
            progress(1)
        view = views.get(page.site)
        if view is None:
            data.other_sites[page.site] += 1
            continue
        view.pages += 1
        match = nearest[page.site].match(blocks)
        layout = match.layout if view.patterns.layouts else None
        pv = PageView(page.id, page.url, ex, layout.id if layout else None, match.similarity,
                      reason=_reason(ex, layout, match.similarity, view.threshold))
        view.similarities.append((match.similarity, ex.matched))
        if ex.matched:
            view.matched[ex.pattern] += 1
            shown = view.samples.setdefault(ex.pattern or "", [])
            if len(shown) < pages_per_layout:
                pv.blocks = explain(blocks, match.keys, _layout(view.patterns, ex.pattern), ex)
                shown.append(pv)
        else:
            view.unmatched_count += 1
            if len(view.unmatched) < max_unmatched:
                if len(view.unmatched) < pages_per_layout:
                    pv.blocks = explain(blocks, match.keys, layout, ex)
                view.unmatched.append(pv)
    return data


def _extract(pages: Iterable[Page], patterns: PatternSet,
             threshold: float | None) -> Iterator[tuple[Page, Extraction, PageBlocks]]:
    """Each page with its extraction by `stemmer.extract` and its blocks, streamed (one per page, in order)."""
    queue: deque[Page] = deque()

    def feed() -> Iterator[Page]:
        for page in pages:
            queue.append(page)
            yield page
    for ex, blocks in api.extract_with_blocks(feed(), patterns, threshold=threshold):
        yield queue.popleft(), ex, blocks


def _reason(ex: Extraction, nearest: Layout | None, similarity: float, threshold: float) -> str:
    """Why a page is unmatched (``""`` if it is not)."""
    if ex.matched:
        return ""
    if nearest is None:
        return "the site has no layouts"
    if similarity >= threshold:
        return "its nearest layout finds none of its main text in it"
    return f"similarity below the match threshold {threshold:g}"


def _layout(site: SitePatterns, layout_id: str | None) -> Layout | None:
    return next((lay for lay in site.layouts if lay.id == layout_id), None)


def explain(blocks: PageBlocks, keys, layout: Layout | None, ex: Extraction) -> list[BlockView]:
    """Label each block of a page with the role extract gave it (by `ExtractedBlock.index`) and what chose it."""
    slot_of = {s.key: (i, s.role) for i, s in enumerate(layout.sections)} if layout else {}
    kept = {k.index: k for k in ex.blocks}
    out: list[BlockView] = []
    for i, (b, key) in enumerate(zip(blocks.blocks, keys)):
        slot, slot_role = slot_of.get(key, (-1, ""))
        k = kept.get(i)
        if k is not None:
            out.append(BlockView(b.text, key, slot, k.role, k.method, k.confidence))
            continue
        if not ex.matched:
            role, note = "none", (f"slot {slot} ({slot_role}) of the nearest layout" if slot >= 0
                                  else "not in the nearest layout")
        elif slot_role == "static":
            role, note = "static", f"static slot {slot}"
        elif slot_role == "title":
            role, note = "dropped", f"a second block of title slot {slot}"
        elif slot_role in METADATA_ROLES:
            role, note = slot_role, f"{slot_role} slot {slot}: read for the page's date and author"
        elif slot >= 0:
            role, note = "dropped", f"slot {slot} ({slot_role})"
        else:
            role, note = "dropped", "not in the layout, outside its main-text container"
        out.append(BlockView(b.text, key, slot, role, "", None, note))
    return out
