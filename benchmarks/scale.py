"""Benchmark of analyze and extract at crawl scale: one big site, and many small sites.

Pages are built from real dev pages (../shared/data): copies with the words of
every text shuffled and, so that copies do not simply repeat their original's
layout, each block element of the body dropped (with its content) with a small
probability (`--drop`, default 0.02: most copies get a layout sequence of their own).

1. Big site: analyze 1,000 -> 10,000 pages of one site (blog.4dcu.be, 252 real
   pages and their copies) through the CLI, `-j 1` and `-j 2`: wall time, peak
   memory (largest process, and the sum over the process tree sampled every
   0.1 s), the growth exponent from 1,000 pages, and the agreement (adjusted Rand
   index) of the big-site clustering with exact clustering where exact is
   feasible (<= 1,600 pages), on these pages and, forcing the leader path,
   on every real dev site of >= 10 pages.
2. Many sites: 1,000 sites x 20 pages (copies of the pages of the dev sites
   with >= 10 pages, each copy site on a host of its own), analyze and then
   extract through the CLI with 1 and 2 worker processes: time, speed-up,
   peak memory.

    python benchmarks/scale.py                  # both tables (about 15 minutes)
    python benchmarks/scale.py --quick          # 1,000 -> 4,000 pages, 200 sites
    python benchmarks/scale.py --json out.json  # and the rows as JSON

The generated crawls are cached in --work.  A benchmark measures; it asserts
nothing.  The machine may be shared: timings are noisy.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import re
import resource
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stemmer.blocks import parse_html  # noqa: E402
from stemmer.blocks.block import BLOCK_TAGS  # noqa: E402
from stemmer.layout.store import is_pattern_file  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from layouts import shuffle_words  # noqa: E402

SHARED = ROOT.parent / "shared"
BIG_SITE = ("jekyll_sites", "blog.4dcu.be")
SOURCES = ["jekyll_sites", "cleanportaleval", "dragnet"]


def load(dataset: str) -> list[dict]:
    with gzip.open(SHARED / "data" / dataset / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def variant(d: dict, rng: random.Random, n: int, *, drop: float, host: str | None = None) -> dict:
    """A copy of a page: words of each text shuffled, block elements dropped with `drop` probability."""
    from lxml import etree

    root = parse_html(d["html"])
    if root is None:
        return dict(d, id=f"{d['id']}#copy{n}")
    body = root.find("body")
    if body is not None and drop:
        doomed = [el for el in body.iterdescendants() if isinstance(el.tag, str) and el.tag in BLOCK_TAGS
                  and rng.random() < drop]
        for el in doomed:
            if el.getparent() is not None:
                el.getparent().remove(el)
    shuffle_words(root, rng)
    url = d.get("url") or f"http://{d['site']}/{d['id']}"
    if host:
        url = re.sub(r"^(https?://)[^/]+", lambda m: m.group(1) + host, url)
    url += ("&" if "?" in url else "?") + f"copy={n}"
    site = host or d["site"]
    return {"id": f"{site}/{d['id']}#copy{n}", "url": url, "site": site,
            "html": etree.tostring(root, encoding="unicode", method="html")}


TRAFILATURA_SAMPLE = 1000  # pages of the big site timed with trafilatura (copies of 252 pages: a sample suffices)


def big_site(work: Path, n: int, drop: float) -> Path:
    """A JSON Lines crawl of `n` pages of one site: its real pages, then copies."""
    path = work / f"big-{BIG_SITE[1]}-{n}-drop{drop}.jsonl"
    if path.exists():
        return path
    dataset, site = BIG_SITE
    pages = [d for d in load(dataset) if d["site"] == site]
    rng = random.Random(0)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for i in range(n):
            d = pages[i] if i < len(pages) else variant(pages[i % len(pages)], rng, i, drop=drop)
            f.write(json.dumps({k: d[k] for k in ("id", "url", "site", "html")}, ensure_ascii=False) + "\n")
    tmp.rename(path)
    return path


def many_sites(work: Path, sites: int, per_site: int, drop: float) -> Path:
    """A JSON Lines crawl of `sites` sites of `per_site` pages, copies of the dev sites' pages."""
    path = work / f"many-{sites}x{per_site}-drop{drop}.jsonl"
    if path.exists():
        return path
    by_site: dict[str, list[dict]] = defaultdict(list)
    for dataset in SOURCES:
        for d in load(dataset):
            by_site[d["site"]].append(d)
    sources = sorted(s for s, ps in by_site.items() if len(ps) >= 10)
    rng = random.Random(0)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for k in range(sites):
            source = sources[k % len(sources)]
            host = f"s{k:04d}.{source}"
            pool = by_site[source]
            for i in range(per_site):
                d = variant(pool[i % len(pool)], rng, i, drop=drop, host=host)
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
    tmp.rename(path)
    return path


