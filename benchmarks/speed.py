"""Speed of extract with patterns beside lxml's bare parse and trafilatura, on the same pages, in one process.

Analyze the train pages of each set (../shared/tools/split.py), then time,
over the test pages of all sets together, net of start-up (pages in memory,
patterns learned, every model loaded by a warm-up page):

- lxml's bare parse (`parse_html`), the floor of any extractor built on lxml;
- extract with patterns only (`fallback=None`), with each block walker;
- extract as shipped (unmatched pages go to the block classifier);
- trafilatura's text extraction (as ../shared/tools/baseline.py calls it).

Times are CPU seconds of this process (`time.process_time`): on a shared
machine the wall clock counts the other processes' turns too.  The runs are
interleaved, `--repeat` rounds, and each one's best round kept.  Both
walkers must give the same extractions.

    python benchmarks/speed.py                       # jekyll_sites + web_sites
    python benchmarks/speed.py --sets jekyll_sites   # any sets of ../shared/data
"""
from __future__ import annotations

import argparse
import gzip
import importlib
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stemmer import Page, analyze, extract  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402
from stemmer.blocks.segment import WALKERS  # noqa: E402
from stemmer.layout.model import PatternSet  # noqa: E402

SHARED = ROOT.parent / "shared"
SEGMENT = importlib.import_module("stemmer.blocks.segment")  # the module: stemmer.blocks.segment is its function


def split_set(name: str, work: Path) -> tuple[list[Page], list[Page]]:
    out = work / f"{name}.split.json"
    subprocess.run([sys.executable, str(SHARED / "tools" / "split.py"), str(SHARED / "data" / name), "-o", str(out)],
                   check=True, capture_output=True)
    split = json.loads(out.read_text())
    with gzip.open(SHARED / "data" / name / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        pages = {d["id"]: Page(d["id"], d.get("url"), d["site"], d["html"]) for d in map(json.loads, f)}
    return [pages[i] for i in split["train"]], [pages[i] for i in split["test"]]


def timed(run) -> float:
    t0 = time.process_time()
    run()
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sets", nargs="+", default=["jekyll_sites", "web_sites"])
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each (best kept)")
    args = ap.parse_args()

    import trafilatura
    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    logging.getLogger("htmldate").setLevel(logging.CRITICAL)

    patterns, test = PatternSet({}), []
    analyze_s = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            train, test_pages = split_set(name, Path(tmp))
            t0 = time.perf_counter()
            learned = analyze(train)
            analyze_s += time.perf_counter() - t0
            patterns = PatternSet({**patterns.sites, **learned.sites})
            test += test_pages
    print(f"sets: {' + '.join(args.sets)}; {len(test)} test pages; analyze of the train pages {analyze_s:.1f} s")

    def with_walker(walker: str, fallback):
        def run():
            SEGMENT.WALKER = walker
            out.setdefault((walker, fallback), list(extract(test, patterns, fallback=fallback)))
        return run

    out: dict = {}
    runs = {"lxml parse (bare)": lambda: [parse_html(p.html) for p in test]}
    for walker in sorted(WALKERS):
        runs[f"extract, patterns only ({walker} walker)"] = with_walker(walker, None)
    best = "compiled" if "compiled" in WALKERS else "python"
    runs[f"extract as shipped ({best} walker)"] = with_walker(best, "generic")
    runs["trafilatura extract (text)"] = lambda: [
        trafilatura.extract(p.html, url=p.url, output_format="txt", with_metadata=False, include_comments=False)
        for p in test]

    list(extract(test[:1], patterns))  # warm-up: the generic classifier loads here, not in a timed run
    trafilatura.extract(test[0].html)
    times = {name: float("inf") for name in runs}
    for _ in range(args.repeat):
        for name, run in runs.items():
            times[name] = min(times[name], timed(run))
    SEGMENT.WALKER = best
    if len(WALKERS) > 1:
        same = out[("python", None)] == out[("compiled", None)]
        print(f"both walkers give the same extractions: {'yes' if same else 'NO'}")

    parse_pps = len(test) / times["lxml parse (bare)"]
    traf_pps = len(test) / times["trafilatura extract (text)"]
    print(f"\n{'':44} {'pages/CPU-s':>11} {'x parse':>8} {'x trafilatura':>14}")
    for name, s in times.items():
        pps = len(test) / s
        print(f"{name:44} {pps:11.0f} {pps / parse_pps:8.2f} {pps / traf_pps:14.1f}")


if __name__ == "__main__":
    main()
