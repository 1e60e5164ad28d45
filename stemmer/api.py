"""The verbs of stemmer as Python functions: analyze, extract, extract_html, train, html2txt."""
from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from stemmer.blocks import PageBlocks, parse_html, segment
from stemmer.classify.features import page_table
from stemmer.classify.site_model import TRAIN_PAGES_PER_SITE, train_on_patterns
from stemmer.errors import StemmerError
from stemmer.extract import Extraction, Match, SiteMatcher, apply_layout, foreign, unmatched
from stemmer.extract.fallback import GENERIC, Fallback, load_fallback, safe_extract
from stemmer.fields.comments import with_comments
from stemmer.fields.linked import shown_terms
from stemmer.fields.stated import with_stated_fields
from stemmer.layout.model import AnalyzeParams, Patterns, PatternSet
from stemmer.layout.store import load_patterns
from stemmer.layout.titles import own_titles
from stemmer.metadata import PageSignals, add_metadata, page_signals
from stemmer.pages import SKIPPED_PAGE, Page, site_of
from stemmer.site import SiteCollector
from stemmer.update.history import check_date, today

Progress = Callable[[int], None]
log = logging.getLogger("stemmer")
# A page with this many letters or more that extract leaves without main text gets a warning.
EMPTY_WARNING_LETTERS = 200


def analyze(pages: Iterable[Page], *, params: AnalyzeParams | None = None,
            progress: Progress | None = None, date: str | None = None,
            site_model: bool = True) -> PatternSet:
    """Learn the layouts of every site in a crawl.

    Args:
        pages: the crawl's pages (any sites, any order).
        params: thresholds; defaults tuned on the dev sites.
        progress: called with 1 for each page read, for a progress bar.
        date: the crawl's date (``YYYY-MM-DD``), the layouts' first and last
            seen date; default today (UTC).
        site_model: also train each site's block classifier from the blocks
            its patterns label (`stemmer.classify.site_model`), for its unmatched pages.

    Returns:
        One `SitePatterns` per site, with its common-noise library and site
        model; sites with no layout of `min_pages` pages get an empty one.
    """
    params = params or AnalyzeParams()
    date = check_date(date) if date is not None else today()
    sites: dict[str, SiteCollector] = {}
    for page in pages:
        if page.site not in sites:
            sites[page.site] = SiteCollector(page.site, site_model=site_model)
        sites[page.site].add(page)
        if progress:
            progress(1)
    return PatternSet({name: sites[name].learn(params, date) for name in sorted(sites)})


def extract(pages: Iterable[Page], patterns: Patterns | None, *, threshold: float | None = None,
            strict: bool = False, fallback: Fallback | str | None = GENERIC) -> Iterator[Extraction]:
    """Extract title and main text from pages with their sites' layouts.

    Args:
        pages: pages of any sites, streamed.
        patterns: learned patterns; a page of a site without patterns goes to the fallback.
        threshold: least similarity to a layout; default: the one stored with the patterns.
        strict: a layout matches only a page that has all its always-present slots.
        fallback: the block classifier for pages no layout covers: ``"generic"``
            (the model shipped with stemmer, loaded on first use), a model path,
            a `Fallback`, or None for patterns only.

    Yields:
        One `Extraction` per page, in input order; `matched` is False where no
        layout reaches the threshold, or where the best one finds none of its
        main text in the page: such pages have method ``classifier`` (the
        fallback's blocks), or ``none`` without a fallback.

    Raises:
        ModelError: the fallback's model file is missing or corrupt.
    """
    for extraction, _ in extract_with_blocks(pages, patterns, threshold=threshold, strict=strict, fallback=fallback,
                                             with_blocks=False):
        yield extraction


def extract_with_blocks(pages: Iterable[Page], patterns: Patterns | None, *, threshold: float | None = None,
                        strict: bool = False, fallback: Fallback | str | None = GENERIC,
                        with_blocks: bool = True) -> Iterator[tuple[Extraction, PageBlocks | None]]:
    """`extract`, each record with the page's blocks (`ExtractedBlock.index` points into them).

    The report explains a page block by block from these, without parsing it again.
    Without `with_blocks`, the second item is None.
    """
    fb = load_fallback(fallback)
    matchers: dict[str, tuple[SiteMatcher | None, dict]] = {}
    for page in pages:
        if page.site not in matchers:
            site = patterns.get(page.site) if patterns is not None else None
            matchers[page.site] = (SiteMatcher(site, threshold=threshold, strict=strict)
                                   if site and site.layouts else None,
                                   {"noise": site.noise, "model": site.model} if site else {})
        try:
            result, blocks = _extract_page(page, *matchers[page.site], fb, with_blocks)
        except StemmerError:  # the run's error, such as a model that cannot load
            raise
        except Exception as exc:  # noqa: BLE001  (one page must never end the run)
            log.warning("%s: not extracted, %s: %s", page.id, type(exc).__name__, exc, extra=SKIPPED_PAGE)
            result, blocks = unmatched(page.id, page.url, page.site), (PageBlocks(()) if with_blocks else None)
        yield result, blocks


