"""`stemmer update`: keep a site's patterns in step with new crawls of it.

A new crawl is matched against the site's layouts. Pages that match move their
layout's ``last_seen`` and ``seen`` on; pages that match none are clustered
among themselves, in the site's key space, and become new layouts with fresh
ids. Layouts no page has matched for ``stale_after`` days are flagged
``stale``, never deleted. Old layouts are not re-learned: only their slots'
DiffScores are pooled with the new pages', and their roles given anew by
analyze's rule; title, container and pinned roles stay. The same input twice
changes nothing the second time: each update records a digest of its pages in
the site's history.
A changed site's common-noise library is re-learned from the new crawl, and its
block classifier retrained on the new pages as the updated layouts label them.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from stemmer.blocks import PageBlocks, parse_html, segment, sig
from stemmer.cluster import KeyMaker
from stemmer.cluster.keys import split_element
from stemmer.errors import PatternFileError
from stemmer.files import write_all
from stemmer.extract import Match, SiteMatcher, apply_layout, foreign
from stemmer.layout.model import METADATA_ROLES, AnalyzeParams, Layout, PatternSet, SitePatterns
from stemmer.layout.noise import MIN_PAGES as NOISE_MIN_PAGES, NoiseCounter
from stemmer.layout.pins import apply_pins, layout_similarity
from stemmer.layout.roles import (DIFF_MAX_LETTERS, DIFF_SAMPLE_PAGES, CommonTexts, diffscore, label_slots, main_slots,
                                  slot_stats)
from stemmer.layout.store import is_pattern_file, load_patterns, save_sidecars, site_filename, to_json
from stemmer.pages import SKIPPED_PAGE, Page
from stemmer.site import SiteCollector
from stemmer.update.history import add_history, check_date, days_between, today

log = logging.getLogger("stemmer")

# Layouts no page matched for this many days are flagged stale (`update --stale-after`).
STALE_AFTER_DAYS = 90
_LAYOUT_ID = re.compile(r"L(\d+)$")


@dataclass(frozen=True, slots=True)
class SiteUpdate:
    """What an update did (or, dry, would do) to one site.

    Attributes:
        site: the site.
        pages: pages of the site in the input.
        matched: pages per existing layout id that matched it.
        new_layouts: (id, pages) of the layouts learned from unmatched pages.
        unmatched: pages that match no layout, new ones included.
        stale: layouts newly flagged stale.
        revived: stale layouts that pages matched again.
        new_site: the site had no patterns; all its layouts are new.
        already: the date of an earlier update with this very input, which
            leaves the site unchanged; ``""`` otherwise.
    """

    site: str
    pages: int
    matched: dict[str, int] = field(default_factory=dict)
    new_layouts: tuple[tuple[str, int], ...] = ()
    unmatched: int = 0
    stale: tuple[str, ...] = ()
    revived: tuple[str, ...] = ()
    new_site: bool = False
    already: str = ""

    @property
    def changed(self) -> bool:
        return not self.already

    def summary(self) -> str:
        """One line: what changed."""
        pages = f"{self.pages} page{'s' * (self.pages != 1)}"
        if self.already:
            return f"{self.site}: {pages}, the same input as the update of {self.already}: no change"
        if self.new_site:
            n = len(self.new_layouts)
            return (f"{self.site}: new site, {n} layout{'s' * (n != 1)} learned from "
                    f"{sum(n for _, n in self.new_layouts)} of its {pages}")
        parts = [f"{self.site}: {pages}, {sum(self.matched.values())} matched"
                 + (f" ({', '.join(f'{k} {v}' for k, v in sorted(self.matched.items(), key=_by_id))})"
                    if self.matched else "")]
        if self.new_layouts:
            parts.append("new layouts " + ", ".join(f"{k} ({n} pages)" for k, n in self.new_layouts))
        parts.append(f"{self.unmatched} unmatched")
        if self.stale:
            parts.append("stale " + ", ".join(self.stale))
        if self.revived:
            parts.append("seen again " + ", ".join(self.revived))
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """The updated patterns of every site (changed or not) and what changed per site.

    Attributes:
        patterns: every site's patterns after the update.
        sites: what changed, per site of the input, sorted by site.
        left_out: pages per site that were left out (no patterns, and `new_sites` off).
    """

    patterns: PatternSet
    sites: tuple[SiteUpdate, ...]
    left_out: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> tuple[str, ...]:
        """The sites whose patterns changed."""
        return tuple(s.site for s in self.sites if s.changed)


def _by_id(item) -> tuple:
    m = _LAYOUT_ID.match(item[0])
    return (0, int(m.group(1)), "") if m else (1, 0, item[0])


@dataclass(slots=True)
class _Site:
    """One site's pages while they stream in."""

    patterns: SitePatterns | None
    matcher: SiteMatcher | None
    digests: list[tuple[str, str]] = field(default_factory=list)
    matched: Counter = field(default_factory=Counter)
    matched_tokens: set[str] = field(default_factory=set)
    # the first matched pages of each layout, as (blocks, keys): what its DiffScores learn from
    samples: dict[str, list[tuple[PageBlocks, tuple[str, ...]]]] = field(default_factory=dict)
    noise: NoiseCounter | None = None  # the common noise of the new crawl
    common: CommonTexts = field(default_factory=CommonTexts)  # the texts its template repeats
    collector: SiteCollector | None = None  # every page's links and model sample; the unmatched pages to learn


