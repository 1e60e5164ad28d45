"""What if no pattern matched: the fallback on the test pages of learned sites, generic vs site model.

For each multi-page dev set: split each site (../shared/tools/split.py),
analyze the train pages (patterns, noise library, site model), then send
every test page of a site with layouts through the fallback, as if no layout
had matched, with the generic or the site model, with or without the noise
library, and score each with ../shared/tools/score.py.  The last rows are the
whole pipeline (patterns + fallback) over all test pages, per configuration.

    python benchmarks/site_fallback.py
    python benchmarks/site_fallback.py --datasets jekyll_sites --work /tmp/sf
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from layouts import DATASETS, load, run_split, score, to_page  # noqa: E402

from stemmer import analyze, extract  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402
from stemmer.extract.fallback import Fallback  # noqa: E402

CONFIGS = {  # name: (site model, noise library mode)
    "generic": (False, "never"),
    "generic+noise": (False, "always"),
    "site": (True, "never"),
    "site+noise": (True, "always"),
    "site, else generic+noise (default)": (True, "generic"),
}


def write_pred(path: Path, results) -> None:
    with path.open("w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps({"id": r.id, "text": r.text, "title": r.title, "matched": r.matched},
                               ensure_ascii=False) + "\n")


def run_dataset(dataset: str, work: Path) -> list[dict]:
    data = load(dataset)
    split = run_split(dataset, work)
    train = [to_page(data[i]) for i in split["train"]]
    test = [to_page(data[i]) for i in split["test"]]
    t0 = time.perf_counter()
    patterns = analyze(train)
    analyze_s = time.perf_counter() - t0
    learned = [p for p in test if (sp := patterns.get(p.site)) is not None and sp.layouts]
    with_model = sum(1 for sp in patterns.sites.values() if sp.model is not None)
    sub_split = work / f"{dataset}.learned.split.json"
    sub_split.write_text(json.dumps({"dataset": dataset, "train": [], "test": [p.id for p in learned]}))
    rows = []
    roots = {p.id: parse_html(p.html) for p in learned}
    for name, (site_models, noise) in CONFIGS.items():
        fb = Fallback(site_models=site_models, noise=noise)
        t0 = time.perf_counter()
        results = []
        for p in learned:
            sp = patterns.get(p.site)
            results.append(fb.extract(p.id, p.url, p.site, roots[p.id], noise=sp.noise, model=sp.model))
        seconds = time.perf_counter() - t0
        pred = work / f"{dataset}.forced.{name}.jsonl"
        write_pred(pred, results)
        s = score(dataset, pred, sub_split)
        rows.append({"dataset": dataset, "pages": "forced fallback", "config": name, "n": len(learned),
                     "sh_f1": s["sh_f1"], "pps": len(learned) / seconds})
    for name, (site_models, noise) in CONFIGS.items():
        fb = Fallback(site_models=site_models, noise=noise)
        pred = work / f"{dataset}.all.{name}.jsonl"
        write_pred(pred, extract(test, patterns, fallback=fb))
        s = score(dataset, pred, work / f"{dataset}.split.json")
        rows.append({"dataset": dataset, "pages": "all, patterns + fallback", "config": name, "n": len(test),
                     "sh_f1": s["sh_f1"], "pps": float("nan")})
    print(f"{dataset}: analyze {analyze_s:.1f} s, {with_model}/{len(patterns)} sites with a site model, "
          f"{sum(len(sp.noise or ()) for sp in patterns.sites.values())} noise entries", file=sys.stderr)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", nargs="*", default=DATASETS)
    ap.add_argument("--work", default="/tmp/stemmer-bench-site")
    ap.add_argument("--json", help="also write the rows as JSON here")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows = [r for d in args.datasets for r in run_dataset(d, work)]
    print("| dataset | pages | config | n | sh_f1 | pages/s |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dataset']} | {r['pages']} | {r['config']} | {r['n']} | {r['sh_f1']:.3f} | {r['pps']:.0f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
