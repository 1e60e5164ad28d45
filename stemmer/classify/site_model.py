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

import functools
import logging
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
# The site model is checked against the generic one on this many held-out pages or more (every
# third labelled page, so 6 labelled pages); a site with fewer keeps the generic model: a model
# fitted on a handful of pages knows little of the site's other kinds of page, and nothing says it
# reads even those as well as the generic model (benchmarks/site_fallback.py --train-pages 3).
MIN_HELD_OUT = 2

log = logging.getLogger("stemmer")


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


def train_site_model(patterns: SitePatterns, tables: Sequence[PageTable], generic=None):
    """A `BlockClassifier` for the site, or None when its patterns label too little or it loses.

    Every third labelled page is held out first: a model fitted on the others
    must find the patterns' main text there at least as well as the generic
    model (`held_out_f1`), or the site keeps the generic model; so it does where
    fewer than `MIN_HELD_OUT` pages can be held out (the site model saw too
    little to be trusted over it).  The site model is then fitted on all of them.

    Args:
        patterns: the site's learned patterns.
        tables: the sample pages' tables (`page_table`).
        generic: the generic `BlockClassifier` to beat; default: the shipped one.
    """
    if not patterns.layouts:
        return None
    matcher = SiteMatcher(patterns)
    labelled = [(table, got) for table in tables
                if (got := pattern_labels(matcher, table)) is not None and any(got[1])]
    held = labelled[2::3]
    if len(held) < MIN_HELD_OUT:
        log.info("%s: %d labelled pages, too few to check a site model: the generic model reads its pages",
                 patterns.site, len(labelled))
        return None
    fitted = _fit([x for i, x in enumerate(labelled) if i % 3 != 2], patterns.site)
    if fitted is None:
        return None
    if generic is None:
        generic = _generic()
    ours, theirs = held_out_f1(fitted, held), held_out_f1(generic, held)
    if ours < theirs:
        log.info("%s: the site model loses to the generic model on held-out pages (F1 %.3f < %.3f)",
                 patterns.site, ours, theirs)
        return None
    clf = _fit(labelled, patterns.site)
    if clf is not None:
        clf.info_.update(held_out_f1=round(ours, 4), generic_held_out_f1=round(theirs, 4))
    return clf


def held_out_f1(clf, labelled) -> float:
    """Mean over the pages of the F1 of `clf`'s main blocks against the pattern labels, by letters.

    Blocks no slot knows do not count; a page where either finds no main text scores 0 unless both find none.
    """
    scores = []
    for table, (labels, weights) in labelled:
        chosen = clf.predict_proba(table) >= clf.threshold
        hit = got = want = 0
        for b, pick, label, w in zip(table.blocks, chosen, labels, weights):
            n = b.weight * w
            got += n * bool(pick)
            want += n * label
            hit += n * (bool(pick) and label)
        scores.append(1.0 if not (got or want) else 2 * hit / (got + want))
    return sum(scores) / len(scores)


def _fit(labelled, site: str):
    """A logistic-regression `BlockClassifier` fitted on (table, (labels, weights)) pairs, or None (too few)."""
    main = sum(lab * w for _, (ls, ws) in labelled for lab, w in zip(ls, ws))
    other = sum((1 - lab) * w for _, (ls, ws) in labelled for lab, w in zip(ls, ws))
    if len(labelled) < MIN_PAGES or min(main, other) < MIN_BLOCKS:
        return None
    from threadpoolctl import threadpool_limits

    from stemmer.classify.model import BlockClassifier

    clf = BlockClassifier(estimator="logreg", context=False, threshold=THRESHOLD)
    with threadpool_limits(1):  # a fit this small only loses to BLAS threads (3x on 2 busy cores)
        clf.fit([t for t, _ in labelled], [ls for _, (ls, _) in labelled], weights=[ws for _, (_, ws) in labelled])
    clf.info_ = {"site": site, "pages": len(labelled), "main_blocks": int(main), "other_blocks": int(other)}
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
@functools.lru_cache(maxsize=1)
def _generic():
    from stemmer.classify.model import BlockClassifier
    from stemmer.extract.fallback import GENERIC_PATH

    return BlockClassifier.load(GENERIC_PATH)