# --- measuring a command -------------------------------------------------------------------

def _tree_rss(root: int) -> tuple[int, int]:
    """RSS in bytes of `root` and its descendants: (sum, largest), from /proc."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parent[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        tree.add(pid)
        todo += [p for p, pp in parent.items() if pp == pid and p not in tree]
    sizes = [rss.get(p, 0) for p in tree]
    return sum(sizes), max(sizes, default=0)


def measure(cmd: list[str]) -> dict:
    """Run a command: wall and CPU seconds (it and its children), peak RSS of its process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            total, largest = _tree_rss(proc.pid)
            peak[0], peak[1] = max(peak[0], total), max(peak[1], largest)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - t0
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of the children is the largest of all children so far: it says something
    # about this command only when it grew
    largest = max(peak[1], after.ru_maxrss * 1024 if after.ru_maxrss > before.ru_maxrss else 0)
    return {"wall_s": wall, "cpu_s": cpu, "rss_tree_mb": peak[0] / 2**20, "rss_max_mb": largest / 2**20}


def stemmer_cmd(*args) -> list[str]:
    return [sys.executable, "-m", "stemmer", *map(str, args)]


def head(path: Path, n: int) -> Path:
    """The first `n` lines of a JSON Lines file, as a file of their own."""
    out = path.with_name(f"{path.stem}-first{n}.jsonl")
    if not out.exists():
        with path.open(encoding="utf-8") as f, out.open("w", encoding="utf-8") as o:
            for i, line in enumerate(f):
                if i == n:
                    break
                o.write(line)
    return out


# --- clustering agreement ------------------------------------------------------------------

def site_sequences(htmls: list[str]) -> list[list[int]]:
    """The expanded layout sequences of one site's pages, as learn_site builds them."""
    from stemmer.blocks import segment
    from stemmer.cluster import KeyMaker
    from stemmer.layout.learn import site_sequences as sequences

    pages = [p for p in (segment(parse_html(h)) for h in htmls) if p.blocks]
    return sequences(pages, KeyMaker.learn(pages))[1]


def labels(clusters: list[list[int]], n: int) -> list[int]:
    out = [0] * n
    for k, members in enumerate(clusters):
        for i in members:
            out[i] = k
    return out


def agreement(seqs: list[list[int]], threshold: float = 0.7) -> dict:
    """Exact clustering against the big-site path (as learn_site would take it, and through leaders)."""
    from sklearn.metrics import adjusted_rand_score

    from stemmer.cluster import cluster_pages, similarity_matrix
    from stemmer.cluster.large import cluster_large

    t0 = time.perf_counter()
    exact = labels(cluster_pages(similarity_matrix(seqs), threshold), len(seqs))
    t1 = time.perf_counter()
    auto = labels(cluster_large(seqs, threshold), len(seqs))
    t2 = time.perf_counter()
    lead = labels(cluster_large(seqs, threshold, leaders=True), len(seqs))
    t3 = time.perf_counter()
    return {"pages": len(seqs), "distinct": len({tuple(s) for s in seqs}), "clusters": len(set(exact)),
            "exact_s": t1 - t0, "auto_s": t2 - t1, "leaders_s": t3 - t2,
            "ari_auto": adjusted_rand_score(exact, auto), "ari_leaders": adjusted_rand_score(exact, lead)}


def dev_site_agreement() -> list[dict]:
    """Per dataset: forced-leader clustering against exact on every real site of >= 10 pages."""
    rows = []
    for dataset in SOURCES:
        by_site: dict[str, list[dict]] = defaultdict(list)
        for d in load(dataset):
            by_site[d["site"]].append(d)
        scores = []
        for site, pages in sorted(by_site.items()):
            if len(pages) < 10:
                continue
            seqs = site_sequences([d["html"] for d in sorted(pages, key=lambda d: d["id"])])
            scores.append((len(seqs), agreement(seqs)["ari_leaders"]))
        n = sum(p for p, _ in scores)
        rows.append({"dataset": dataset, "sites": len(scores), "pages": n,
                     "mean": sum(a for _, a in scores) / len(scores),
                     "weighted": sum(p * a for p, a in scores) / n, "min": min(a for _, a in scores),
                     "at_least_095": sum(a >= 0.95 for _, a in scores)})
    return rows


