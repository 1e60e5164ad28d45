"""What if no pattern matched: the fallback on the test pages of learned sites, generic vs site model.

For each multi-page dev set: split each site (../shared/tools/split.py),
analyze the train pages (patterns, noise library, site model), then send
every test page of a site with layouts through the fallback, as if no layout
had matched, with the generic or the site model, with or without the noise
library, and score each with ../shared/tools/score.py.  The last rows are the
whole pipeline (patterns + fallback) over all test pages, per configuration.
A second table weighs when a site model should give way to the generic model
on a page: where it keeps no body beyond the page's title (shipped), nothing at
all (before), or less than a share of the letters the generic model keeps
(every site-model page read twice).  With --train-pages K, each site's
patterns and site model are learned from K of its train pages (as
benchmarks/layouts.py --train-pages picks them), as from a new crawl of a few pages.

    python benchmarks/site_fallback.py
    python benchmarks/site_fallback.py --datasets jekyll_sites --work /tmp/sf
    python benchmarks/site_fallback.py --train-pages 3
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from layouts import DATASETS, SHARED, TOOLS, few_pages, load, run_split, score, to_page  # noqa: E402

from stemmer import analyze, extract  # noqa: E402
from stemmer.blocks import letters, parse_html  # noqa: E402
from stemmer.classify.features import page_table  # noqa: E402
from stemmer.extract import Extraction  # noqa: E402
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


# When a site model gives way to the generic model on a page: it keeps no body beyond the title
# (shipped: None), nothing (0), or under this share of the letters the generic model keeps.
GIVE_WAY = {"keeps no body beyond the title (shipped)": None, "keeps nothing (before)": 0.0,
            "< 10% of generic": 0.1, "< 25% of generic": 0.25, "< 50% of generic": 0.5, "< 100% of generic": 1.0}


def give_way(dataset: str, pages, patterns, roots, work: Path) -> list[dict]:
    """SH F1 of the forced fallback on the pages of sites with a site model, per `GIVE_WAY` rule."""
    fb = Fallback()  # as shipped: the generic model reads with the noise library
    pages = [p for p in pages if patterns.get(p.site).model is not None]
    kept, preds = {}, {}
    for name in ("site", "generic"):
        pred = work / f"{dataset}.give-way.{name}.jsonl"
        with pred.open("w", encoding="utf-8") as f:
            for p in pages:
                sp = patterns.get(p.site)
                clf = fb.classifier_for(sp.model) if name == "site" else fb.classifier
                title, blocks = fb._read(clf, page_table(roots[p.id]), roots[p.id], sp.noise)  # the model alone
                read = Extraction(p.id, None, p.site, False, None, 0.0, title, blocks, "classifier")
                text = read.text
                kept[name, p.id] = letters(text)
                kept[name, "body", p.id] = letters(read.body)
                f.write(json.dumps({"id": p.id, "text": text, "title": title}, ensure_ascii=False) + "\n")
        preds[name] = pred
    sub_split = work / f"{dataset}.give-way.split.json"
    sub_split.write_text(json.dumps({"dataset": dataset, "train": [], "test": [p.id for p in pages]}))
    f1 = {}
    for name, pred in preds.items():
        out = work / f"{dataset}.give-way.{name}.pages.jsonl"
        subprocess.run([sys.executable, str(TOOLS / "score.py"), "--gold", str(SHARED / "data" / dataset),
                        "--pred", str(pred), "--split", str(sub_split), "--side", "test", "--pages-out", str(out)],
                       check=True, capture_output=True)
        f1[name] = {d["id"]: d["sh_f1"] for d in map(json.loads, out.read_text().splitlines()) if d["text_scored"]}
    rows = []
    for rule, share in GIVE_WAY.items():
        switched = {p.id for p in pages if (kept["site", "body", p.id] <= 0 if share is None else
                                            kept["site", p.id] <= 0 if share == 0 else
                                            kept["site", p.id] < share * kept["generic", p.id])}
        scored = f1["site"].keys()
        mean = sum(f1["generic" if i in switched else "site"][i] for i in scored) / max(len(scored), 1)
        rows.append({"dataset": dataset, "rule": rule, "pages": len(pages), "scored": len(scored),
                     "switched": len(switched), "switched scored": len(switched & scored), "sh_f1": mean})
    return rows


def run_dataset(dataset: str, work: Path, train_pages: int | None = None) -> tuple[list[dict], list[dict]]:
    data = load(dataset)
    split = run_split(dataset, work)
    train = [to_page(data[i]) for i in (split["train"] if train_pages is None
                                        else few_pages(split["train"], data, train_pages))]
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
    return rows, give_way(dataset, learned, patterns, roots, work)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", nargs="*", default=DATASETS)
    ap.add_argument("--work", default="/tmp/stemmer-bench-site")
    ap.add_argument("--json", help="also write the rows as JSON here")
    ap.add_argument("--train-pages", type=int, metavar="K", help="learn each site from K of its train pages")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows, rules = [], []
    for d in args.datasets:
        got, ways = run_dataset(d, work, args.train_pages)
        rows += got
        rules += ways
    print("| dataset | pages | config | n | sh_f1 | pages/s |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dataset']} | {r['pages']} | {r['config']} | {r['n']} | {r['sh_f1']:.3f} | {r['pps']:.0f} |")
    print("\nThe site model gives way to the generic model where it ... (forced fallback, pages of sites with a "
          "site model; switched: pages the generic model reads, of them scored: gold text not null)\n")
    print("| dataset | rule | pages | scored | switched | switched scored | sh_f1 |")
    print("|---|---|---|---|---|---|---|")
    for r in rules:
        print(f"| {r['dataset']} | {r['rule']} | {r['pages']} | {r['scored']} | {r['switched']} | "
              f"{r['switched scored']} | {r['sh_f1']:.4f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows + rules, indent=1))


if __name__ == "__main__":
    main()
