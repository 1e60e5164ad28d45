"""Speed of extract with patterns beside lxml's bare parse and trafilatura, on the same pages, in one process.

Analyze the train pages of each set (../shared/tools/split.py), then time,
over the test pages of all sets together, net of start-up (pages in memory,
patterns learned, every model loaded by a warm-up page):

- lxml's bare parse (`parse_html`), the floor of any extractor built on lxml;
- extract with patterns only (`fallback=None`), with each block walker;
- extract as shipped (unmatched pages go to the block classifier);
- trafilatura's extraction of the same fields (text, title, date, author: ``with_metadata=True``).

Times are CPU seconds of this process (`time.process_time`): on a shared
machine the wall clock counts the other processes' turns too.  The runs are
interleaved, `--repeat` rounds, and each one's best round kept.  Both
walkers must give the same extractions.

    python benchmarks/speed.py                       # jekyll_sites + web_sites
    python benchmarks/speed.py --sets jekyll_sites   # any sets of ../shared/data

End to end (``--end-to-end``): the command line as a user runs it,
``python -m stemmer extract INPUT -o OUT`` in a process of its own, on JSON
Lines (.jsonl.gz), a WARC (.warc.gz) and a wget mirror tree of the same pages:
patterns only (``--no-fallback``) and as shipped on the test pages of the
pattern sets (patterns from ``stemmer analyze`` of their train pages), and
no patterns (the fallback alone) on the fallback sets' pages.  Net of
start-up: the CPU seconds of a run on all pages less those of a run on the
first page, per page written.  Beside it, in this process and the same run,
trafilatura's extraction of the same pages and fields (``with_metadata=True``:
title, date and author beside the text), lxml's bare parse of them (libxml2
alone, with the command line's parser options, in a process of its own), and what
bounds the command line from below: its reader and the parse (``read + parse``,
the input file read as the command reads it), and those and the block walk
(``+ segment``), with no layout matched, no output written.

    python benchmarks/speed.py --end-to-end          # jekyll_sites + web_sites; mceb, dragnet
    python benchmarks/speed.py --end-to-end --fallback-sets mceb --inputs jsonl
    python benchmarks/speed.py --end-to-end --also ../main   # and another checkout's CLI, same run
"""
from __future__ import annotations