# --- the tables ----------------------------------------------------------------------------

def trafilatura_seconds_per_page(crawl: Path, sample: int) -> float | None:
    """trafilatura's CPU seconds per page to extract text from an evenly spread `sample` of a crawl's pages."""
    try:
        import trafilatura
    except ImportError:
        return None
    with crawl.open(encoding="utf-8") as f:
        pages = [json.loads(line) for line in f]
    chosen = pages[:: max(1, len(pages) // sample)][:sample]
    trafilatura.extract(chosen[0]["html"], url=chosen[0]["url"])  # warm-up, untimed
    start = time.process_time()
    for d in chosen:
        trafilatura.extract(d["html"], url=d["url"], output_format="txt", with_metadata=False,
                            include_comments=False)
    return (time.process_time() - start) / len(chosen)


def big_site_rows(work: Path, sizes: list[int], jobs: list[int], drop: float) -> list[dict]:
    full = big_site(work, max(sizes), drop)
    per_page = trafilatura_seconds_per_page(full, TRAFILATURA_SAMPLE)
    rows = []
    for n in sizes:
        crawl = full if n == max(sizes) else head(full, n)
        for j in jobs:
            out = work / f"big-out-{n}-j{j}"
            row = {"pages": n, "jobs": j, **measure(stemmer_cmd("analyze", "-q", crawl, "-o", out, "-j", j,
                                                                "--date", "2024-01-01"))}
            doc = json.loads(next(f for f in out.glob("*.json") if is_pattern_file(f)).read_text())
            row["layouts"] = len(doc["layouts"])
            row["covered"] = sum(lay["pages"] for lay in doc["layouts"])
            if per_page:
                row["x_trafilatura"] = row["cpu_s"] / (n * per_page)
            rows.append(row)
            print(f"  big site: {n} pages, -j {j}: {row['wall_s']:.1f} s", file=sys.stderr)
    for r in rows:
        prev = [p for p in rows if p["jobs"] == r["jobs"] and p["pages"] < r["pages"]]
        if prev:
            p = min(prev, key=lambda p: p["pages"])
            r["exponent"] = math.log(r["wall_s"] / p["wall_s"]) / math.log(r["pages"] / p["pages"])
            r["exponent_cpu"] = math.log(r["cpu_s"] / p["cpu_s"]) / math.log(r["pages"] / p["pages"])
    return rows


def many_sites_rows(work: Path, sites: int, per_site: int, jobs: list[int], drop: float) -> list[dict]:
    crawl = many_sites(work, sites, per_site, drop)
    rows = []
    for j in jobs:
        out = work / f"many-out-{sites}-j{j}"
        a = measure(stemmer_cmd("analyze", "-q", crawl, "-o", out, "-j", j, "--date", "2024-01-01"))
        print(f"  many sites: analyze -j {j}: {a['wall_s']:.1f} s", file=sys.stderr)
        e = measure(stemmer_cmd("extract", "-q", "-p", out, crawl, "-j", j, "-o", work / f"many-ex-{sites}-j{j}.jsonl"))
        print(f"  many sites: extract -j {j}: {e['wall_s']:.1f} s", file=sys.stderr)
        rows.append({"jobs": j, "sites": sites, "pages": sites * per_site,
                     "files": sum(map(is_pattern_file, out.glob("*.json"))),
                     "analyze_s": a["wall_s"], "extract_s": e["wall_s"], "total_s": a["wall_s"] + e["wall_s"],
                     "cpu_s": a["cpu_s"] + e["cpu_s"], "rss_tree_mb": max(a["rss_tree_mb"], e["rss_tree_mb"]),
                     "rss_max_mb": max(a["rss_max_mb"], e["rss_max_mb"])})
    base = rows[0]
    for r in rows:
        r["speedup"] = base["total_s"] / r["total_s"]
        r["same_output"] = _same(work / f"many-out-{sites}-j{base['jobs']}", work / f"many-out-{sites}-j{r['jobs']}") \
            and (work / f"many-ex-{sites}-j{base['jobs']}.jsonl").read_bytes() == \
            (work / f"many-ex-{sites}-j{r['jobs']}.jsonl").read_bytes()
    return rows


def _same(a: Path, b: Path) -> bool:
    names = sorted(p.name for p in a.glob("*.json"))
    return names == sorted(p.name for p in b.glob("*.json")) and all(
        (a / n).read_bytes() == (b / n).read_bytes() for n in names)


def table(rows: list[dict], cols: list[tuple[str, str, str]]) -> None:
    print("| " + " | ".join(c[0] for c in cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        cells = []
        for _, key, spec in cols:
            v = r.get(key)
            cells.append("-" if v is None else format(v, spec) if spec else str(v))
        print("| " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1,000 -> 4,000 pages, 200 sites")
    ap.add_argument("--work", default="/tmp/stemmer-bench-scale", help="cache of generated crawls and outputs")
    ap.add_argument("--drop", type=float, default=0.02, help="chance to drop each block element of a copy")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--skip", nargs="*", default=[], choices=["big", "agreement", "many"])
    ap.add_argument("--json", help="also write the rows as JSON here")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    sizes = [1000, 2000, 4000] if args.quick else [1000, 2000, 4000, 10000]
    sites = 200 if args.quick else 1000
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start", file=sys.stderr)
    result: dict = {"load_start": os.getloadavg()}
    if "big" not in args.skip:
        rows = result["big"] = big_site_rows(work, sizes, args.jobs, args.drop)
        print(f"\n### analyze, one site ({BIG_SITE[1]} + perturbed copies, drop {args.drop})\n")
        table(rows, [("pages", "pages", "d"), ("jobs", "jobs", "d"), ("wall s", "wall_s", ".1f"),
                     ("CPU s", "cpu_s", ".1f"), ("peak RSS, largest process MB", "rss_max_mb", ".0f"),
                     ("peak RSS, all processes MB", "rss_tree_mb", ".0f"), ("layouts", "layouts", "d"),
                     ("pages in layouts", "covered", "d"), ("growth exponent from 1,000 (wall)", "exponent", ".2f"),
                     ("growth exponent from 1,000 (CPU)", "exponent_cpu", ".2f"),
                     ("CPU s / trafilatura's extract CPU s", "x_trafilatura", ".3f")])
        print(f"\n(trafilatura's extract time: its CPU seconds per page on {TRAFILATURA_SAMPLE} evenly spread "
              "pages of the largest crawl, times the pages)")
    if "agreement" not in args.skip:
        full = big_site(work, max(sizes), args.drop)
        with full.open(encoding="utf-8") as f:
            htmls = [json.loads(line)["html"] for _, line in zip(range(1600), f)]
        rows = result["agreement"] = [agreement(site_sequences(htmls[:n])) for n in (1000, 1600)]
        print(f"\n### clustering agreement with exact clustering (ARI), {BIG_SITE[1]} + copies\n")
        table(rows, [("pages", "pages", "d"), ("distinct sequences", "distinct", "d"),
                     ("exact clusters", "clusters", "d"), ("exact s", "exact_s", ".2f"),
                     ("big-site path s", "auto_s", ".2f"), ("ARI big-site path", "ari_auto", ".3f"),
                     ("leaders forced s", "leaders_s", ".2f"), ("ARI leaders forced", "ari_leaders", ".3f")])
        rows = result["agreement_dev"] = dev_site_agreement()
        print("\n### leaders forced vs exact clustering on the real dev sites of >= 10 pages (ARI)\n")
        table(rows, [("dataset", "dataset", ""), ("sites", "sites", "d"), ("pages", "pages", "d"),
                     ("mean ARI", "mean", ".3f"), ("page-weighted ARI", "weighted", ".3f"),
                     ("min ARI", "min", ".3f"), ("sites with ARI >= 0.95", "at_least_095", "d")])
    if "many" not in args.skip:
        rows = result["many"] = many_sites_rows(work, sites, 20, args.jobs, args.drop)
        print(f"\n### {sites} sites x 20 pages (dev-site copies): analyze then extract\n")
        table(rows, [("jobs", "jobs", "d"), ("pages", "pages", "d"), ("pattern files", "files", "d"),
                     ("analyze s", "analyze_s", ".1f"), ("extract s", "extract_s", ".1f"),
                     ("total s", "total_s", ".1f"), ("speed-up", "speedup", ".2f"), ("CPU s", "cpu_s", ".1f"),
                     ("peak RSS, largest process MB", "rss_max_mb", ".0f"),
                     ("peak RSS, all processes MB", "rss_tree_mb", ".0f"), ("same output as -j 1", "same_output", "")])
    result["load_end"] = os.getloadavg()
    print(f"\nload average (1, 5, 15 min): {result['load_start'][0]:.1f} at the start, "
          f"{result['load_end'][0]:.1f} {result['load_end'][1]:.1f} {result['load_end'][2]:.1f} at the end "
          f"on {os.cpu_count()} CPUs")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