def _extract_page(page: Page, matcher: SiteMatcher | None, learned: dict, fb: Fallback | None,
                  with_blocks: bool) -> tuple[Extraction, PageBlocks | None]:
    """One page's extraction, and its blocks if `with_blocks`: parse, walk, match, decide, finish.

    The page is parsed and walked once.  Where the classifier may read it (a
    fallback is set), the walk records its `page_table`, whose blocks are
    exactly `segment`'s: the layouts match those, the classifier reads the table.
    Then its best layout gives the title and main text, else the fallback does.
    """
    root = parse_html(page.utf8, name=page.id) if matcher or fb or with_blocks else None
    table = page_table(root) if fb is not None else None
    read: list[PageSignals] = []

    def stated() -> PageSignals:  # the page's statements, read once where first asked (cheaper than a functools.cache)
        if not read:
            read.append(page_signals(root, page.url, lang=root.get("lang") if root is not None else None))
        return read[0]

    if matcher is None and fb is not None:
        stated()  # the fallback reads them: now, while the walked tree is in the CPU's cache (a walk of it at half the cost)
    blocks = table.page if table is not None else segment(root)
    match = matcher.match(blocks) if matcher is not None else None
    result = None
    if match is not None and match.layout is not None:
        unknown = fb.unknown_rule(table, match.layout, matcher.keymaker, **learned) if fb is not None else None
        classified = fb.layout_decision(table, **learned) if fb is not None else None
        result = apply_layout(page.id, page.url, page.site, blocks, match, matcher.keymaker, unknown=unknown,
                              titles=lambda: own_titles(root), signals=stated, classified=classified, root=root)
        if foreign(result, match, blocks):
            # A page of another layout that resembles this one, or a layout short of text: the
            # generic model reads it, not the site's, which learned from the very layouts that fail it.
            result = None
            learned = {**learned, "model": None}
    similarity = match.similarity if match is not None else 0.0
    if result is None and fb is not None:
        stood_in = match.layout.id if match is not None and match.layout is not None else None
        result = safe_extract(fb, page.id, page.url, page.site, root, similarity, table=table, pattern=stood_in,
                              signals=stated, **learned)
    return (_checked(result or unmatched(page.id, page.url, page.site, similarity), blocks, match, root, stated,
                     table),
            blocks if with_blocks else None)


def _checked(result: Extraction, blocks: PageBlocks, match: Match | None, root,
             stated: Callable[[], PageSignals], table=None) -> Extraction:
    """The page's finished record: every path ends here.  It gets its date and author
    (`add_metadata`), the fields it states (`with_stated_fields`: image, tags,
    categories, with those its layout's link slots show, `shown_terms`) and its readers'
    comments (`with_comments`, from the page's `table` where the run made one), and a page
    with text whose body came out empty is said so.

    A warning for a page of `EMPTY_WARNING_LETTERS` letters or more without main
    text beyond its title (`Extraction.body_blocks`: a headline kept as main text
    is no body), whatever read it: a layout that matched and found none (with no
    fallback), the site model, the generic model.  Not for a page that no layout
    matched in a run without fallback: its record (method ``none``) is what was asked.
    """
    if next(result.body_blocks(), None) is None and (n := blocks.weight) >= EMPTY_WARNING_LETTERS:
        how = None
        if result.method != "none":
            how = f"layout {result.pattern}, {result.method}" if result.pattern else result.method
        elif match is not None and match.layout is not None:
            how = f"layout {match.layout.id} matched at {match.similarity:.2f}, no fallback"
        if how:
            log.warning("%s: no main text found %sin %d letters of text (%s)", result.id,
                        "beyond its title " if result.text else "", n, how)
    result = with_stated_fields(result, root, stated() if root is not None else None,
                                shown_terms(result, match, blocks, root))
    return add_metadata(with_comments(result, table, root, blocks), root, signals=stated)


def extract_html(html: str | bytes, url: str | None = None, patterns: Patterns | str | Path | None = None) -> Extraction:
    """Title, main text, date and author of one page: `extract` for a single HTML document.

    Args:
        html: the page's HTML (text, or bytes in UTF-8).
        url: its URL, where known: names its site (for `patterns`) and may carry its date.
        patterns: learned patterns (`load_patterns`) or a pattern file or directory
            (read on each call: load it once for many pages); the page's site is its
            URL's host, or the only site of a one-site `PatternSet` for a page without URL.

    Returns:
        One `Extraction`; method ``pattern`` where a layout matched, else ``classifier``
        (the generic model, loaded on the first call and kept; each page is extracted
        the same whatever came before it).

    Raises:
        PatternFileError: `patterns` names a file that cannot be read.
        ModelError: the generic model cannot load.
    """
    if isinstance(patterns, (str, Path)):
        patterns = load_patterns(patterns)
    site = site_of(url)
    if url is None and isinstance(patterns, PatternSet) and len(patterns.sites) == 1:
        site = next(iter(patterns.sites))
    page = Page(url or "page", url, site, html.decode("utf-8", "replace") if isinstance(html, bytes) else html)
    return next(extract([page], patterns, fallback=_generic_fallback()))


@functools.cache
def _generic_fallback() -> Fallback:
    """The generic model's fallback, built once per process (it loads the model on its first page)."""
    return Fallback(GENERIC)


def train(pages: Iterable[Page], patterns, *, pages_per_site: int = TRAIN_PAGES_PER_SITE):
    """A block classifier for pages of sites never analyzed, trained on the blocks a crawl's patterns label.

    Main and title slots give main text, static and sub slots boilerplate;
    blocks no slot knows are left out (`stemmer.classify.site_model`).

    Args:
        pages: a crawl of the analyzed sites (any order).
        patterns: their learned patterns (`PatternSet` or a lazy pattern directory).
        pages_per_site: pages labelled per site, so a big site does not dominate.

    Returns:
        A fitted `BlockClassifier`; ``save(path)`` writes it for ``extract --model``.

    Raises:
        ModelError: the patterns label too few blocks to train on.
    """
    return train_on_patterns(pages, patterns, pages_per_site=pages_per_site)


def html2txt(html: str) -> str:
    """All visible text of a page, one block per line, without any pattern.

    Args:
        html: the page's HTML.

    Returns:
        The text; ``""`` for an empty or unparsable page.
    """
    return "\n".join(b.text for b in segment(parse_html(html)).blocks
                     if not b.path or not b.path[-1].startswith("title"))
