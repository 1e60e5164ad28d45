"""Hostile input at volume: the fuzz suite's generators (tests/fuzz/hostile.py), seeded.

`--n` pages (default 10,000) of small sites, several sites to an input, each input a wget
mirror, WARC, WARC.gz, zip or JSON Lines file (a fifth of the files then damaged), go
through the verbs in-process via `stemmer.cli.main`: analyze, and for every fourth input
also extract with the learned patterns and without any (the generic classifier),
html2txt, update and report. Then every input's pages go through html2txt and extract
(with the patterns) by the API, each page timed.

Prints the tracebacks (any exception out of `main`, or a traceback in its output), then one
table: pages lost without a warning (neither in the timed extract's output nor named in a
warning while reading and extracting; a damaged file is not checked page by page), sites lost (a site with readable pages
but no pattern file, or an "analyze failed"), the slowest page's CPU seconds, the slowest
input's (wall) seconds per page over all its verbs, and peak memory.

    python benchmarks/fuzz.py                 # 10,000 pages, seed 0
    python benchmarks/fuzz.py --n 500 --seed 3 --jobs 2 --json out.json

A benchmark measures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import logging
import multiprocessing
import random
import resource
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stemmer import Page, extract, html2txt, load_patterns, read_pages  # noqa: E402
from stemmer.cli import main  # noqa: E402
from tests.fuzz.hostile import CONTAINERS, damage, hostile_page, unaccounted, write_container  # noqa: E402

log = logging.getLogger("stemmer")

# Every input goes through analyze, then extract with its patterns by the API (each page
# timed); every EVERY_VERB-th also through the command's extract with and without patterns,
# html2txt, update and report (the suite runs them all on every example): 10,000 pages
# within an hour on two busy cores.
EVERY_VERB = 4
PAGES_PER_SITE = 50


class _Said(logging.Handler):
    """Every stemmer log record of a run, as text."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def run_verb(argv: list, said: _Said, tracebacks: list[str]) -> tuple[int | None, str]:
    """`main(argv)` with stdout and stderr captured: its status (None if it raised) and what it said."""
    err, out = io.StringIO(), io.StringIO()
    said.lines.clear()
    code = None
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main([str(a) for a in argv])
        except BaseException:  # noqa: BLE001  (counted and printed: what this benchmark looks for)
            tracebacks.append(f"{' '.join(map(str, argv))}\n{traceback.format_exc()}")
    text = err.getvalue() + "\n" + "\n".join(said.lines)
    if "Traceback" in text:
        tracebacks.append(f"{' '.join(map(str, argv))}\n{text}")
    return code, text


