"""Benchmark of fields by example: name a field from ONE training page's value, read it on the test pages.

Real sites (jekyll_sites, web_sites): each site is split as benchmarks/layouts.py
does (../shared/tools/split.py) and its train pages analyzed.  A site counts
where its article pages show a visible date: at least half of its train articles
that state a publication day for machines (JSON-LD, meta, ``<time datetime>``,
``itemprop``) show that day in a short block of their text.  Of those train
articles (their URL's /YYYY/MM/DD/ where they state nothing else), the first by id
whose page matches a layout gives the example: the
text of its shortest block that reads as the stated day, named ``published``
(`stemmer.label`, one example, nothing else).  On the site's test articles that
state a day and show it, the score is the share whose ``published_iso`` is that
day (first 10 characters): the page's own statement is the truth.  A page that
no layout naming the field matched counts as wrong.

The demo shop (`stemmer/demo/generate.py`, ``stemmer/demo/shop``): a third of its
pages by sha256 of the id are test pages, the rest analyzed; the first train
product page names price, sku, specs, tags and manual (its values from the
generator's truth, ``shop_gold.jsonl``); each is scored on the test product and
deal pages (another template, where the price aligns by its "Price:" label).

Tags and categories from link slots (``--terms``, `run_site_terms`): each site of
jekyll_sites and web_sites is analyzed on its train pages and its test articles
extracted with patterns only; per site, the pages whose layout's link slots gave
tags or categories (`stemmer.fields.linked.shown_terms`, recorded as extract calls
it), and, on the pages that state their own (``article:tag`` / JSON-LD ``keywords``,
``article:section`` / ``articleSection``: the truth), the share of the slots'
terms that the page states (precision) and of the stated terms the slots show
(recall), case-blind, pooled over the site's pages.

    python benchmarks/fields.py                        # every set, per site and field
    python benchmarks/fields.py --sets shop --json out.json
    python benchmarks/fields.py --terms                # tags and categories by link slots, per site
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from layouts import ROOT, load, run_split  # noqa: E402

from stemmer import Page, analyze, extract, label, read_pages  # noqa: E402
from stemmer.blocks import parse_html, segment  # noqa: E402
from stemmer.fields.label import LabelError  # noqa: E402
from stemmer.layout.bylines import slot_date  # noqa: E402
from stemmer.metadata import page_signals  # noqa: E402

# What the page states of its day: for machines, else its URL (a /YYYY/MM/DD/ path).
MACHINE_SOURCES = ("json-ld", "meta", "itemprop", "time", "url")
# A site shows its dates where at least this share of its train articles that state one show it.
SHOWS_SHARE = 0.5
SHOP = ROOT / "stemmer" / "demo" / "shop"
SHOP_FIELDS = ("price", "sku", "specs", "tags", "manual")


def stated_day(root, url: str | None) -> str | None:
    """The publication day the page states for machines, else by its URL, or None."""
    said = sorted((s for s in page_signals(root, url).dates if s.source in MACHINE_SOURCES),
                  key=lambda s: MACHINE_SOURCES.index(s.source))
    return said[0].value[:10] if said else None


def shown_as(html: str, day: str) -> str | None:
    """The text of the page's shortest block that reads as `day` (day or month first), or None: it does not show it."""
    found = [b.text for b in segment(parse_html(html)).blocks
             if len(b.text) <= 200 and any(slot_date(b.text, o) == day or (slot_date(b.text, o) or "")[:10] == day
                                           for o in (True, False))]
    return min(found, key=len) if found else None


