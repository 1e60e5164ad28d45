"""Train a block classifier on pages with gold main text, e.g. the generic model shipped with stemmer.

    python -m stemmer.classify.train ../shared/data/wcxb ../shared/data/zh_cwced \\
        -o stemmer/classify/generic/model

Each DATASET is a folder with ``pages.jsonl.gz`` or such a file itself (the
format of ``../shared/data/FORMAT.md``: ``id``, ``site``, ``html``, ``text``
with one gold paragraph a line).  Pages without gold text are skipped.  The
gold is aligned to the blocks (`stemmer.classify.label`) and the classifier
is fitted and written as ``OUT.json`` + ``OUT.npz``.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from stemmer.blocks import parse_html
from stemmer.classify.features import DEFAULT_GROUPS, GROUPS, PageTable, page_table
from stemmer.classify.label import align

# Chosen by benchmarks/classifier.py (site-grouped 5-fold CV on the single-page sets).
DEFAULT_ESTIMATOR = "hgb"
DEFAULT_THRESHOLD = 0.35  # chosen together with LETTER_POWER (2-fold grid, then held out; benchmarks/CLASSIFIER-LOG.md)
# Training pages per site (and per kind of label: gold or patterns), so a big site does not dominate.
PAGES_PER_SITE = 30
# Each training block weighs its letters to this power (the square root): SH F1 counts words while
# the loss counts blocks, so a long paragraph should cost more to get wrong than a one-word link
# (gains on all seven sets under site-grouped CV, benchmarks/CLASSIFIER-LOG.md).  0: every block alike.
LETTER_POWER = 0.5
# First-stage trees fitted on this many bootstrap samples of the training sites and averaged:
# a model that depends less on which sites it saw.  1: five bags were steadier under CV but lower
# held out on dragnet, and walk five times the trees (benchmarks/CLASSIFIER-LOG.md).
BAGS = 1


@dataclass(slots=True)
class LabelledPage:
    """One training page: its id, site, blocks and per-block labels."""

    id: str
    site: str
    dataset: str
    table: PageTable
    labels: list[int]
    gold_tokens: int
    gold_aligned: int
    title: str | None = None
    gold: str | None = None
    root: object = None
    weights: list[float] | None = None  # per block; 0: no label (a block no pattern slot knows)


def read_jsonl(path: str | Path) -> Iterator[dict]:
    """The records of a dataset folder (``pages.jsonl.gz``) or a ``.jsonl[.gz]`` file."""
    path = Path(path)
    if path.is_dir():
        path = path / "pages.jsonl.gz"
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def labelled_pages(records: Iterator[dict], *, keep_root: bool = False) -> Iterator[LabelledPage]:
    """Blocks and aligned labels of every record that has gold text."""
    for d in records:
        if d.get("text") is None:
            continue
        root = parse_html(d["html"])
        table = page_table(root)
        al = align([b.text for b in table.blocks], d["text"])
        yield LabelledPage(d["id"], d.get("site") or d["id"], d.get("dataset", ""), table, al.labels(),
                           al.gold_tokens, al.gold_aligned, d.get("title"), d["text"], root if keep_root else None)


def per_site(pages: Sequence[LabelledPage], cap: int = PAGES_PER_SITE) -> list[int]:
    """Indices of at most `cap` pages of each site (and kind of label), chosen by a hash of the id."""
    groups: dict[tuple[str, bool], list[int]] = {}
    for i, p in enumerate(pages):
        groups.setdefault((p.site, p.weights is None), []).append(i)
    keep = []
    for idx in groups.values():
        keep += sorted(idx, key=lambda i: hashlib.sha256(pages[i].id.encode("utf-8")).hexdigest())[:cap]
    return sorted(keep)


def block_weights(page: LabelledPage, *, power: float = LETTER_POWER, page_total: float | None = None) -> list[float]:
    """Per block of `page`, its sample weight: 0 for a block without a label, else its letters ** `power`.

    With `page_total`, the weights are scaled to sum to it: every page weighs the same.
    """
    base = page.weights if page.weights is not None else [1.0] * len(page.labels)
    w = [w * max(b.weight, 1) ** power for w, b in zip(base, page.table.blocks)]
    total = sum(w)
    return [x * page_total / total for x in w] if page_total and total > 0 else w


def train(pages: Sequence[LabelledPage], *, estimator: str = DEFAULT_ESTIMATOR,
          groups: Sequence[str] = DEFAULT_GROUPS, embedder=None, threshold: float = DEFAULT_THRESHOLD,
          context: bool = True, params: dict | None = None, letter_power: float = LETTER_POWER,
          bags: int = BAGS):
    """Fit a `BlockClassifier` on labelled pages (second stage held out by site; blocks of weight 0 left out)."""
    from stemmer.classify.model import BlockClassifier

    clf = BlockClassifier(estimator=estimator, groups=groups, embedder=embedder, threshold=threshold,
                          context=context, params=params, bags=bags if estimator == "hgb" else 1)
    return clf.fit([p.table for p in pages], [p.labels for p in pages], groups_of_pages=[p.site for p in pages],
                   weights=[block_weights(p, power=letter_power) for p in pages])


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m stemmer.classify.train", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="+", metavar="DATASET")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="model path (OUT.json + OUT.npz)")
    p.add_argument("--estimator", default=DEFAULT_ESTIMATOR, choices=("logreg", "svm", "hgb"))
    p.add_argument("--groups", default=",".join(DEFAULT_GROUPS),
                   help=f"comma-separated feature groups out of {','.join(GROUPS)}")
    p.add_argument("--embedder", default=None,
                   help="hashing:N, static:tokenlearn-static-model or sentence-transformers:PATH (with group embed)")
    p.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    p.add_argument("--no-context", action="store_true", help="no second stage over neighbouring blocks")
    p.add_argument("--letter-power", type=float, default=LETTER_POWER, metavar="E",
                   help=f"a training block weighs its letters ** E (default {LETTER_POWER}; 0: every block alike)")
    p.add_argument("--pages-per-site", type=int, default=PAGES_PER_SITE, metavar="N",
                   help=f"training pages per site (default {PAGES_PER_SITE})")
    p.add_argument("--bags", type=int, default=BAGS, metavar="K",
                   help=f"average the trees of K bootstrap samples of the sites (default {BAGS}; hgb only)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from stemmer.classify.embed import embedder_from_name

    start = time.perf_counter()
    pages = []
    for ds in args.datasets:
        got = list(labelled_pages(read_jsonl(ds)))
        for p in got:
            p.dataset = p.dataset or Path(ds).name
        pages += got
    pages = [pages[i] for i in per_site(pages, args.pages_per_site)]
    per_set = {}
    for name in dict.fromkeys(p.dataset for p in pages):
        got = [p for p in pages if p.dataset == name]
        per_set[name] = {
            "pages": len(got), "sites": len({p.site for p in got}), "blocks": sum(len(p.labels) for p in got),
            "main_blocks": sum(sum(p.labels) for p in got),
            "gold_tokens_recovered": round(sum(p.gold_aligned for p in got)
                                           / max(1, sum(p.gold_tokens for p in got)), 4)}
        print(f"{name}: {per_set[name]}", file=sys.stderr)
    groups = [g for g in args.groups.split(",") if g]
    clf = train(pages, estimator=args.estimator, groups=groups, embedder=embedder_from_name(args.embedder),
                threshold=args.threshold, context=not args.no_context, letter_power=args.letter_power,
                bags=args.bags)
    clf.info_ = {"trained_on": per_set}
    paths = clf.save(args.output)
    print(f"trained on {len(pages)} pages in {time.perf_counter() - start:.0f} s -> "
          f"{', '.join(map(str, paths))}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
