"""Fit and check the learned-site decision (`stemmer.extract.decide`): how far a layout's vote outweighs the classifier.

For each set and each number of train pages per site (2, 3, 5, all; the same
pages as ``layouts.py --train-pages K``), analyze the train pages, match each
test page with gold text, and record for each block of a matched page its
slot's evidence (`SlotEvidence`), the layout's vote (main slot, or a block no
slot knows inside the main-text container), the generic classifier's
probability and page decision (`page_blocks`) on the page as it is (as extract
asks it, `Fallback.layout_decision`) and after the site's noise library is
dropped (the reading before), and the block's gold label (`label_blocks`).  Then score each
`CLASSIFIER_PAGES` of a grid by the letters-weighted F1 of the main text per
page (the blocks' letters standing in for SH F1), mean over a site's pages,
then over sites: the layout alone (0, 0), the classifier's page decision alone
(inf, inf), and the blend.
The value is chosen under site-grouped cross-validation: leave one site out
of the training sets (jekyll_sites, web_sites), pick the best value on the
others, score the site left out.  cleanportaleval and dragnet are only checked.
Last, the variants measured and not kept, each at the chosen values: the
classifier's decision read after the noise library, static slots weighed like
sub slots (the classifier's page decision outweighing a static slot seen on
fewer pages than a weight of 8, 16 or 24), and a sub slot of DiffScore under
0.6 or 0.7 keeping the layout's vote.

    python benchmarks/decision.py                 # fit on jekyll_sites + web_sites, check the other two
    python benchmarks/decision.py --rows rows.json.gz --refit   # re-score recorded rows
"""
from __future__ import annotations

import argparse
import functools
import gzip
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from layouts import few_pages, load, run_split, to_page  # noqa: E402

from stemmer import analyze  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402
from stemmer.classify.features import page_table  # noqa: E402
from stemmer.classify.label import label_blocks  # noqa: E402
from stemmer.extract import SiteMatcher  # noqa: E402
from stemmer.extract.apply import slot_evidence  # noqa: E402
from stemmer.extract.decide import page_blocks  # noqa: E402
from stemmer.extract.fallback import Fallback  # noqa: E402

TRAIN_SETS = ("jekyll_sites", "web_sites")
CHECK_SETS = ("cleanportaleval", "dragnet")
PAGES = (2, 3, 5, None)
# (CLASSIFIER_PAGES_MAIN, CLASSIFIER_PAGES) pairs; (0, 0): the layout alone, (inf, inf): the classifier's
# page decision alone on the blocks of main and sub slots and those no slot knows.
ONE_WAY = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, math.inf)
GRID = tuple((m, o) for m in ONE_WAY[:9] + ONE_WAY[-1:] for o in ONE_WAY)
LAYOUT_ALONE, CLASSIFIER_ALONE = (0.0, 0.0), (math.inf, math.inf)


def record(dataset: str, work: Path, fallback: Fallback) -> list[dict]:
    """One row per block of each matched test page with gold text, for each number of train pages."""
    data = load(dataset)
    split = run_split(dataset, work)
    test = [data[i] for i in split["test"] if (data[i].get("text") or "").strip()]
    clf = fallback.classifier
    read = {}
    for d in test:
        root = parse_html(d["html"].encode("utf-8"), name=d["id"])
        table = page_table(root)
        read[d["id"]] = (table, label_blocks([b.text for b in table.page.blocks], d["text"]))
    rows = []
    for k in PAGES:
        ids = split["train"] if k is None else few_pages(split["train"], data, k)
        patterns = analyze([to_page(data[i]) for i in ids], site_model=False)
        matchers = {}
        for d in test:
            site = patterns.get(d["site"])
            if d["site"] not in matchers:
                matchers[d["site"]] = SiteMatcher(site) if site and site.layouts else None
            m = matchers[d["site"]]
            if m is None:
                continue
            table, labels = read[d["id"]]
            page = table.page
            match = m.match(page)
            if match.layout is None:
                continue
            probs, threshold = fallback._page_probs(table, None, clf)
            chosen = page_blocks(table, probs, threshold) if probs is not None else None
            denoised, _ = fallback._page_probs(table, site.noise, clf)  # the noise library dropped first
            chosen_denoised = page_blocks(table, denoised, threshold) if denoised is not None else None
            diffs = {s.key: s.diff for s in match.layout.sections}  # recorded to try DiffScore as a gate
            for i, (ev, vote) in enumerate(slot_evidence(page, match, m.keymaker)):
                b = page.blocks[i]
                rows.append({"set": dataset, "site": d["site"], "k": k or 0, "page": d["id"],
                             "role": ev.role, "aligned": ev.aligned, "n": ev.layout_pages, "share": ev.slot_share,
                             "diff": diffs.get(match.keys[i], 0.0), "vote": vote,
                             "p": float(probs[i]) if probs is not None else None, "t": threshold,
                             "c": bool(chosen[i]) if chosen is not None else None,
                             "c_noise": bool(chosen_denoised[i]) if chosen_denoised is not None else None,
                             "y": labels[i], "w": b.weight})
    return rows


