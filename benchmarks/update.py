"""Benchmark of `stemmer update` on jekyll_sites: growing crawls, and a simulated redesign.

For each site of the default multi-page split (../shared/tools/split.py), its
train pages are cut into two halves (by a stable hash of the page id).

1. Growth: analyze half A, then update with half B, against a fresh analyze of
   all train pages: test-page matched share and SH F1 (../shared/tools/score.py)
   of both, and the update's seconds against the fresh analyze's.
2. Redesign: the pages of half B and the test pages get the site's class names
   and ids rewritten (each name part replaced by a fixed made-up word) and new
   wrapper elements (the body's content wrapped twice, wrapper divs turned
   into sections). Patterns of half A extract the original test pages (the old
   layout's F1), then the redesigned ones (the drift signal: the unmatched
   share); update with redesigned half B; extract the redesigned test pages again.

Two controls show the noise the learner itself has: a fresh analyze of the
same train pages in a shuffled order, and the layouts of half B alone on the
original pages (what the redesigned update learns from, minus the redesign).

    python benchmarks/update.py                   # both tables
    python benchmarks/update.py --json out.json   # and the rows as JSON

A benchmark measures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lxml import etree  # noqa: E402

from stemmer import Page, analyze, extract  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402
from stemmer.update.updater import update  # noqa: E402

SHARED = ROOT.parent / "shared"
TOOLS = SHARED / "tools"
DATASET = "jekyll_sites"
OLD_DATE, NEW_DATE = "2024-01-01", "2024-02-01"


def load(dataset: str) -> dict[str, dict]:
    with gzip.open(SHARED / "data" / dataset / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        return {d["id"]: d for d in map(json.loads, f)}


def to_page(d: dict) -> Page:
    return Page(d["id"], d.get("url"), d["site"], d["html"])


def run_split(dataset: str, work: Path) -> tuple[dict, Path]:
    out = work / f"{dataset}.split.json"
    subprocess.run([sys.executable, str(TOOLS / "split.py"), str(SHARED / "data" / dataset), "-o", str(out)],
                   check=True, capture_output=True)
    return json.loads(out.read_text()), out


def score(dataset: str, pred: Path, split: Path) -> dict:
    res = subprocess.run([sys.executable, str(TOOLS / "score.py"), "--gold", str(SHARED / "data" / dataset),
                          "--pred", str(pred), "--split", str(split), "--side", "test", "--json", "--per-site"],
                         check=True, capture_output=True, text=True)
    return json.loads(res.stdout)


def halves(ids: list[str]) -> tuple[list[str], list[str]]:
    """The ids cut in two by a stable hash: the analyzed half and the update half."""
    ranked = sorted(ids, key=lambda i: hashlib.sha256(f"half:{i}".encode()).hexdigest())
    return ranked[: len(ranked) // 2], ranked[len(ranked) // 2:]


_LETTERS = "bcdfghjklmnpqrstvwxz"


def _word(part: str) -> str:
    """A made-up word (letters only, so keys keep it) standing for one part of a class name."""
    h = hashlib.sha256(part.encode()).digest()
    return "".join(_LETTERS[b % len(_LETTERS)] + "aeiou"[b % 5] for b in h[:3])


def _rename(name: str) -> str:
    return "-".join(_word(p) if p else p for p in name.split("-"))


def redesign(page: Page) -> Page:
    """The page after a simulated redesign: new class names and ids, new wrapper elements, same text."""
    root = parse_html(page.html)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.get("class"):
            el.set("class", " ".join(_rename(c) for c in el.get("class").split()))
        if el.get("id"):
            el.set("id", _rename(el.get("id")))
        # wrapper divs (element children only, no text of their own) become sections
        if el.tag == "div" and len(el) and not (el.text or "").strip():
            el.tag = "section"
    body = root.find(".//body")
    if body is not None:
        outer = etree.Element("div", {"class": _rename("site-shell")})
        inner = etree.SubElement(outer, "div", {"class": _rename("shell-frame")})
        inner.text, body.text = body.text, None
        for child in list(body):
            inner.append(child)
        body.append(outer)
    html = etree.tostring(root, encoding="unicode", method="html")
    return replace(page, html=html)


def write_pred(path: Path, results) -> None:
    with path.open("w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps({"id": r.id, "text": r.text, "title": r.title, "matched": r.matched},
                               ensure_ascii=False) + "\n")


def unmatched_share(results) -> float:
    return sum(not r.matched for r in results) / max(1, len(results))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/tmp/stemmer-bench-update")
    ap.add_argument("--json", help="also write the rows as JSON here")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    data = load(DATASET)
    split, split_path = run_split(DATASET, work)
    test_ids = set(split["test"])
    preds = {k: [] for k in ("fresh", "shuffled", "updated", "old", "half_b", "redesign_before",
                             "redesign_after")}
    rows = []
    for site in sorted(split["sites"]):
        train = [to_page(data[i]) for i in split["train"] if data[i]["site"] == site]
        test = [to_page(data[i]) for i in split["test"] if data[i]["site"] == site and i in test_ids]
        a_ids, b_ids = halves([p.id for p in train])
        half_a = [p for p in train if p.id in set(a_ids)]
        half_b = [p for p in train if p.id in set(b_ids)]

        t0 = time.perf_counter()
        fresh = analyze(train, date=OLD_DATE)
        analyze_s = time.perf_counter() - t0
        old = analyze(half_a, date=OLD_DATE)
        t0 = time.perf_counter()
        grown = update(half_b, old, date=NEW_DATE)
        update_s = time.perf_counter() - t0
        # the learner's own noise: the same train pages in another order
        shuffled = list(train)
        random.Random(0).shuffle(shuffled)
        preds["shuffled"] += list(extract(test, analyze(shuffled, date=OLD_DATE)))
        # what half B alone teaches, untouched by any redesign
        preds["half_b"] += list(extract(test, analyze(half_b, date=OLD_DATE)))
        fresh_res = list(extract(test, fresh))
        grown_res = list(extract(test, grown.patterns))
        old_res = list(extract(test, old))
        preds["fresh"] += fresh_res
        preds["updated"] += grown_res
        preds["old"] += old_res

        new_b = [redesign(p) for p in half_b]
        new_test = [redesign(p) for p in test]
        before = list(extract(new_test, old))
        t0 = time.perf_counter()
        redone = update(new_b, old, date=NEW_DATE)
        redo_s = time.perf_counter() - t0
        after = list(extract(new_test, redone.patterns))
        preds["redesign_before"] += before
        preds["redesign_after"] += after
        [change] = redone.sites
        rows.append({
            "site": site, "train": len(train), "test": len(test),
            "layouts_fresh": len(fresh.get(site).layouts), "layouts_half": len(old.get(site).layouts),
            "layouts_updated": len(grown.patterns.get(site).layouts),
            "analyze_s": analyze_s, "update_s": update_s,
            "drift_old": unmatched_share(old_res), "drift_redesigned": unmatched_share(before),
            "drift_updated": unmatched_share(after), "redesign_new_layouts": len(change.new_layouts),
            "redesign_update_s": redo_s,
        })
    scores = {}
    for name, results in preds.items():
        path = work / f"{name}.jsonl"
        write_pred(path, results)
        scores[name] = score(DATASET, path, split_path)
    for row in rows:
        for name in scores:
            per = scores[name]["per_site"].get(row["site"], {})
            row[f"matched_{name}"] = per.get("matched_share")
            row[f"f1_{name}"] = per.get("sh_f1")
    total = {"site": "all (macro over pages)", "train": sum(r["train"] for r in rows),
             "test": sum(r["test"] for r in rows),
             "analyze_s": sum(r["analyze_s"] for r in rows), "update_s": sum(r["update_s"] for r in rows),
             "redesign_update_s": sum(r["redesign_update_s"] for r in rows),
             "layouts_fresh": sum(r["layouts_fresh"] for r in rows),
             "layouts_half": sum(r["layouts_half"] for r in rows),
             "layouts_updated": sum(r["layouts_updated"] for r in rows),
             "redesign_new_layouts": sum(r["redesign_new_layouts"] for r in rows)}
    for name, s in scores.items():
        total[f"matched_{name}"] = s["matched_share"]
        total[f"f1_{name}"] = s["sh_f1"]
    total["drift_old"] = unmatched_share(preds["old"])
    total["drift_redesigned"] = unmatched_share(preds["redesign_before"])
    total["drift_updated"] = unmatched_share(preds["redesign_after"])
    rows.append(total)

    print("Growth: analyze half A of the train pages, then update with half B, vs a fresh analyze of all "
          "train pages (test pages with gold text; matched share and SH F1 from score.py)\n")
    print("| site | train | test | layouts fresh | layouts A → A+B | matched fresh | matched update | "
          "SH F1 fresh | SH F1 fresh, shuffled order | SH F1 update | Δ F1 update − fresh | analyze all s | "
          "update B s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        d = _sub(r["f1_updated"], r["f1_fresh"])
        print(f"| {r['site']} | {r['train']} | {r['test']} | {r['layouts_fresh']} | "
              f"{r['layouts_half']} → {r['layouts_updated']} | {_f(r['matched_fresh'])} | "
              f"{_f(r['matched_updated'])} | {_f(r['f1_fresh'])} | {_f(r['f1_shuffled'])} | "
              f"{_f(r['f1_updated'])} | {_f(d, '+.3f')} | {r['analyze_s']:.2f} | {r['update_s']:.2f} |")
    print("\nRedesign: patterns of half A; half B and the test pages redesigned (class names, ids, wrappers); "
          "unmatched share of all test pages (drift signal) and SH F1 of the test pages with gold text\n")
    print("| site | unmatched, old pages | unmatched, redesigned | unmatched after update | new layouts | "
          "SH F1 old pages (old layouts, half A) | SH F1 redesigned, before update | "
          "SH F1 redesigned, after update | Δ vs old | SH F1 old pages, layouts of half B | update s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        d = _sub(r["f1_redesign_after"], r["f1_old"])
        print(f"| {r['site']} | {_f(r['drift_old'])} | {_f(r['drift_redesigned'])} | {_f(r['drift_updated'])} | "
              f"{r['redesign_new_layouts']} | {_f(r['f1_old'])} | {_f(r['f1_redesign_before'])} | "
              f"{_f(r['f1_redesign_after'])} | {_f(d, '+.3f')} | {_f(r['f1_half_b'])} | "
              f"{r['redesign_update_s']:.2f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


def _sub(a, b):
    return None if a is None or b is None else a - b


def _f(x, spec=".3f") -> str:
    return "-" if x is None else format(x, spec)


if __name__ == "__main__":
    main()
