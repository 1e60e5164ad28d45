"""Benchmark of analyze -> extract on the multi-page dev sets, beside trafilatura and readability.

For each dataset: split each site with ../shared/tools/split.py (sites of 10
pages or more), analyze the train pages, extract the test pages, score
stemmer, trafilatura and readability with ../shared/tools/score.py, and print
one table per set and one line per site, worst site (against trafilatura or
the generic model alone) first, with the count of sites below trafilatura.  The two other tools'
predictions are cached under --work, keyed by dataset and test pages, so a
re-run costs only stemmer; their pages/s (and the speed ratio) are printed
only for a run that measured them.  Extract runs twice: as
shipped (unmatched pages go to the block classifier) and with patterns only;
the two must agree on every matched page but those where the classifier
weighed in on a layout that saw little (their share is printed).  Where a
set's gold text starts with the headline and it has no gold title
(cleanportaleval, dragnet), both
tools are scored a second time with their title as the first line of the
text ("headline + text").  Beside them, "generic alone": stemmer's generic
model on the same test pages with no patterns, so that a site read worse with
its patterns than without shows (the count of sites below it by more than
`BELOW_GENERIC`).  With --train-pages K, each site's layouts are learned from
K of its train pages (the K first by a hash of their ids: the same K in every
run), as from a new crawl of a few pages.  With --scaling, also time analyze on
100 / 400 / 1,600 pages of one site (perturbed copies where it has fewer).

    python benchmarks/layouts.py                          # the four sets, per site
    python benchmarks/layouts.py --sets web_sites         # a subset
    python benchmarks/layouts.py --json new.json --baseline base.json   # per-site deltas
    python benchmarks/layouts.py --quick                  # stemmer only
    python benchmarks/layouts.py --train-pages 3          # layouts learned from 3 pages per site
    python benchmarks/layouts.py --no-urls                # pages without URLs: titles without link texts
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stemmer import AnalyzeParams, Page, analyze, extract  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402

SHARED = ROOT.parent / "shared"
TOOLS = SHARED / "tools"
DATASETS = ["jekyll_sites", "web_sites", "cleanportaleval", "dragnet"]
# A site counts as read worse with its patterns than by the generic model alone below this margin.
BELOW_GENERIC = 0.005


def load(dataset: str) -> dict[str, dict]:
    with gzip.open(SHARED / "data" / dataset / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        return {d["id"]: d for d in map(json.loads, f)}


def to_page(d: dict, *, urls: bool = True) -> Page:
    """A page of the set; without its URL (`urls` False) analyze has no link texts to it to find titles by."""
    return Page(d["id"], d.get("url") if urls else None, d["site"], d["html"])


def run_split(dataset: str, work: Path) -> dict:
    out = work / f"{dataset}.split.json"
    subprocess.run([sys.executable, str(TOOLS / "split.py"), str(SHARED / "data" / dataset),
                    "-o", str(out)], check=True, capture_output=True)
    return json.loads(out.read_text())


def few_pages(ids: list[str], data: dict[str, dict], k: int) -> list[str]:
    """K train pages per site: the K first of each site's ids ordered by their SHA-256, a choice
    that is the same in every run and does not follow the crawl's or the split's order."""
    by_site: dict[str, list[str]] = {}
    for i in sorted(ids, key=lambda i: hashlib.sha256(i.encode()).hexdigest()):
        picked = by_site.setdefault(data[i]["site"], [])
        if len(picked) < k:
            picked.append(i)
    return [i for i in ids if i in {j for v in by_site.values() for j in v}]


def empty_bodies(data: dict[str, dict], results) -> int:
    """The test pages with gold text whose extracted body is empty."""
    return sum(1 for r in results if (data[r.id].get("text") or "").strip() and not r.text.strip())


def score(dataset: str, pred: Path, split: Path) -> dict:
    res = subprocess.run([sys.executable, str(TOOLS / "score.py"), "--gold", str(SHARED / "data" / dataset),
                          "--pred", str(pred), "--split", str(split), "--side", "test", "--json",
                          "--per-site"], check=True, capture_output=True, text=True)
    return json.loads(res.stdout)


def cached(tool: str, dataset: str, test_ids: list[str], work: Path) -> Path:
    """The cache file of a tool's predictions on these test pages."""
    key = hashlib.sha256("\n".join(test_ids).encode()).hexdigest()[:12]
    folder = work / "cache"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{dataset}.{key}.{tool}.jsonl"