def run_site_dates(dataset: str, work: Path, only: set[str]) -> list[dict]:
    """One row per site of the set: whether it shows dates, the example, and the test score."""
    data = load(dataset)
    split = run_split(dataset, work)
    rows = []
    sites = sorted({d["site"] for d in data.values()} & ({*only} if only else {d["site"] for d in data.values()}))
    for site in sites:
        train = [data[i] for i in split["train"] if i in data and data[i]["site"] == site]
        test = [data[i] for i in split["test"] if i in data and data[i]["site"] == site]
        if not train or not test:
            continue
        row = {"set": dataset, "site": site}
        rows.append(row)
        stated = {}
        for d in train:
            if d.get("text") is not None and (day := stated_day(parse_html(d["html"]), d.get("url"))):
                stated[d["id"]] = (day, shown_as(d["html"], day))
        showing = [i for i, (_, text) in stated.items() if text]
        row["train_stating"], row["train_showing"] = len(stated), len(showing)
        if not stated or len(showing) < SHOWS_SHARE * len(stated):
            row["skipped"] = "its articles show no date" if stated else "its articles state no date"
            continue
        t0 = time.perf_counter()
        patterns = analyze([Page(d["id"], d.get("url"), d["site"], d["html"]) for d in train], site_model=False)
        example = None
        for i in sorted(showing):
            d = data[i]
            try:
                result = label(patterns, Page(d["id"], d.get("url"), d["site"], d["html"]),
                               {"published": stated[i][1]})
            except LabelError as exc:
                row.setdefault("label_errors", []).append(str(exc)[:200])
                continue
            example = (i, stated[i][1], result)
            break
        if example is None:
            row["skipped"] = "no train article of a layout holds its date in a slot"
            continue
        i, text, result = example
        [lab] = result.fields
        row.update(example_page=i, example=text, named=lab.named, not_named=lab.not_named)
        truth = {}
        for d in test:
            if d.get("text") is not None and (day := stated_day(parse_html(d["html"]), d.get("url"))) and shown_as(d["html"], day):
                truth[d["id"]] = day
        got = Counter()
        wrong = []
        pages = [Page(d["id"], d.get("url"), d["site"], d["html"]) for d in test if d["id"] in truth]
        for ex in extract(pages, result.patterns, fallback=None):
            value = ex.fields.get("published_iso")
            ok = isinstance(value, str) and value[:10] == truth[ex.id]
            got["right" if ok else "wrong"] += 1
            if not ok and len(wrong) < 3:
                wrong.append({"id": ex.id, "layout": ex.pattern, "truth": truth[ex.id],
                              "got": value, "text": ex.fields.get("published")})
        row.update(test_showing=len(truth), right=got["right"], share=round(got["right"] / len(truth), 4)
                   if truth else None, wrong=wrong, seconds=round(time.perf_counter() - t0, 2))
    return rows


def run_site_terms(dataset: str, work: Path, only: set[str]) -> list[dict]:
    """Per site of the set: its test articles' tags and categories by link slots, against those they state."""
    import stemmer.api as api

    shown: dict[str, dict] = {}
    reader = api.shown_terms

    def recorded(result, match, page, root):  # what the link slots gave each page, as extract asks it
        shown[result.id] = out = reader(result, match, page, root)
        return out

    data = load(dataset)
    split = run_split(dataset, work)
    rows = []
    sites = sorted({d["site"] for d in data.values()} & (only or {d["site"] for d in data.values()}))
    api.shown_terms = recorded
    try:
        for site in sites:
            train = [data[i] for i in split["train"] if i in data and data[i]["site"] == site]
            test = [data[i] for i in split["test"] if i in data and data[i]["site"] == site and data[i].get("text")]
            if not train or not test:
                continue
            patterns = analyze([Page(d["id"], d.get("url"), d["site"], d["html"]) for d in train], site_model=False)
            pages = [Page(d["id"], d.get("url"), d["site"], d["html"]) for d in test]
            matched = sum(ex.matched for ex in extract(pages, patterns, fallback=None))
            row = {"set": dataset, "site": site, "pages": len(test), "matched": matched}
            for name in ("tags", "categories"):
                got = stating = both = said = showing = 0
                for d in test:
                    slot = [t.casefold() for t in shown.get(d["id"], {}).get(name, [])]
                    signals = page_signals(parse_html(d["html"]), d.get("url"))
                    truth = {t.casefold() for t in getattr(signals, name)}
                    showing += bool(slot)
                    if truth:
                        stating += 1
                        got += len(slot)
                        said += len(truth)
                        both += len(truth.intersection(slot))
                row[name] = {"pages_shown": showing, "pages_stating": stating,
                             "precision": round(both / got, 4) if got else None,
                             "recall": round(both / said, 4) if said else None}
            rows.append(row)
    finally:
        api.shown_terms = reader
    return rows


