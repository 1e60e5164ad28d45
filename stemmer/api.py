"""The verbs of stemmer as Python functions: analyze, extract, html2txt."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from stemmer.blocks import PageBlocks, parse_html, segment
from stemmer.extract import Extraction, SiteMatcher, apply_layout, foreign, unmatched
from stemmer.extract.fallback import GENERIC, Fallback, load_fallback, safe_extract
from stemmer.layout.learn import AnalyzeParams
from stemmer.layout.model import Patterns, PatternSet
from stemmer.pages import Page
from stemmer.site import SiteCollector
from stemmer.update.history import check_date, today

Progress = Callable[[int], None]


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
            its patterns label (`stemmer.extract.site_model`), for its unmatched pages.

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
        matcher, learned = matchers[page.site]
        if matcher is None:
            root = parse_html(page.html) if fb or with_blocks else None
            result = safe_extract(fb, page.id, page.url, page.site, root, **learned) if fb else None
            yield result or unmatched(page.id, page.url, page.site), segment(root) if with_blocks else None
            continue
        root = parse_html(page.html)
        blocks = segment(root)
        match = matcher.match(blocks)
        result = None
        if match.layout is not None:
            unknown = fb.unknown_rule(root, match.layout, matcher.keymaker, **learned) if fb is not None else None
            result = apply_layout(page.id, page.url, page.site, blocks, match, matcher.keymaker, unknown=unknown)
            if foreign(result, match, blocks):
                result = None  # a page of another layout that resembles this one
        if result is None and fb is not None:
            result = safe_extract(fb, page.id, page.url, page.site, root, match.similarity, **learned)
        yield result or unmatched(page.id, page.url, page.site, match.similarity), blocks if with_blocks else None


def html2txt(html: str) -> str:
    """All visible text of a page, one block per line, without any pattern.

    Args:
        html: the page's HTML.

    Returns:
        The text; ``""`` for an empty or unparsable page.
    """
    return "\n".join(b.text for b in segment(parse_html(html)).blocks
                     if not b.path or not b.path[-1].startswith("title"))
