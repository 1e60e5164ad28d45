"""A site's own block classifier, trained by analyze from the blocks its patterns label.

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
from collections.abc import Sequence

from stemmer.classify.features import PageTable
from stemmer.extract.match import SiteMatcher
from stemmer.layout.model import SitePatterns

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