def update(pages: Iterable[Page], patterns: PatternSet, *, date: str | None = None,
           stale_after: int = STALE_AFTER_DAYS, threshold: float | None = None,
           params: AnalyzeParams | None = None, new_sites: bool = True,
           progress: Callable[[int], None] | None = None, site_model: bool = True) -> UpdateResult:
    """Bring the patterns up to date with a new crawl.

    Args:
        pages: the new crawl's pages, any sites.
        patterns: the current patterns; not changed (a new set is returned).
        date: the crawl's date, ``YYYY-MM-DD``; default today (UTC).
        stale_after: flag layouts not seen for more than this many days.
        threshold: least similarity of a page to a layout; default each site's ``match_threshold``.
        params: thresholds for learning new layouts; default the ones stored with each site.
        new_sites: learn patterns for sites that have none (else leave them out).
        progress: called with 1 for each page read.
        site_model: retrain each changed site's block classifier on the new pages.

    Returns:
        The new patterns and a `SiteUpdate` per site of the input.

    Raises:
        PatternFileError: a site of the input has Webstemmer ``.pat`` patterns, which cannot be updated.
        ValueError: `date` is not ``YYYY-MM-DD`` or `stale_after` is negative.
    """
    date = check_date(date) if date is not None else today()
    if stale_after < 0:
        raise ValueError(f"stale_after must be 0 or more days, got {stale_after}")
    sites: dict[str, _Site] = {}
    left_out: Counter[str] = Counter()
    for page in pages:
        if progress:
            progress(1)
        st = sites.get(page.site)
        if st is None:
            known = patterns.get(page.site)
            if known is not None and known.params.get("key_style_webstemmer"):
                raise PatternFileError(f"{page.site}: Webstemmer .pat patterns cannot be updated; "
                                       "convert them to JSON first (docs/pattern-format.md)")
            if known is None and not new_sites:
                left_out[page.site] += 1
                continue
            matcher = SiteMatcher(known, threshold=threshold) if known and known.layouts else None
            st = sites[page.site] = _Site(known, matcher, noise=NoiseCounter(page.site),
                                          collector=SiteCollector(page.site, site_model=site_model))
        try:
            root = parse_html(page.utf8, name=page.id)
            blocks = segment(root, with_links=True)
        except Exception as exc:  # noqa: BLE001  (one page must never cost its site)
            log.warning("%s: skipped, %s: %s", page.id, type(exc).__name__, exc, extra=SKIPPED_PAGE)
            continue
        st.digests.append((page.id, hashlib.sha256(page.html.encode("utf-8", "replace")).hexdigest()))
        st.noise.add(blocks)
        if blocks.blocks:
            st.common.add(blocks)
        m = _match(st.matcher, blocks) if st.matcher else None
        st.collector.add_parsed(page, root, blocks, learn=m is None)
        if m is not None:
            st.matched[m.layout.id] += 1
            st.matched_tokens.update(_raw_tokens(blocks))
            sample = st.samples.setdefault(m.layout.id, [])
            if len(sample) < DIFF_SAMPLE_PAGES:
                sample.append((blocks, m.keys))

    out = dict(patterns.sites)
    changes = []
    for name, st in sorted(sites.items()):
        digest = _digest(st.digests)
        if st.patterns is None:
            out[name] = learned = st.collector.learn(params or AnalyzeParams(), date, command="update",
                                                     input=digest)
            changes.append(SiteUpdate(name, len(st.digests), new_layouts=tuple(
                (lay.id, lay.pages) for lay in learned.layouts),
                unmatched=len(st.collector.pages) - sum(lay.pages for lay in learned.layouts), new_site=True))
            continue
        earlier = next((h.get("date", "?") for h in st.patterns.history if h.get("input") == digest), None)
        if earlier is not None:
            changes.append(SiteUpdate(name, len(st.digests), already=str(earlier)))
            continue
        site, change = _update_site(st, date, stale_after, params, digest)
        if st.noise.pages >= NOISE_MIN_PAGES:
            site = replace(site, noise=st.noise.library())  # too few pages keep the site's library
        out[name] = st.collector.with_site_model(site)
        changes.append(change)
    return UpdateResult(PatternSet(out), tuple(changes), dict(sorted(left_out.items())))