def one_input(seed: int, number: int, n_pages: int, tmp: str) -> dict:
    """Make input `number` of `n_pages` pages, run the verbs on it, time its pages: its figures."""
    rng = random.Random(f"{seed}-{number}")
    said = _Said()
    log.addHandler(said)
    log.setLevel(logging.DEBUG)
    stats = {"tracebacks": [], "lost": 0, "lost_kinds": Counter(), "sites_lost": [], "slowest_pages": [],
             "warnings": Counter()}
    sites = [f"s{number}-{k}.example" for k in range(max(1, n_pages // PAGES_PER_SITE))]
    pages = [hostile_page(rng, rng.choice(sites), i) for i in range(n_pages)]
    kind = rng.choice(CONTAINERS)
    work = Path(tmp) / f"in{number}"
    path = write_container(rng, kind, pages, work)
    how = damage(rng, path) if rng.random() < 0.2 else "none"
    patterns, out = work / "patterns", work / "out"
    out.mkdir()
    tb = stats["tracebacks"]

    start = time.perf_counter()
    _, analyze_said = run_verb(["analyze", path, "-o", patterns], said, tb)
    if number % EVERY_VERB == 0:
        run_verb(["extract", path, "-p", patterns, "-o", out / "x.jsonl"], said, tb)
        with contextlib.chdir(work):  # no ./patterns: every page to the generic classifier
            run_verb(["extract", path, "-o", out / "y.jsonl"], said, tb)
        run_verb(["html2txt", path], said, tb)
        if patterns.exists():
            run_verb(["update", patterns, path], said, tb)
            run_verb(["report", patterns, path, "-o", out / "r.html"], said, tb)
    seconds = time.perf_counter() - start
    stats["slowest_input"] = (seconds / len(pages), f"{path.name} #{number}", len(pages))
    stats["warnings"].update(w for line in analyze_said.splitlines()
                             for w in ("nested deeper", "skipped", "damaged", "truncated") if w in line)

    # extract with the patterns again, by the API: each page timed, and what it said kept
    read: dict[str, list] = {}
    said.lines.clear()
    ids = set()
    try:
        for page in read_pages(path, on_error=lambda source, exc: said.lines.append(f"error: {exc}")):
            read.setdefault(page.site, []).append(page)
        learned = load_patterns(patterns) if patterns.exists() and any(patterns.glob("*.json")) else None
        stats["sites_lost"] = [site for site in read if learned is None or learned.get(site) is None
                               or f"{site}: analyze failed" in analyze_said]
        # One page a step, each step timed; the first (a page of no site) loads the classifier.
        warm = Page("warm-up", None, "warm-up.invalid", "<html><body><p>warm up</p></body></html>")
        results = extract(itertools.chain([warm], *read.values()), learned)
        next(results)
        for page in itertools.chain(*read.values()):
            t = time.process_time()  # CPU seconds: the machine may be shared
            html2txt(page.html)
            ids.add(next(results).id)
            stats["slowest_pages"].append((time.process_time() - t, page.id, len(page.html)))
        stats["slowest_pages"] = sorted(stats["slowest_pages"], reverse=True)[:5]
    except Exception:  # noqa: BLE001
        tb.append(f"timed extract over {path}\n{traceback.format_exc()}")
    finally:
        log.removeHandler(said)
    lost = unaccounted(pages, path, how, "\n".join(said.lines), ids)
    stats["lost"] = len(lost)
    stats["lost_kinds"].update(k for p in lost for k in p.kinds)
    shutil.rmtree(work, ignore_errors=True)
    stats.update(pages=len(pages), sites=len(read), kind=kind,
                 peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return stats


def _task(args: tuple) -> dict:
    return one_input(*args)


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="pages in all (default 10000)")
    parser.add_argument("--per-input", type=int, default=100, help="pages per input file (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    inputs = [(args.seed, k, min(args.per_input, args.n - k * args.per_input), "")
              for k in range((args.n + args.per_input - 1) // args.per_input)]
    stats = {"pages": 0, "sites": 0, "inputs": Counter(), "tracebacks": [], "lost": 0, "lost_kinds": Counter(),
             "sites_lost": [], "slowest_input": (0.0, "", 0), "slowest_pages": [], "warnings": Counter(),
             "peak_mb": 0.0}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="stemmer-fuzz-") as tmp, \
            multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for done, got in enumerate(pool.imap_unordered(_task, [(*i[:3], tmp) for i in inputs]), 1):
            for key in ("pages", "sites", "lost"):
                stats[key] += got[key]
            for tb in got["tracebacks"]:
                print(tb, file=sys.stderr, flush=True)
            for key in ("tracebacks", "sites_lost", "slowest_pages"):
                stats[key] += got[key]
            for key in ("lost_kinds", "warnings"):
                stats[key].update(got[key])
            stats["inputs"][got["kind"]] += 1
            stats["slowest_input"] = max(stats["slowest_input"], got["slowest_input"])
            stats["slowest_pages"] = sorted(stats["slowest_pages"], reverse=True)[:5]
            stats["peak_mb"] = max(stats["peak_mb"], got["peak_mb"])
            print(f"fuzz: {done}/{len(inputs)} inputs, {stats['pages']} pages, {len(stats['tracebacks'])} "
                  f"tracebacks, {stats['lost']} lost, {len(stats['sites_lost'])} sites lost, slowest page "
                  f"{stats['slowest_pages'][0][0] if stats['slowest_pages'] else 0:.2f} s, peak "
                  f"{stats['peak_mb']:.0f} MB, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    wall = time.perf_counter() - start
    peak_mb = stats["peak_mb"]

    slowest = stats["slowest_pages"][0] if stats["slowest_pages"] else (0.0, "", 0)
    rows = [("pages", stats["pages"]), ("sites", stats["sites"]),
            ("inputs", ", ".join(f"{k} {v}" for k, v in sorted(stats["inputs"].items()))),
            ("tracebacks", len(stats["tracebacks"])), ("pages lost without a warning", stats["lost"]),
            ("sites lost", len(stats["sites_lost"])),
            ("slowest page, html2txt + extract (CPU s)", f"{slowest[0]:.2f} ({slowest[1]}, {slowest[2]:,} chars)"),
            ("slowest input, all verbs (s per page)",
             f"{stats['slowest_input'][0]:.2f} ({stats['slowest_input'][1]}, {stats['slowest_input'][2]} pages)"),
            ("peak memory (MB)", f"{peak_mb:.0f}"),
            ("bounded or skipped (warnings in analyze)", ", ".join(f"{k} {v}" for k, v in stats["warnings"].items())),
            ("wall (s)", f"{wall:.0f}")]
    width = max(len(k) for k, _ in rows)
    print(f"benchmarks/fuzz.py --n {args.n} --seed {args.seed} --per-input {args.per_input} --jobs {args.jobs}")
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    if stats["lost_kinds"]:
        print("lost pages by mutation:", dict(stats["lost_kinds"]))
    if stats["sites_lost"]:
        print("sites lost:", ", ".join(stats["sites_lost"][:20]))
    print("slowest pages:", "; ".join(f"{s:.2f} s {pid}" for s, pid, _ in stats["slowest_pages"]))
    if args.json:
        Path(args.json).write_text(json.dumps({k: v for k, v in rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
