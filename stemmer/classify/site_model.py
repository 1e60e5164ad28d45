"""Block classifiers trained from the blocks a site's patterns label, not from hand-made gold.

Two uses.  **The site model**: analyze trains one per site for the site's
pages no layout matches.  **`stemmer train`** (`train_on_patterns`): the
pattern labels of a whole crawl, many sites, train a generic model for the
pages of sites never analyzed.

The generic model has to guess what main text looks like on any site; the
site's patterns already say it for the pages they match.  Analyze matches a
sample of the site's pages against the layouts it just learned, labels each
block by its slot (main and title slots: main text; static and sub slots: not;
blocks no slot knows: left out), and fits a small linear model on the usual
block features, whose class-word vocabulary is now the site's own.  Extract
uses it for the site's pages that no layout matches.

It has to be cheap: the features need a second walk of the page
(`page_table`, some 10 ms a page), so only `SAMPLE_PAGES` pages are used,
chosen by a hash of their id (the same pages whatever order the crawl came in).
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from stemmer.blocks import parse_html
from stemmer.classify.features import PageTable, page_table
from stemmer.errors import ModelError
from stemmer.extract.match import SiteMatcher
from stemmer.layout.model import SitePatterns
from stemmer.pages import Page

if TYPE_CHECKING:
    from stemmer.classify.model import BlockClassifier
    from stemmer.classify.train import LabelledPage

# Pages featurized per site.  On the multi-page dev sets (benchmarks/site_fallback.py)
# 20 and 40 pages give the same SH F1 on the forced fallback (0.911, 0.925, 0.972 on
# cleanportaleval, dragnet, jekyll_sites), and 20 cost half as much.
SAMPLE_PAGES = 20
# Without this many labelled pages and blocks of each class, the site keeps the generic model.
MIN_PAGES = 3
MIN_BLOCKS = 10
# Roles of the slots whose blocks are main text for the site model.
MAIN_ROLES = ("main", "title")
THRESHOLD = 0.5
# `stemmer train`: pages labelled per site (so a big site does not dominate), and the
# least labelled blocks of each class (main, other) it fits a model on.
TRAIN_PAGES_PER_SITE = 50
TRAIN_MIN_BLOCKS = 200


def sample_key(page_id: str) -> tuple[int, str]:
    """The sort key that picks a site's sample pages: a hash of the id, then the id."""
    return zlib.crc32(page_id.encode("utf-8")), page_id


def keep_sample(sample: list, page_id: str, item, size: int = SAMPLE_PAGES) -> None:
    """Add (key, item) to `sample`, keeping (at least) the `size` pages of smallest `sample_key`."""
    sample.append((sample_key(page_id), item))
    if len(sample) >= 2 * size:
        sample.sort(key=lambda kv: kv[0])
        del sample[size:]


def chosen(sample: list, size: int = SAMPLE_PAGES) -> list:
    """The items of the `size` smallest keys of a sample built by `keep_sample`, in key order."""
    return [item for _, item in sorted(sample, key=lambda kv: kv[0])[:size]]


def pattern_labels(matcher: SiteMatcher, table: PageTable) -> tuple[list[int], list[float]] | None:
    """Per block of a page, 1 (main or title slot) or 0 (static or sub), and weight 0 where no slot knows it.

    Returns:
        Labels and weights, or None when no layout matches the page.
    """
    match = matcher.match(table.page)
    if match.layout is None:
        return None
    role = {s.key: s.role for s in match.layout.sections}
    labels, weights = [], []
    for key in match.keys:
        r = role.get(key)
        labels.append(int(r in MAIN_ROLES))
        weights.append(0.0 if r is None else 1.0)
    return labels, weights


def train_site_model(patterns: SitePatterns, tables: Sequence[PageTable]):
    """A `BlockClassifier` for the site, or None when its patterns label too little.

    Args:
        patterns: the site's learned patterns.
        tables: the sample pages' tables (`page_table`).
    """
    if not patterns.layouts:
        return None
    from stemmer.classify.model import BlockClassifier

    matcher = SiteMatcher(patterns)
    kept, labels, weights = [], [], []
    for table in tables:
        got = pattern_labels(matcher, table)
        if got is not None and any(got[1]):
            kept.append(table)
            labels.append(got[0])
            weights.append(got[1])
    main = sum(lab * w for ls, ws in zip(labels, weights) for lab, w in zip(ls, ws))
    other = sum((1 - lab) * w for ls, ws in zip(labels, weights) for lab, w in zip(ls, ws))
    if len(kept) < MIN_PAGES or min(main, other) < MIN_BLOCKS:
        return None
    from threadpoolctl import threadpool_limits

    clf = BlockClassifier(estimator="logreg", context=False, threshold=THRESHOLD)
    with threadpool_limits(1):  # a fit this small only loses to BLAS threads (3x on 2 busy cores)
        clf.fit(kept, labels, weights=weights)
    clf.info_ = {"site": patterns.site, "pages": len(kept), "main_blocks": int(main), "other_blocks": int(other)}
    return clf


def pattern_labelled_pages(pages: Iterable[Page], patterns, *,
                           pages_per_site: int = TRAIN_PAGES_PER_SITE) -> list[LabelledPage]:
    """The pages a layout of their site matches, labelled by `pattern_labels`, at most `pages_per_site` a site.

    The sample of each site is chosen by `sample_key` before matching, so it
    is the same whatever order the crawl came in.

    Args:
        pages: a crawl (any sites).
        patterns: a `PatternSet` or anything with ``get(site)``.
    """
    from stemmer.classify.train import LabelledPage  # also the `python -m` script: not imported with the package

    samples: dict[str, list] = {}
    for page in pages:
        site = patterns.get(page.site)
        if site is not None and site.layouts:
            keep_sample(samples.setdefault(page.site, []), page.id, page, size=pages_per_site)
    out = []
    for site_name, sample in sorted(samples.items()):
        matcher = SiteMatcher(patterns.get(site_name))
        for page in chosen(sample, pages_per_site):
            table = page_table(parse_html(page.html))
            got = pattern_labels(matcher, table)
            if got is not None and any(got[1]):
                out.append(LabelledPage(page.id, site_name, "patterns", table, got[0], 0, 0, weights=got[1]))
    return out


def train_on_patterns(pages: Iterable[Page], patterns, *, pages_per_site: int = TRAIN_PAGES_PER_SITE,
                      min_blocks: int = TRAIN_MIN_BLOCKS) -> BlockClassifier:
    """A generic `BlockClassifier` (the shipped model's configuration) from a crawl's pattern labels.

    Raises:
        ModelError: the patterns label fewer than `min_blocks` main-text or other blocks.
    """
    from stemmer.classify.train import train

    labelled = pattern_labelled_pages(pages, patterns, pages_per_site=pages_per_site)
    main = sum(lab * w for p in labelled for lab, w in zip(p.labels, p.weights))
    other = sum((1 - lab) * w for p in labelled for lab, w in zip(p.labels, p.weights))
    sites = len({p.site for p in labelled})
    if min(main, other) < min_blocks:
        raise ModelError(f"the patterns label {int(main)} main-text and {int(other)} other blocks on "
                         f"{len(labelled)} pages of {sites} sites; training needs {min_blocks} of each "
                         "(analyze more pages or sites)")
    clf = train(labelled)
    clf.info_ = {"trained_on": {"patterns": {"pages": len(labelled), "sites": sites, "main_blocks": int(main),
                                             "other_blocks": int(other)}}}
    return clf