@functools.lru_cache(maxsize=None)
def _decide(role: str | None, aligned: bool, pages: int, share: float, vote: bool, kept: bool | None,
            c: tuple[float, float], static: float = 0.0, diff: float = 1.0, gate: float = 0.0) -> bool:
    from stemmer.extract import decide as dec
    from stemmer.extract.decide import SlotEvidence

    if static and role == "static" and kept is not None:  # a variant: a static slot weighed like a sub slot
        return pages * share < static and kept
    if role == "sub" and diff < gate:  # a variant: a sub slot of DiffScore under `gate` keeps the layout's vote
        return vote
    old = dec.CLASSIFIER_PAGES_MAIN, dec.CLASSIFIER_PAGES
    dec.CLASSIFIER_PAGES_MAIN, dec.CLASSIFIER_PAGES = c
    try:
        return dec.is_main(SlotEvidence(role, share, pages, aligned), vote, kept)
    finally:
        dec.CLASSIFIER_PAGES_MAIN, dec.CLASSIFIER_PAGES = old


def decide(row: dict, c: tuple[float, float], variant: dict | None = None) -> bool:
    """`stemmer.extract.decide.is_main` with (`CLASSIFIER_PAGES_MAIN`, `CLASSIFIER_PAGES`) = c; a
    `VARIANTS` entry reads the classifier's decision from another field of the row (`source`:
    "c_noise", after the noise library), weighs static slots (`static`) or gates sub slots (`gate`)."""
    v = variant or {}
    return _decide(row["role"], row["aligned"], row["n"], row["share"], row["vote"], row.get(v.get("source", "c")),
                   c, v.get("static", 0.0), row.get("diff", 1.0), v.get("gate", 0.0))


# The variants measured beside the shipped decision, at its chosen values.
VARIANTS = {
    "the noise library dropped before the classifier (the reading before)": {"source": "c_noise"},
    "static slots weighed, classifier weight 8": {"static": 8.0},
    "static slots weighed, classifier weight 16": {"static": 16.0},
    "static slots weighed, classifier weight 24": {"static": 24.0},
    "a sub slot of DiffScore under 0.6 keeps the layout's vote": {"gate": 0.6},
    "a sub slot of DiffScore under 0.7 keeps the layout's vote": {"gate": 0.7},
}