def print_terms(rows: list[dict]) -> None:
    print(f"{'set':13} {'site':28} {'pages':>5} {'match':>5}  "
          f"{'tags: shown':>11} {'stating':>7} {'prec':>5} {'recall':>6}  "
          f"{'categories: shown':>17} {'stating':>7} {'prec':>5} {'recall':>6}")
    def f(x):
        return "-" if x is None else f"{x:.3f}"
    for r in rows:
        t, c = r["tags"], r["categories"]
        print(f"{r['set']:13} {r['site']:28} {r['pages']:5d} {r['matched']:5d}  "
              f"{t['pages_shown']:11d} {t['pages_stating']:7d} {f(t['precision']):>5} {f(t['recall']):>6}  "
              f"{c['pages_shown']:17d} {c['pages_stating']:7d} {f(c['precision']):>5} {f(c['recall']):>6}")


def _is_test(page_id: str) -> bool:
    return int(hashlib.sha256(page_id.encode()).hexdigest(), 16) % 3 == 0


def run_shop() -> list[dict]:
    """Per field of the demo shop: its score on the test product and deal pages."""
    gold = {g["id"]: g for g in map(json.loads, (SHOP.parent / "shop_gold.jsonl").read_text().splitlines())}
    pages = list(read_pages([str(SHOP)]))
    train = [p for p in pages if not _is_test(p.id)]
    test = [p for p in pages if _is_test(p.id) and p.id in gold]
    patterns = analyze(train, site_model=False)
    first = min((p for p in train if gold.get(p.id, {}).get("layout") == "product"), key=lambda p: p.id)
    g = gold[first.id]
    examples = {"price": g["price"], "sku": g["sku"], "specs": g["specs"][0], "tags": g["tags"][0],
                "manual": g["manual"]}
    result = label(patterns, first, examples)
    rows = []
    by_field = {f.name: f for f in result.fields}
    extracted = list(extract(test, result.patterns, fallback=None))
    for name in SHOP_FIELDS:
        counts = Counter()
        for ex in extracted:
            want = gold[ex.id][name]
            if name == "manual":
                want = ex.url.split("/", 3)[0] + "//" + ex.url.split("/", 3)[2] + want
            kind = gold[ex.id]["layout"]
            counts[kind, ex.fields.get(name) == want] += 1
        for kind in ("product", "deal"):
            n = counts[kind, True] + counts[kind, False]
            rows.append({"set": "shop", "site": f"shop.stemmer.test ({kind} pages)", "field": name,
                         "example_page": first.id, "example": examples[name],
                         "named": by_field[name].named, "not_named": by_field[name].not_named,
                         "test_showing": n, "right": counts[kind, True],
                         "share": round(counts[kind, True] / n, 4) if n else None})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", default=["jekyll_sites", "web_sites", "shop"],
                    help="jekyll_sites, web_sites and/or shop (default: all)")
    ap.add_argument("--sites", nargs="*", default=[], help="only these sites of the real sets")
    ap.add_argument("--work", type=Path, default=Path("/tmp/stemmer-bench-fields"), help="split files go here")
    ap.add_argument("--json", type=Path, help="write the rows here")
    ap.add_argument("--terms", action="store_true", help="tags and categories by link slots instead (real sets)")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if args.terms:
        rows = [r for name in args.sets if name != "shop" for r in run_site_terms(name, args.work, set(args.sites))]
        print_terms(rows)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        return 0
    rows = []
    for name in args.sets:
        rows += run_shop() if name == "shop" else run_site_dates(name, args.work, set(args.sites))
    print(f"{'set':13} {'site':40} {'field':10} {'pages':>5} {'right':>5} {'share':>6}  named in / example")
    for r in rows:
        if "skipped" in r:
            print(f"{r['set']:13} {r['site']:40} {'published':10} {'-':>5} {'-':>5} {'-':>6}  skipped: {r['skipped']} "
                  f"({r['train_showing']} of {r['train_stating']} train articles stating a day show it)")
            continue
        share = "-" if r["share"] is None else f"{r['share']:.3f}"
        named = ",".join(r["named"]) + (" (not " + ",".join(r["not_named"]) + ")" if r["not_named"] else "")
        print(f"{r['set']:13} {r['site']:40} {r.get('field', 'published'):10} {r['test_showing']:5d} "
              f"{r['right']:5d} {share:>6}  {named}; {r['example']!r}")
        for w in r.get("wrong", []):
            print(f"{'':13} wrong: {w}")
    scored = [r for r in rows if r.get("share") is not None]
    low = [r for r in scored if r["share"] < 0.98]
    print(f"\n{len(scored)} rows scored, {len(scored) - len(low)} at 0.98 or more"
          + (f"; below: {', '.join(r['site'] + ' ' + r.get('field', 'published') for r in low)}" if low else ""))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