import argparse
import gc
import gzip
import importlib
import io
import json
import logging
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stemmer import Page, analyze, extract  # noqa: E402
from stemmer.blocks import parse_html, segment  # noqa: E402
from stemmer.blocks.segment import WALKERS  # noqa: E402
from stemmer.cli import GC_YOUNG_OBJECTS  # noqa: E402
from stemmer.layout.model import PatternSet  # noqa: E402
from stemmer.pages import read_pages  # noqa: E402

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
    ap.add_argument("--sets", nargs="*", default=["jekyll_sites", "web_sites"])
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each (best kept)")
    ap.add_argument("--end-to-end", action="store_true", help="time the command line on files (see above)")
    ap.add_argument("--fallback-sets", nargs="*", default=["mceb", "dragnet"],
                    help="with --end-to-end: sets extracted without patterns")
    ap.add_argument("--inputs", nargs="+", default=list(INPUTS), choices=list(INPUTS),
                    help="with --end-to-end: input formats")
    ap.add_argument("--also", nargs="*", default=[], metavar="CHECKOUT",
                    help="with --end-to-end: also time the command line of these checkouts (before/after)")
    args = ap.parse_args()
    if args.end_to_end:
        end_to_end(args)
        return

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
    runs = {"lxml parse (bare)": lambda: [parse_html(p.utf8) for p in test]}
    for walker in sorted(WALKERS):
        runs[f"extract, patterns only ({walker} walker)"] = with_walker(walker, None)
    best = "compiled" if "compiled" in WALKERS else "python"
    runs[f"extract as shipped ({best} walker)"] = with_walker(best, "generic")
    runs["trafilatura extract (with metadata)"] = lambda: [
        trafilatura.extract(p.html, url=p.url, output_format="txt", with_metadata=True, include_comments=False)
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
    traf_pps = len(test) / times["trafilatura extract (with metadata)"]
    print(f"\n{'':44} {'pages/CPU-s':>11} {'x parse':>8} {'x trafilatura':>14}")
    for name, s in times.items():
        pps = len(test) / s
        print(f"{name:44} {pps:11.0f} {pps / parse_pps:8.2f} {pps / traf_pps:14.1f}")


# End to end: the command line on files ------------------------------------------------------------

INPUTS = {"jsonl": "pages.jsonl.gz", "warc": "pages.warc.gz", "wget": "mirror"}


def page_url(d: dict) -> str:
    return d.get("url") or f"http://{d['site']}/page/{d['id']}"


def write_jsonl(path: Path, pages: list[dict]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for d in pages:
            f.write(json.dumps({k: d.get(k) for k in ("id", "url", "site", "html")}, ensure_ascii=False) + "\n")


def write_warc(path: Path, pages: list[dict]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for d in pages:
            body = d["html"].encode("utf-8")
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                                  ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(page_url(d), "response", payload=io.BytesIO(body),
                                                          http_headers=headers))


def write_mirror(root: Path, pages: list[dict]) -> None:
    """A wget-like tree: host/path, ``index.html`` for a folder, ``.html`` added where the name has none."""
    taken: set[Path] = set()
    for d in pages:
        url = page_url(d)
        host, _, path = url.split("://", 1)[-1].partition("/")
        path = re.sub(r"[^\w./-]", "_", path.split("#", 1)[0])
        parts = [p[:100] for p in path.split("/") if p not in ("", ".", "..")]
        if not parts or path.endswith("/"):
            parts.append("index.html")
        if not parts[-1].endswith((".html", ".htm")):
            parts[-1] += ".html"
        rel = Path(re.sub(r"[^\w.-]", "_", host) or "host", *parts)
        n = 1
        while rel in taken or any(p in taken for p in rel.parents):
            rel, n = rel.with_name(f"{n}-{rel.name}"), n + 1
        taken.add(rel)
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(d["html"], encoding="utf-8")


def write_inputs(folder: Path, pages: list[dict], formats: list[str]) -> None:
    """The pages in each input format, and the first page alone (the start-up run) beside them."""
    for sub, chosen in (("all", pages), ("one", pages[:1])):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        if "jsonl" in formats:
            write_jsonl(folder / sub / INPUTS["jsonl"], chosen)
        if "warc" in formats:
            write_warc(folder / sub / INPUTS["warc"], chosen)
        if "wget" in formats:
            write_mirror(folder / sub / INPUTS["wget"], chosen)


def read_set(name: str) -> list[dict]:
    with gzip.open(SHARED / "data" / name / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def cli_cpu(args: list[str], cwd: Path, out: Path, tree: Path = ROOT) -> tuple[float, int]:
    """CPU seconds of ``python -m stemmer extract ARGS -o OUT`` (the checkout `tree`) and the records it wrote."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "stemmer", "extract", *args, "-q", "-o", str(out)], cwd=cwd, check=True,
                   env={**os.environ, "PYTHONPATH": str(tree)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out, "rb") as f:
        records = sum(1 for _ in f)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, records


BARE_PARSE = """
import sys, time
from lxml import etree
from stemmer.blocks.parse import _PARSER
from stemmer.pages import read_pages
data = [p.utf8 for p in read_pages(sys.argv[1])]
t0 = time.process_time()
for d in data:
    etree.fromstring(d, _PARSER)
print(time.process_time() - t0)
"""


def bare_parse_cpu(source: Path) -> float:
    """CPU seconds of libxml2's parse alone (the command line's parser options) of the file's
    pages, read beforehand, in a process of its own: the floor of any extractor built on lxml."""
    run = subprocess.run([sys.executable, "-c", BARE_PARSE, str(source)], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return float(run.stdout)


def end_to_end(args) -> None:
    import trafilatura
    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    logging.getLogger("htmldate").setLevel(logging.CRITICAL)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        groups = []  # (label, pages, [(mode, extra CLI args)])
        if args.sets:
            train, test = [], []
            for name in args.sets:
                split = work / f"{name}.split.json"
                subprocess.run([sys.executable, str(SHARED / "tools" / "split.py"), str(SHARED / "data" / name),
                                "-o", str(split)], check=True, capture_output=True)
                sides = json.loads(split.read_text())
                pages = {d["id"]: d for d in read_set(name)}
                train += [pages[i] for i in sides["train"]]
                test += [pages[i] for i in sides["test"]]
            write_jsonl(work / "train.jsonl.gz", train)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "stemmer", "analyze", str(work / "train.jsonl.gz"), "-q",
                            "-o", str(work / "patterns")], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            print(f"patterns: analyze of {len(train)} train pages of {' + '.join(args.sets)}: "
                  f"{time.perf_counter() - t0:.0f} s")
            patterns = str(work / "patterns")
            groups.append((" + ".join(args.sets) + " test", test,
                           [("patterns only", ["-p", patterns, "--no-fallback"]), ("as shipped", ["-p", patterns])]))
        for name in args.fallback_sets:
            groups.append((name, read_set(name), [("no patterns", [])]))

        trees = [ROOT, *(Path(t).resolve() for t in args.also)]
        runs = []  # (group, fmt, mode, args for all pages, args for one page, checkout)
        for g, (label, pages, modes) in enumerate(groups):
            folder = work / f"input{g}"
            write_inputs(folder, pages, args.inputs)
            write_jsonl(folder / "bare.jsonl.gz", pages)
            for fmt in args.inputs:
                for mode, extra in modes:
                    for tree in trees:
                        runs.append((g, fmt, mode, extra + [str(folder / "all" / INPUTS[fmt])],
                                     extra + [str(folder / "one" / INPUTS[fmt])], tree))
        cwd = work / "cwd"  # no ./patterns here: no patterns means none
        cwd.mkdir()

        def trafilatura_cpu(pages: list[dict]) -> float:
            t0 = time.process_time()
            for d in pages:
                trafilatura.extract(d["html"], url=d.get("url"), output_format="txt", with_metadata=True,
                                    include_comments=False)
            return time.process_time() - t0

        def floors(source: Path) -> tuple[float, float]:
            """CPU seconds to read the file's pages and parse each, and to do that and walk each
            (with the command line's garbage collection: this process holds every page besides)."""
            collected = gc.get_threshold()
            gc.set_threshold(GC_YOUNG_OBJECTS, *collected[1:])
            t0 = time.process_time()
            for page in read_pages(source):
                parse_html(page.utf8)
            parsed = time.process_time() - t0
            t0 = time.process_time()
            for page in read_pages(source):
                segment(parse_html(page.utf8))
            walked = time.process_time() - t0
            gc.set_threshold(*collected)
            return parsed, walked

        def keep_least(key, seconds: float) -> None:
            best[key] = min(best.get(key, float("inf")), seconds)

        trafilatura.extract(groups[0][1][0]["html"])  # warm-up
        best: dict = {}
        for _ in range(args.repeat):
            # A set's command lines run right after trafilatura's time on it: the machine's speed
            # drifts by a quarter over the minutes a run takes.
            for g, (label, pages, _) in enumerate(groups):
                keep_least(("parse", g), bare_parse_cpu(work / f"input{g}" / "bare.jsonl.gz"))
                keep_least(("trafilatura", g), trafilatura_cpu(pages))
                for fmt in args.inputs:
                    read_s, walk_s = floors(work / f"input{g}" / "all" / INPUTS[fmt])
                    keep_least(("read + parse", g, fmt), read_s)
                    keep_least(("+ segment", g, fmt), walk_s)
                for i, (rg, fmt, mode, all_args, one_args, tree) in enumerate(runs):
                    if rg != g:
                        continue
                    cpu_all, n_all = cli_cpu(all_args, cwd, work / "out.jsonl", tree)
                    cpu_one, n_one = cli_cpu(one_args, cwd, work / "out.jsonl", tree)
                    net = max(cpu_all - cpu_one, 1e-9)
                    if ("run", i) not in best or net < best[("run", i)][0]:
                        best[("run", i)] = (net, n_all - n_one, cpu_one)

    print(f"\nCPU seconds, best of {args.repeat}; stemmer net of start-up (a run on all pages less a run on the "
          f"first), trafilatura in this process, lxml's bare parse in one of its own, on the same pages")
    head = f"{'set':26} {'input':6} {'mode':14} {'pages':>6} {'start s':>7} {'pages/s':>8} {'x parse':>8} " \
           f"{'x trafilatura':>13}"
    print(head)
    for g, (label, pages, _) in enumerate(groups):
        parse_pps = len(pages) / best[("parse", g)]
        traf_pps = len(pages) / best[("trafilatura", g)]
        print(f"{label:26} {'':6} {'lxml parse (bare)':14} {len(pages):6} {'':>7} {parse_pps:8.0f} {1:8.2f} "
              f"{parse_pps / traf_pps:13.1f}")
        print(f"{label:26} {'':6} {'trafilatura':14} {len(pages):6} {'':>7} {traf_pps:8.0f} "
              f"{traf_pps / parse_pps:8.2f} {1:13.1f}")
        for fmt in args.inputs:
            for floor in ("read + parse", "+ segment"):
                pps = len(pages) / best[(floor, g, fmt)]
                print(f"{label:26} {fmt:6} {floor:14} {len(pages):6} {'':>7} {pps:8.0f} {pps / parse_pps:8.2f} "
                      f"{pps / traf_pps:13.1f}")
        for i, (rg, fmt, mode, _, _, tree) in enumerate(runs):
            if rg == g:
                net, n, start = best[("run", i)]
                pps = n / net
                print(f"{label:26} {fmt:6} {mode:14} {n:6} {start:7.2f} {pps:8.0f} {pps / parse_pps:8.2f} "
                      f"{pps / traf_pps:13.1f}" + (f"  {tree}" if args.also else ""))


if __name__ == "__main__":
    main()