def _match(matcher: SiteMatcher, blocks: PageBlocks) -> Match | None:
    """The page's match, as extract decides it (None: unmatched)."""
    m = matcher.match(blocks)
    if m.layout is None:
        return None
    # extract calls a page that only resembles its layout unmatched
    if foreign(apply_layout("", None, "", blocks, m, matcher.keymaker), m, blocks):
        return None
    return m


def _raw_tokens(blocks: PageBlocks) -> set[str]:
    """The class and id tokens of a page's block paths, as keys see them."""
    return {t for enc in {e for b in blocks.blocks for e in b.path} for t in split_element(enc)[1]}


def _digest(items: list[tuple[str, str]]) -> str:
    """An order-free fingerprint of a site's input pages (ids and contents)."""
    h = hashlib.sha256()
    for page_id, content in sorted(items):
        h.update(f"{page_id}\0{content}\n".encode("utf-8", "replace"))
    return "sha256:" + h.hexdigest()[:32]


def _params_of(site: SitePatterns) -> AnalyzeParams:
    """The analyze parameters stored with a site (defaults for any missing)."""
    defaults = AnalyzeParams()
    known = {k: type(getattr(defaults, k))(v) for k, v in site.params.items()
             if k in AnalyzeParams.__dataclass_fields__}
    return replace(defaults, **known)


def _update_site(st: _Site, date: str, stale_after: int, params: AnalyzeParams | None,
                 digest: str) -> tuple[SitePatterns, SiteUpdate]:
    site = st.patterns
    assert site is not None
    params = params or _params_of(site)
    # Learn the unmatched pages' layouts in the site's key space, plus the tokens
    # of the new template: only tokens that no matched page carries, so the keys
    # of the pages that still match the old layouts do not change.
    new_layouts: tuple[Layout, ...] = ()
    tokens = dict(site.tokens)
    keep = st.collector.pages
    if keep:
        fresh = KeyMaker.learn((p.blocks for p in keep if p.blocks.blocks), params.key_depth)
        added = {t: s for t, s in fresh.token_share.items() if t not in tokens and t not in st.matched_tokens}
        tokens.update(added)
        keymaker = KeyMaker(tokens, int(site.params.get("key_depth", params.key_depth)))
        learned = st.collector.layouts(params, keymaker=keymaker)
        new_layouts = _fresh_ids(learned.layouts, site.layouts, date)
        if not new_layouts:
            tokens = dict(site.tokens)  # nothing learned: keep the key space as it was
    still_unmatched = len(keep)
    if new_layouts:
        trial = replace(site, layouts=new_layouts, tokens=tokens)
        matcher = SiteMatcher(trial, threshold=st.matcher.threshold if st.matcher else None)
        still_unmatched = sum(_match(matcher, p.blocks) is None for p in keep)
    keymaker = KeyMaker(site.tokens, int(site.params.get("key_depth", params.key_depth)))

    common = st.common.hashes()
    history_start = next((h.get("date") for h in site.history if h.get("date")), date)
    layouts, stale, revived = [], [], []
    for lay in site.layouts:
        n = st.matched.get(lay.id, 0)
        if n:
            if lay.stale:
                revived.append(lay.id)
            lay = _refine(lay, st.samples.get(lay.id, []), params, keymaker, common)
            lay = replace(lay, seen=lay.seen + n, last_seen=max(lay.last_seen, date), stale=False)
        elif not lay.stale:
            since = lay.last_seen or lay.first_seen or min(history_start, date)
            if days_between(since, date) > stale_after:
                lay = replace(lay, stale=True)
                stale.append(lay.id)
        layouts.append(lay)
    layouts += new_layouts
    entry = {"date": date, "command": "update", "pages": len(st.digests),
             "matched": sum(st.matched.values()), "new_layouts": [lay.id for lay in new_layouts],
             "input": digest}
    updated = add_history(replace(site, layouts=tuple(layouts), tokens=dict(sorted(tokens.items()))), entry)
    change = SiteUpdate(site.site, len(st.digests), dict(st.matched),
                        tuple((lay.id, lay.pages) for lay in new_layouts), still_unmatched,
                        tuple(stale), tuple(revived))
    return updated, change


