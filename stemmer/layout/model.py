"""The learned patterns: records for sections, layouts and a site's pattern set, and what learns them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from stemmer.blocks import PageBlocks


@dataclass(frozen=True)
class AnalyzeParams:
    """The knobs of analyze; the defaults were chosen on the dev sites.

    Attributes:
        cluster_threshold: pages join a cluster above this similarity (``-t``).
        title_threshold: least link-text match of a title slot (``-T``).
        main_threshold: least MainScore of the slot that anchors the main text (``-M``).
        score_threshold: least pattern score of a kept layout (``-S``).
        diff_threshold: slots below this DiffScore are static.
        min_pages: least pages of a kept layout.
        key_depth: trailing path elements in a layout key.
        match_threshold: least similarity of a page to its layout in extract.
    """

    cluster_threshold: float = 0.7
    title_threshold: float = 0.6
    main_threshold: float = 20.0
    score_threshold: float = 0.0
    diff_threshold: float = 0.5
    min_pages: int = 2
    key_depth: int = 4
    match_threshold: float = 0.5

    def as_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(slots=True)
class SitePage:
    """A page being analyzed: its blocks and the texts that may name its title.

    Attributes:
        anchors: texts of the crawl's links to the page.
        titles: the titles the page gives itself (`own_titles`).
        away: the letters (`sig`) of its link texts that point to other pages:
            a teaser's headline on an index page, never its title.
        date, author: when it was published and who wrote it, as the page
            itself states them (`stemmer.metadata.page_signals`), or "".
    """

    id: str
    blocks: PageBlocks
    anchors: list[str] = field(default_factory=list)
    titles: tuple[str, ...] = ()
    away: frozenset[str] = frozenset()
    date: str = ""
    author: str = ""
    refs: tuple[str, ...] = ()  # set by learn_site: the letters of every text above that names the page


ROLES = ("title", "main", "sub", "static", "date", "author", "byline")
# The roles that say something of the page besides its text: its publication
# date, its author, or both in one slot ("Posted 31-12-2022 by Jane Doe").
METADATA_ROLES = frozenset({"date", "author", "byline"})
# What a named slot's value is (`Section.field_type`).
FIELD_TYPES = ("text", "url", "date")


@dataclass(frozen=True, slots=True)
class Section:
    """One aligned block slot of a layout.

    Attributes:
        key: the layout key of the slot's blocks (see `stemmer.cluster.KeyMaker`).
        role: title, main, sub, static, or date, author, byline (both): the slot
            that says when the page was published and who wrote it (`METADATA_ROLES`).
        diff: DiffScore, 0 (same text on every page) to 1 (nothing in common).
        main: MainScore, DiffScore times the mean non-link letters per page.
        repeats: the slot's weight in the layout similarity.
        share: the share of the layout's pages that have the slot.
        sample: a short text of the slot, to help a reader of the pattern file.
        pinned: a user fixed the role by hand; analyze and update keep it.
        day_first: how a date slot writes numeric dates ("05/03/2024"): day
            first (True), month first (False), or unknown, by the page's language (None).
        field: the name a user gave the slot (``stemmer label``, or by hand), ``""``
            for none: extract gives its value in `Extraction.fields`, whatever its role.
            A named slot is pinned by nature: analyze and update keep it.
        many: a named slot that repeats on a page (tags, list items): its value is a list.
        field_type: what a named slot's value is: ``text``, ``url`` (the ``href`` or
            ``src`` of its element) or ``date`` (its text, and also read as a date).
        prefix: the label a named slot's text starts with before its value
            (``SKU:`` of "SKU: AB-12"), dropped from the value where the text starts so.
    """

    key: str
    role: str
    diff: float = 0.0
    main: float = 0.0
    repeats: int = 1
    share: float = 1.0
    sample: str = ""
    pinned: bool = False
    day_first: bool | None = None
    field: str = ""
    many: bool = False
    field_type: str = "text"
    prefix: str = ""


@dataclass(frozen=True, slots=True)
class Layout:
    """One layout of a site: its sections in page order and where its main text lives.

    Attributes:
        id: a stable name within the site (``L0``, ``L1``... by score).
        pages: how many analyzed pages have this layout.
        score: the pattern score, log(pages) times the sum of MainScores.
        sections: the aligned slots in page order.
        container: normalised tag path under which the main text lies; blocks
            there whose key the layout does not know are taken as main text.
        members: a few member page ids, for reports.
        first_seen, last_seen: dates (``YYYY-MM-DD``) of the first and the latest
            crawl with a page of this layout; ``""`` when unknown.
        seen: pages of this layout over analyze and every update.
        stale: `stemmer update` found no page of it for longer than its
            ``--stale-after`` time; kept, not deleted.
        title_names: the parts of its pages' `<title>`s that name no page: the
            site's name and what is the same on all of them; extract drops
            them from a page's `<title>`.
    """

    id: str
    pages: int
    score: float
    sections: tuple[Section, ...]
    container: tuple[str, ...] = ()
    members: tuple[str, ...] = ()
    first_seen: str = ""
    last_seen: str = ""
    seen: int = 0
    stale: bool = False
    title_names: tuple[str, ...] = ()


# The history of a pattern file keeps the latest this many runs.
HISTORY_MAX = 50


@dataclass(frozen=True, slots=True)
class SitePatterns:
    """Everything learned about one site: how to make keys and its layouts.

    Attributes:
        site: the host the patterns apply to.
        layouts: best first.
        tokens: the attribute tokens kept in keys, with the share of pages having them.
        params: the analyze parameters, including ``key_depth`` and the
            ``match_threshold`` that extract uses by default.
        history: what analyze and update did to the file, oldest first: one
            dict per run (``date``, ``command``, ``pages``, ...).
        noise: the site's common-noise library (`stemmer.layout.noise.NoiseLibrary`), or None.
        model: the site's own block classifier (a `BlockClassifier`, or the path of
            its saved ``.json``, read when first needed), or None: use the generic one.
    """

    site: str
    layouts: tuple[Layout, ...]
    tokens: dict[str, float] = field(default_factory=dict)
    params: dict[str, float] = field(default_factory=dict)
    history: tuple[dict, ...] = ()
    noise: object = field(default=None, compare=False, repr=False)
    model: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class PatternSet:
    """The patterns of many sites, by site."""

    sites: dict[str, SitePatterns] = field(default_factory=dict)

    def get(self, site: str) -> SitePatterns | None:
        return self.sites.get(site)

    def __contains__(self, site: object) -> bool:
        return site in self.sites

    def __len__(self) -> int:
        return len(self.sites)


class Patterns(Protocol):
    """What extract asks of learned patterns: a site's, by name (`PatternSet`, `LazyPatterns`)."""

    def get(self, site: str) -> SitePatterns | None:
        """The site's patterns, or None when there are none for it."""

    def __contains__(self, site: object) -> bool:
        """Whether there are patterns for the site."""
