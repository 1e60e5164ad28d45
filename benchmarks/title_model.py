"""Train and check the title-candidate scorer of `stemmer/classify/title.py` under site-grouped cross-validation.

    python benchmarks/title_model.py                 # CV table: the rule vs the learned choice, per set
    python benchmarks/title_model.py --write         # ... and write stemmer/classify/title_model.json

Each page's distinct title candidates (`title_candidates`) are rows; a row is positive
when it equals the gold title as ../shared/tools/score.py compares titles.  A logistic
regression (`fit_scorer("logreg")`, rows weighted 1/candidates so each page counts
once) is fitted on the training sets' pages; its best-scored candidate is the title of a
page that states a title of its own, the rule's is the title of the others.

Scores: per set, exact-match share of the rule alone (today's titles) and of the
learned choice.  Training sets are scored out of fold (GroupKFold by site: no site is in
its own training fold); the other sets (l3s_gn1: never trained on) by the model fitted
on all training pages, the one --write ships.  jekyll_sites and web_sites contribute
--per-site article pages of each site (by a hash of the id).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import logging
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(SHARED / "tools"))

from score import title_exact  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402
from stemmer.classify.features import page_table  # noqa: E402
from stemmer.classify.scorers import fit_scorer  # noqa: E402
from stemmer.classify.title import (FEATURES, MODEL_PATH, TitleSources, candidate_features,  # noqa: E402
                                    rule_title, title_candidates)
from stemmer.metadata import page_signals  # noqa: E402

TRAIN_SETS = ("mceb", "wcxb", "jekyll_sites", "web_sites")  # the sets a shipped model may learn from
TEST_SETS = ("l3s_gn1",)  # scored, never trained on
SITE_SETS = ("jekyll_sites", "web_sites")


def read_pages(name: str, per_site: int) -> list[dict]:
    with gzip.open(SHARED / "data" / name / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        pages = [p for p in map(json.loads, f) if p.get("title")]
    if name in SITE_SETS:
        by_site = defaultdict(list)
        for p in pages:
            by_site[p["site"]].append(p)
        pages = [q for site in sorted(by_site) for q in sorted(
            by_site[site], key=lambda p: hashlib.sha256(p["id"].encode()).hexdigest())[:per_site]]
    return pages


def page_rows(page: dict) -> dict:
    """The page's candidates, their features and labels, and the rule's title."""
    root = parse_html(page["html"])
    table = page_table(root)
    signals = page_signals(root)
    sources = TitleSources.read(table, signals)
    rule, _ = rule_title(table, sources)
    cands = title_candidates(table, signals, sources)
    X = candidate_features(table, signals, sources, cands, rule) if cands else np.zeros((0, len(FEATURES)))
    texts = [c.text for c in cands.values()]
    return {"set": page["dataset"], "site": page["site"], "X": X, "texts": texts, "rule": rule,
            "own": bool(signals.titles), "y": np.array([title_exact(t, page["title"]) for t in texts], dtype=int),
            "gold": page["title"]}


def fit(rows: list[dict], C: float):
    rows = [r for r in rows if len(r["texts"])]
    X = np.vstack([r["X"] for r in rows])
    y = np.concatenate([r["y"] for r in rows])
    w = np.concatenate([np.full(len(r["y"]), 1.0 / len(r["y"])) for r in rows])
    return fit_scorer(X, y, "logreg", sample_weight=w, params={"C": C, "max_iter": 2000})


def choose(model, r: dict) -> str | None:
    if not r["own"] or not r["texts"]:
        return r["rule"]
    return r["texts"][int(np.argmax(model.decision(r["X"])))]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--C", type=float, default=0.1, help="inverse L2 strength of the logistic regression")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--per-site", type=int, default=20, help="article pages per site of jekyll_sites, web_sites")
    ap.add_argument("--write", action="store_true",
                    help=f"write the model fitted on all training pages to {MODEL_PATH}")
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)
    rows = [page_rows(p) for name in TRAIN_SETS + TEST_SETS for p in read_pages(name, args.per_site)]
    train = [r for r in rows if r["set"] in TRAIN_SETS]
    sites = sorted({r["site"] for r in train}, key=lambda s: hashlib.sha256(s.encode()).hexdigest())
    fold_of = {s: i % args.folds for i, s in enumerate(sites)}
    chosen: dict[int, str | None] = {}
    for k in range(args.folds):
        model = fit([r for r in train if fold_of[r["site"]] != k], args.C)
        for r in train:
            if fold_of[r["site"]] == k:
                chosen[id(r)] = choose(model, r)
    model = fit(train, args.C)
    for r in rows:
        chosen.setdefault(id(r), choose(model, r))
    print(f"title exact-match share, C={args.C}, {args.folds}-fold site-grouped CV on {', '.join(TRAIN_SETS)}")
    print(f"{'set':<14}{'pages':>7}{'own title':>11}{'rule':>8}{'learned':>9}{'delta':>8}")
    for name in TRAIN_SETS + TEST_SETS:
        rs = [r for r in rows if r["set"] == name]
        rule = np.mean([title_exact(r["rule"], r["gold"]) for r in rs])
        learned = np.mean([title_exact(chosen[id(r)], r["gold"]) for r in rs])
        own = sum(r["own"] for r in rs)
        print(f"{name:<14}{len(rs):>7}{own:>11}{rule:>8.3f}{learned:>9.3f}{learned - rule:>+8.3f}")
    if args.write:
        spec = {"features": list(FEATURES), "mean": model.mean.tolist(), "scale": model.scale.tolist(),
                "coef": model.coef.tolist(), "intercept": model.intercept,
                "trained_on": {name: sum(r["set"] == name for r in train) for name in TRAIN_SETS}, "C": args.C}
        tmp = MODEL_PATH.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
        tmp.replace(MODEL_PATH)
        print(f"wrote {MODEL_PATH}")


if __name__ == "__main__":
    main()