def site_scores(rows: list[dict], c: tuple[float, float], variant: dict | None = None) -> dict[tuple, float]:
    """Mean page F1 (letters) per (set, site, k)."""
    pages: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for r in rows:
        acc = pages[(r["set"], r["site"], r["k"], r["page"])]
        kept = decide(r, c, variant)
        acc[0] += r["w"] * (kept and r["y"])
        acc[1] += r["w"] * kept
        acc[2] += r["w"] * r["y"]
    per: dict[tuple, list[float]] = defaultdict(list)
    for (s, site, k, _), (tp, pred, gold) in pages.items():
        f1 = 1.0 if pred == gold == 0 else 2 * tp / (pred + gold) if pred + gold else 0.0
        per[(s, site, k)].append(f1)
    return {key: sum(v) / len(v) for key, v in per.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="*", default=[*TRAIN_SETS, *CHECK_SETS])
    ap.add_argument("--work", default="/tmp/stemmer-bench")
    ap.add_argument("--rows", help="record rows here (.json.gz), or read them with --refit")
    ap.add_argument("--refit", action="store_true", help="score the rows of --rows, recording nothing")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if args.refit:
        with gzip.open(args.rows, "rt") as f:
            rows = json.load(f)
    else:
        fallback = Fallback("generic")
        rows = [r for s in args.sets for r in record(s, work, fallback)]
        if args.rows:
            with gzip.open(args.rows, "wt") as f:
                json.dump(rows, f)
    scores = {c: site_scores(rows, c) for c in GRID}
    keys = sorted(scores[LAYOUT_ALONE])
    train_sites = sorted({key[1] for key in keys if key[0] in TRAIN_SETS})

    def mean(c: float, pick) -> float:
        vals = [v for key, v in scores[c].items() if pick(key)]
        return sum(vals) / len(vals) if vals else float("nan")

    # Leave one site out: the best value on the other training sites, scored on the one left out.
    held: dict[tuple, float] = {}
    chosen = []
    for site in train_sites:
        best = max(GRID, key=lambda c: mean(c, lambda key: key[0] in TRAIN_SETS and key[1] != site))
        chosen.append(best)
        held.update({key: scores[best][key] for key in keys if key[1] == site})
    final = max(GRID, key=lambda c: mean(c, lambda key: key[0] in TRAIN_SETS))
    print(f"(CLASSIFIER_PAGES_MAIN, CLASSIFIER_PAGES) chosen on all training sites: {final}; per left-out site: "
          f"{', '.join(map(str, sorted(set(chosen))))}\n")
    print("| set | train pages | sites | layout alone | classifier alone | chosen " + str(final) +
          " | cross-validated |")
    print("|---|---|---|---|---|---|---|")
    for s in args.sets:
        for k in PAGES:
            pick = (lambda key, s=s, k=k: key[0] == s and key[2] == (k or 0))
            n = sum(1 for key in keys if pick(key))
            cv = [held[key] for key in keys if pick(key) and key in held]
            cvs = f"{sum(cv) / len(cv):.4f}" if cv else "-"
            print(f"| {s} | {k or 'all'} | {n} | {mean(LAYOUT_ALONE, pick):.4f} | {mean(CLASSIFIER_ALONE, pick):.4f} | "
                  f"{mean(final, pick):.4f} | {cvs} |")
    print("\n| values | " + " | ".join(f"{s} {k or 'all'}" for s in args.sets for k in PAGES) + " |")
    print("|---|" + "---|" * (len(args.sets) * len(PAGES)))
    for c in GRID:
        if c[0] not in (0.0, final[0]) and c[1] != final[1]:
            continue  # the two lines through the chosen point, and the layout-main-alone line
        print(f"| {c[0]:g}, {c[1]:g} | " + " | ".join(f"{mean(c, lambda key, s=s, k=k: key[0] == s and key[2] == (k or 0)):.4f}"
                                         for s in args.sets for k in PAGES) + " |")
    cols = [(s, k) for s in args.sets for k in PAGES]
    print("\n| variant at " + str(final) + " | " + " | ".join(f"{s} {k or 'all'}" for s, k in cols) + " |")
    print("|---|" + "---|" * len(cols))
    for name, variant in [("shipped", None), *VARIANTS.items()]:
        got = scores[final] if variant is None else site_scores(rows, final, variant)
        print(f"| {name} | " + " | ".join(
            f"{sum(v for key, v in got.items() if key[0] == s and key[2] == (k or 0)) / max(1, n):.4f}"
            for s, k in cols for n in [sum(1 for key in got if key[0] == s and key[2] == (k or 0))]) + " |")
    worst = sorted(((scores[final][key] - scores[LAYOUT_ALONE][key], key) for key in keys))[:8]
    print("\nsites that lose most against the layout alone:", ", ".join(f"{k[1]} k={k[2]} {d:+.3f}" for d, k in worst))


if __name__ == "__main__":
    main()