def trafilatura(dataset: str, split: Path, test_ids: list[str], work: Path) -> tuple[Path, float | None]:
    """trafilatura's predictions (baseline.py) and its pages/s, None when they came from the cache."""
    out = cached("trafilatura", dataset, test_ids, work)
    if out.exists():
        return out, None
    tmp = out.with_suffix(".part")
    res = subprocess.run([sys.executable, str(TOOLS / "baseline.py"), str(SHARED / "data" / dataset),
                          "--split", str(split), "--side", "test", "-o", str(tmp)],
                         check=True, capture_output=True, text=True)
    tmp.replace(out)
    m = re.search(r"text ([\d.]+) pages/s", res.stdout + res.stderr)
    return out, float(m.group(1)) if m else float("nan")


def readability(dataset: str, pages: list[dict], work: Path) -> Path:
    """readability-lxml's predictions: the text of `Document.summary()` and `Document.title()`."""
    import lxml.html
    from readability import Document

    out = cached("readability", dataset, [d["id"] for d in pages], work)
    if out.exists():
        return out
    tmp = out.with_suffix(".part")
    with tmp.open("w", encoding="utf-8") as f:
        for d in pages:
            try:
                doc = Document(d["html"])
                root = lxml.html.fromstring(doc.summary(html_partial=True))
                text, title = " ".join(t.strip() for t in root.itertext() if t.strip()), doc.title()
            except Exception:  # an empty prediction, as baseline.py counts an extractor's error
                text, title = "", None
            f.write(json.dumps({"id": d["id"], "text": text, "title": title}, ensure_ascii=False) + "\n")
    tmp.replace(out)
    return out


def weighed_in(result) -> bool:
    """Whether the classifier kept a block of a matched page against its layout's vote."""
    return any(b.method == "classifier" for b in result.blocks)


def write_predictions(results, path: Path) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps({"id": r.id, "text": r.text, "title": r.title, "matched": r.matched},
                               ensure_ascii=False) + "\n")
    return path


def with_headline(pred: Path) -> Path:
    """The predictions with each page's title as the first line of its text.

    For the sets whose gold text starts with the headline and that have no
    gold title (cleanportaleval, dragnet: see their CARD.md), where both tools
    give the headline as the title, not as text.
    """
    out = pred.with_suffix(".headline.jsonl")
    with pred.open(encoding="utf-8") as f, out.open("w", encoding="utf-8") as g:
        for line in f:
            d = json.loads(line)
            if d.get("title") and d.get("text") is not None:
                d["text"] = d["title"] + "\n" + d["text"]
            g.write(json.dumps(d, ensure_ascii=False) + "\n")
    return out