def _refine(lay: Layout, sample: list[tuple[PageBlocks, tuple[str, ...]]], params: AnalyzeParams,
            keymaker: KeyMaker, common: frozenset[int]) -> Layout:
    """The layout with each slot's DiffScore pooled over its earlier pages and the new ones, and roles anew.

    A DiffScore read on a few pages is noisy, and a slot near the static
    threshold (a date, code) would otherwise keep the role its first crawl gave
    it: the estimates are pooled by the page pairs each read, and every slot
    gets its role by analyze's rule (`label_slots`) on the new pages. Title,
    date and byline slots, pinned slots, slots no new page has and the main-text
    container stay.
    """
    seen = min(max(lay.seen, lay.pages), DIFF_SAMPLE_PAGES)
    groups = [{} for _ in sample]
    for g, (page, keys) in zip(groups, sample):
        for b, key in zip(page.blocks, keys):
            g.setdefault(key, []).append(b)
    stats, keep = [], {}
    for s in lay.sections:
        texts = [sig("".join(b.text for b in g.get(s.key, ())))[:DIFF_MAX_LETTERS] for g in groups]
        texts = [t for t in texts if t]
        new_pairs = len(texts) * (len(texts) - 1) // 2
        diff = s.diff
        if s.role == "title" or s.role in METADATA_ROLES or s.pinned or not new_pairs:
            keep[s.key] = s.role
        else:
            old_n = min(seen, round(s.share * max(lay.seen, lay.pages)))
            old_pairs = old_n * (old_n - 1) // 2
            diff = (s.diff * old_pairs + diffscore(texts) * new_pairs) / (old_pairs + new_pairs)
        stats.append(slot_stats(groups, s.key, diff))
    title_key = next((s.key for s in lay.sections if s.role == "title"), None)
    _, _, link_list = main_slots(stats, groups, params)
    roles = label_slots(stats, groups, [list(keys) for _, keys in sample], title_key, lay.container,
                        link_list, keymaker, params, common, keep, size=max(lay.seen, lay.pages))
    return replace(lay, sections=tuple(s if s.key in keep else replace(s, role=role, diff=round(st[1], 4))
                                       for s, st, role in zip(lay.sections, stats, roles)))


def _fresh_ids(learned: tuple[Layout, ...], existing: tuple[Layout, ...], date: str) -> tuple[Layout, ...]:
    """New layouts with ids after the existing ones, dated, with the pins of the nearest old layout."""
    numbers = [int(m.group(1)) for lay in existing if (m := _LAYOUT_ID.match(lay.id))]
    next_id = max(numbers, default=-1) + 1
    taken = {lay.id for lay in existing}
    out = []
    for lay in learned:
        while f"L{next_id}" in taken:
            next_id += 1
        lay = replace(lay, id=f"L{next_id}", first_seen=date, last_seen=date, seen=lay.pages)
        next_id += 1
        if existing:
            nearest = max(existing, key=lambda old: layout_similarity(lay, old))
            lay, _ = apply_pins(lay, nearest)
        out.append(lay)
    return tuple(out)


def load_for_update(source: str | Path) -> PatternSet:
    """The patterns in a pattern directory or file; an empty directory has none (every site is new).

    Raises:
        PatternFileError: `source` does not exist or a file cannot be read.
    """
    path = Path(source)
    if path.is_dir() and not any(is_pattern_file(f) for f in path.iterdir()):
        return PatternSet()
    return load_patterns(path)


def pattern_files(source: str | Path) -> dict[str, Path]:
    """The file of each site's patterns in a pattern directory or file (JSON files only).

    Raises:
        PatternFileError: a file cannot be read, or `source` does not exist.
    """
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if is_pattern_file(p))
    elif path.exists():
        files = [path]
    else:
        raise PatternFileError(f"{path}: no such file or directory")
    return {site: f for f in files for site in load_patterns(f).sites}


def save_update(result: UpdateResult, source: str | Path) -> list[Path]:
    """Write the changed sites' pattern files back where they came from, all or none, then their sidecars.

    Every file is first written beside its target; only when all are written
    are they renamed into place. A site that had no file gets ``<site>.json``
    in the pattern directory.

    Returns:
        The paths written.
    """
    target = Path(source)
    files = pattern_files(target) if target.exists() else {}
    plan = []
    for name in result.changed:
        site = result.patterns.get(name)
        if site is None:
            continue
        path = files.get(name)
        if path is None:
            if not target.is_dir():
                continue  # a single pattern file: other sites have nowhere to go
            path = target / site_filename(name)
        plan.append((path, json.dumps(to_json(site), ensure_ascii=False, indent=1) + "\n", site))
    write_all({path: text for path, text, _ in plan})
    for path, _, site in plan:
        save_sidecars(site, path)  # each written atomically; a stale one beside is removed
    return [path for path, _, _ in plan]