def run_dataset(dataset: str, work: Path, params: AnalyzeParams, baseline: bool,
                urls: bool = True, train_pages: int | None = None) -> tuple[dict, list[dict]]:
    """The set's row and one row per site."""
    data = load(dataset)
    split = run_split(dataset, work)
    split_path = work / f"{dataset}.split.json"
    train_ids = split["train"] if train_pages is None else few_pages(split["train"], data, train_pages)
    train = [to_page(data[i], urls=urls) for i in train_ids]
    test = [to_page(data[i], urls=urls) for i in split["test"]]
    t0 = time.perf_counter()
    patterns = analyze(train, params=params)
    analyze_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    results = list(extract(test, patterns))
    extract_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    only = list(extract(test, patterns, fallback=None))  # patterns only: unmatched pages stay empty
    only_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for page in test:
        parse_html(page.html)  # the floor of any extractor that parses with lxml
    parse_s = time.perf_counter() - t0
    generic = list(extract(test, None))  # the generic model alone: no patterns, no site model
    pred = write_predictions(results, work / f"{dataset}.stemmer.jsonl")
    s = score(dataset, pred, split_path)
    gpred = write_predictions(generic, work / f"{dataset}.generic.jsonl")
    gs = score(dataset, gpred, split_path)
    headline = not s.get("n_title_scored")  # the gold text holds the headline
    s_only = score(dataset, write_predictions(only, work / f"{dataset}.patterns-only.jsonl"), split_path)
    layouts = [lay for sp in patterns.sites.values() for lay in sp.layouts]
    covered = sum(lay.pages for lay in layouts)
    row = {
        "dataset": dataset, "sites": len(patterns), "train": len(train), "test": len(test),
        "layouts": len(layouts), "pages_per_layout": covered / max(1, len(layouts)),
        "train_covered": covered / max(1, len(train)),
        "matched": s["matched_share"], "sh_f1": s["sh_f1"], "sh_f1_matched": s["sh_f1_matched"],
        "title_exact_all": s.get("title_exact_all"), "n_title": s.get("n_title_scored"),
        "analyze_s": analyze_s, "extract_pps": len(test) / extract_s,
        "only_sh_f1": s_only["sh_f1"], "only_pps": len(test) / only_s, "parse_pps": len(test) / parse_s,
        # the fallback must not change a page a layout matched, but where the classifier weighed in
        # on a layout of little evidence (`stemmer.extract.decide`): those are counted apart
        "matched_same": all((a.title, a.text) == (b.title, b.text) for a, b in zip(results, only)
                            if b.matched and not weighed_in(a)),
        "weighed_in": sum(1 for r in results if r.matched and weighed_in(r)) / max(1, len(results)),
        "empty_matched": sum(1 for r in results if r.matched and not r.text.strip()),
        "empty_gold": empty_bodies(data, results), "generic_sh_f1": gs["sh_f1"],
    }
    sites = {site: {"dataset": dataset, "site": site, "n": v["n_scored"], "sh_f1": v["sh_f1"],
                    "sh_f1_matched": v["sh_f1_matched"], "title": v["title_exact_all"],
                    "matched": v["matched_share"],
                    "layouts": len(patterns.get(site).layouts) if patterns.get(site) else 0}
             for site, v in s["per_site"].items() if v["n_scored"]}
    for site, v in gs["per_site"].items():
        if site in sites:
            sites[site]["generic_sh_f1"] = v["sh_f1"]
    if headline:
        sh = score(dataset, with_headline(pred), split_path)
        row.update(headline_sh_f1=sh["sh_f1"], headline_sh_f1_matched=sh["sh_f1_matched"])
        for site, v in sh["per_site"].items():
            if site in sites:
                sites[site]["headline_sh_f1"] = v["sh_f1"]
        gh = score(dataset, with_headline(gpred), split_path)
        row["generic_headline_sh_f1"] = gh["sh_f1"]
        for site, v in gh["per_site"].items():
            if site in sites:
                sites[site]["generic_headline_sh_f1"] = v["sh_f1"]
    if baseline:
        ids = split["test"]
        tpred, tpps = trafilatura(dataset, split_path, ids, work)
        rpred = readability(dataset, [data[i] for i in ids], work)
        for tool, path in (("traf", tpred), ("read", rpred)):
            ts = score(dataset, path, split_path)
            row.update({f"{tool}_sh_f1": ts["sh_f1"], f"{tool}_title": ts.get("title_exact_all")})
            hs = score(dataset, with_headline(path), split_path) if headline else None
            if hs:
                row[f"{tool}_headline_sh_f1"] = hs["sh_f1"]
            for site, v in ts["per_site"].items():
                if site in sites:
                    sites[site].update({f"{tool}_sh_f1": v["sh_f1"], f"{tool}_title": v["title_exact_all"]})
                    if hs:
                        sites[site][f"{tool}_headline_sh_f1"] = hs["per_site"][site]["sh_f1"]
        row["traf_pps"] = tpps
    return row, list(sites.values())


_WORD = re.compile(r"\w+")


def shuffle_words(root, rng: random.Random) -> None:
    """Shuffle the words of every text and tail under `root`: same layout, new texts."""
    for el in root.iter():
        for attr in ("text", "tail"):
            text = getattr(el, attr)
            if text and text.strip():
                words = text.split()
                rng.shuffle(words)
                setattr(el, attr, " ".join(words))


def perturbed(page: Page, rng: random.Random, n: int) -> Page:
    """A copy of a page with the words of every text shuffled, at a new path."""
    from lxml import etree

    root = parse_html(page.html)
    shuffle_words(root, rng)
    html = etree.tostring(root, encoding="unicode", method="html")
    return Page(f"{page.id}#copy{n}", (page.url or page.id) + f"?copy={n}", page.site, html)


def scaling(params: AnalyzeParams, sizes=(100, 400, 1600)) -> list[tuple[int, float]]:
    data = load("jekyll_sites")
    site = [Page(d["id"], d["url"], d["site"], d["html"]) for d in data.values()
            if d["site"] == "blog.4dcu.be"]
    rng = random.Random(0)
    pool = list(site)
    while len(pool) < max(sizes):
        pool.append(perturbed(site[len(pool) % len(site)], rng, len(pool)))
    rows = []
    for n in sizes:
        t0 = time.perf_counter()
        analyze(pool[:n], params=params)
        rows.append((n, time.perf_counter() - t0))
    return rows


def fmt(x, spec=".3f"):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def print_table(cols, rows) -> None:
    print("| " + " | ".join(c[0] for c in cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(fmt(r.get(k), spec) for _, k, spec in cols) + " |")


def gap(site: dict) -> float:
    """How far a site's SH F1 lies above trafilatura's (its headline + text scores where the set has them)."""
    key = "headline_sh_f1" if "headline_sh_f1" in site else "sh_f1"
    return site[key] - site.get("traf_" + key, site[key])


def over_generic(site: dict) -> float:
    """How far a site's SH F1 lies above the generic model's alone (headline + text where the set has it)."""
    key = "headline_sh_f1" if "headline_sh_f1" in site else "sh_f1"
    return site[key] - site["generic_" + key]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", "--datasets", nargs="*", default=DATASETS, dest="sets")
    ap.add_argument("--quick", action="store_true", help="skip trafilatura and readability")
    ap.add_argument("--no-urls", action="store_true",
                    help="give stemmer the pages without their URLs (no link texts to a page name its title)")
    ap.add_argument("--train-pages", type=int, metavar="K",
                    help="learn each site's layouts from K of its train pages (the same K in every run)")
    ap.add_argument("--scaling", action="store_true", help="also time analyze on 100 / 400 / 1,600 pages")
    ap.add_argument("--work", default="/tmp/stemmer-bench")
    ap.add_argument("--json", help="also write the set and site rows as JSON here")
    ap.add_argument("--baseline", help="a --json file of an earlier run: add each site's change since")
    ap.add_argument("--set", nargs="*", default=[], metavar="PARAM=VALUE",
                    help="override analyze parameters, e.g. cluster_threshold=0.8")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    overrides = {k: type(getattr(AnalyzeParams(), k))(v) for k, v in (s.split("=") for s in args.set)}
    params = AnalyzeParams(**overrides)
    rows, sites = [], []
    for d in args.sets:
        row, per_site = run_dataset(d, work, params, not args.quick, urls=not args.no_urls,
                                    train_pages=args.train_pages)
        rows.append(row)
        sites += per_site
    cols = [("dataset", "dataset", "s"), ("sites", "sites", "d"), ("train", "train", "d"),
            ("test", "test", "d"), ("layouts", "layouts", "d"), ("pages/layout", "pages_per_layout", ".1f"),
            ("train covered", "train_covered", ".3f"), ("matched", "matched", ".3f"),
            ("sh_f1", "sh_f1", ".3f"), ("sh_f1 matched", "sh_f1_matched", ".3f"),
            ("title exact", "title_exact_all", ".3f"), ("empty matched pages", "empty_matched", "d"),
            ("empty body, gold text", "empty_gold", "d"), ("generic alone", "generic_sh_f1", ".3f"),
            ("generic alone, headline + text", "generic_headline_sh_f1", ".3f"),
            ("sites below generic", "below_generic", "d"),
            ("analyze s", "analyze_s", ".2f"),
            ("extract p/s", "extract_pps", ".0f"), ("sh_f1 patterns only", "only_sh_f1", ".3f"),
            ("p/s patterns only", "only_pps", ".0f"), ("lxml parse p/s", "parse_pps", ".0f"),
            ("matched pages same", "matched_same", ""), ("classifier weighed in", "weighed_in", ".3f"),
            ("sh_f1, headline + text", "headline_sh_f1", ".3f"),
            ("sh_f1 matched, headline + text", "headline_sh_f1_matched", ".3f")]
    site_cols = [("dataset", "dataset", "s"), ("site", "site", "s"), ("test", "n", "d"),
                 ("layouts", "layouts", "d"), ("matched", "matched", ".3f"), ("sh_f1", "sh_f1", ".3f"),
                 ("sh_f1 matched", "sh_f1_matched", ".3f"), ("title", "title", ".3f"),
                 ("sh_f1, headline + text", "headline_sh_f1", ".3f"), ("generic alone", "generic_sh_f1", ".3f"),
                 ("generic alone, headline + text", "generic_headline_sh_f1", ".3f"),
                 ("vs generic", "over_generic", "+.3f")]
    for s in sites:
        s["over_generic"] = over_generic(s)
    for r in rows:
        r["below_generic"] = sum(1 for s in sites if s["dataset"] == r["dataset"]
                                 and s["over_generic"] < -BELOW_GENERIC)
    if not args.quick:
        for r in rows:
            r["below"] = sum(1 for s in sites if s["dataset"] == r["dataset"] and gap(s) < 0)
            r["below_01"] = sum(1 for s in sites if s["dataset"] == r["dataset"] and gap(s) < -0.01)
            r["ratio"] = r["extract_pps"] / r["traf_pps"] if r.get("traf_pps") else None
        cols += [("traf sh_f1", "traf_sh_f1", ".3f"), ("traf title", "traf_title", ".3f"),
                 ("read sh_f1", "read_sh_f1", ".3f"), ("read title", "read_title", ".3f"),
                 ("traf p/s", "traf_pps", ".0f"), ("speed ratio", "ratio", ".1f"),
                 ("traf sh_f1, headline + text", "traf_headline_sh_f1", ".3f"),
                 ("read sh_f1, headline + text", "read_headline_sh_f1", ".3f"),
                 ("sites below traf", "below", "d"), ("by > 0.01", "below_01", "d")]
        site_cols += [("traf sh_f1", "traf_sh_f1", ".3f"), ("traf title", "traf_title", ".3f"),
                      ("read sh_f1", "read_sh_f1", ".3f"),
                      ("traf sh_f1, headline + text", "traf_headline_sh_f1", ".3f"),
                      ("vs traf", "gap", "+.3f")]
        for s in sites:
            s["gap"] = gap(s)
    sites.sort(key=lambda s: (min(s["over_generic"], s.get("gap", 0.0)), s["sh_f1"]))
    if args.baseline:
        before = {(s["dataset"], s["site"]): s for s in json.loads(Path(args.baseline).read_text())["sites"]}
        for s in sites:
            b = before.get((s["dataset"], s["site"]))
            if b:
                s["d_sh_f1"] = s["sh_f1"] - b["sh_f1"]
                s["d_title"] = s["title"] - b["title"] if s["title"] is not None and b["title"] is not None else None
        site_cols += [("Δ sh_f1", "d_sh_f1", "+.3f"), ("Δ title", "d_title", "+.3f")]
    print_table(cols, rows)
    print()
    print_table(site_cols, sites)
    if args.scaling:
        sc = scaling(params)
        print("\n| pages (blog.4dcu.be + perturbed copies) | analyze s | growth exponent |")
        print("|---|---|---|")
        for i, (n, s) in enumerate(sc):
            exp = "-" if i == 0 else f"{math.log(s / sc[i-1][1]) / math.log(n / sc[i-1][0]):.2f}"
            print(f"| {n} | {s:.2f} | {exp} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"sets": rows, "sites": sites}, indent=1))


if __name__ == "__main__":
    main()
