"""Benchmark of the learned date slot: dates of learned sites' pages whose machine-readable dates are removed.

For each dataset: split each site as benchmarks/layouts.py does
(../shared/tools/split.py), analyze the train pages as they are (they state
their dates: the date slot is learned by agreement with them), then remove from
the test pages every machine-readable date (JSON-LD scripts, date meta tags,
``datetime`` and ``itemprop`` date attributes) and their URLs, so that only the
visible date remains, and extract them.  A test page counts where it is an
article (has gold text, as score.py scores them), the removed metadata stated
a publication date and the stripped page still shows it (some block of its
text reads as that date); the score is the share of those whose
extracted date has the same day (first 10 characters).  trafilatura
(``bare_extraction(..., with_metadata=True)``, htmldate inside) runs on the same
stripped pages.  score.py scores text and titles only, so this script scores
the dates itself.  With --strip-train the train pages lose their dates too (no
agreement to learn from: what the layouts give without).

    python benchmarks/metadata_layouts.py                       # jekyll_sites and web_sites, per site
    python benchmarks/metadata_layouts.py --sets web_sites --json out.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from layouts import load, print_table, run_split  # noqa: E402
from lxml import etree  # noqa: E402

from stemmer import Page, analyze, extract  # noqa: E402
from stemmer.blocks import parse_html, segment  # noqa: E402
from stemmer.metadata import page_signals, parse_date  # noqa: E402
from stemmer.metadata.signals import MODIFIED_META, PUBLISHED_META  # noqa: E402

DATASETS = ["jekyll_sites", "web_sites"]
# The sources of a date a page states for machines, which the benchmark removes.
MACHINE_SOURCES = frozenset({"json-ld", "meta", "itemprop", "time"})
_DATE_KEYS = frozenset(k.lower() for k in (*PUBLISHED_META, *MODIFIED_META, "datecreated"))


def stated_date(root) -> str | None:
    """The publication day the page states for machines (what the benchmark removes), or None."""
    said = next((s for s in page_signals(root).dates if s.source in MACHINE_SOURCES), None)
    return said.value[:10] if said else None


def strip_dates(root) -> str:
    """The page without its machine-readable dates, as HTML: only what a reader sees says when it was published."""
    for script in root.xpath("//script[contains(translate(@type, 'LDJSON', 'ldjson'), 'ld+json')]"):
        script.getparent().remove(script)
    for meta in root.xpath("//meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or meta.get("http-equiv") or "")
        if key.lower() in _DATE_KEYS:
            meta.getparent().remove(meta)
    for el in root.xpath("//*[@datetime]"):
        del el.attrib["datetime"]
    for el in root.xpath("//*[starts-with(@itemprop, 'date')]"):
        for attr in ("content", "itemprop"):
            el.attrib.pop(attr, None)
    return etree.tostring(root, encoding="unicode", method="html")


def shows(html: str, day: str) -> bool:
    """Whether some short block of the page reads as `day`, day or month first."""
    for b in segment(parse_html(html)).blocks:
        if len(b.text) <= 200 and any((d := parse_date(b.text, day_first=o)) and d[:10] == day for o in (True, False)):
            return True
    return False


def trafilatura_dates(pages: list[tuple[str, str]], cache: Path) -> tuple[dict[str, str | None], float | None]:
    """trafilatura's date of each (id, html), and its pages/s (None when read from the cache)."""
    if cache.exists():
        return json.loads(cache.read_text()), None
    import trafilatura

    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    logging.getLogger("htmldate").setLevel(logging.CRITICAL)
    out = {}
    t0 = time.perf_counter()
    for pid, html in pages:
        try:
            doc = trafilatura.bare_extraction(html, with_metadata=True)
            out[pid] = getattr(doc, "date", None) if doc is not None else None
        except Exception:  # an extractor's error counts as no date
            out[pid] = None
    pps = len(pages) / max(time.perf_counter() - t0, 1e-9)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out))
    return out, pps


def run_dataset(dataset: str, work: Path, strip_train: bool, only: set[str]) -> tuple[dict, list[dict]]:
    data = load(dataset)
    if only:
        data = {i: d for i, d in data.items() if d["site"] in only}
    split = run_split(dataset, work)
    split = {side: [i for i in split[side] if i in data] for side in ("train", "test")}
    train = []
    for i in split["train"]:
        d = data[i]
        html = strip_dates(parse_html(d["html"])) if strip_train else d["html"]
        train.append(Page(d["id"], d.get("url"), d["site"], html))
    gold: dict[str, str] = {}
    test: list[Page] = []
    shown: set[str] = set()
    for i in split["test"]:
        d = data[i]
        root = parse_html(d["html"])
        day = stated_date(root)
        html = strip_dates(root)
        test.append(Page(d["id"], None, d["site"], html))
        if day and d.get("text") is not None:  # an article: index pages have no gold text, and no date of their own
            gold[d["id"]] = day
            if shows(html, day):
                shown.add(d["id"])
    t0 = time.perf_counter()
    patterns = analyze(train)
    analyze_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    results = {r.id: r for r in extract(test, patterns)}
    extract_s = time.perf_counter() - t0
    key = hashlib.sha256("\n".join(p.id for p in test).encode()).hexdigest()[:12]
    traf, traf_pps = trafilatura_dates([(p.id, p.html) for p in test if p.id in shown],
                                       work / "cache" / f"{dataset}.{key}.stripped-dates.trafilatura.json")
    sites: dict[str, Counter] = {}
    for p in test:
        c = sites.setdefault(p.site, Counter())
        c["test"] += 1
        if p.id not in gold:
            continue
        c["dated"] += 1
        if p.id not in shown:
            continue
        r = results[p.id]
        c["shown"] += 1
        c["matched"] += r.matched
        c["stemmer"] += bool(r.date) and r.date[:10] == gold[p.id]
        c["from_slot"] += r.date_from == "slot"
        c["traf"] += bool(traf.get(p.id)) and traf[p.id][:10] == gold[p.id]
    rows = []
    for site, c in sorted(sites.items()):
        n = c["shown"]
        rows.append({"dataset": dataset, "site": site, "test": c["test"], "dated": c["dated"], "shown": n,
                     "matched": c["matched"] / n if n else None, "from_slot": c["from_slot"] / n if n else None,
                     "stemmer": c["stemmer"] / n if n else None, "traf": c["traf"] / n if n else None})
    total = sum(sites.values(), Counter())
    n = total["shown"]
    row = {"dataset": dataset, "sites": len(sites), "sites_showing": sum(1 for c in sites.values() if c["shown"]),
           "test": total["test"], "dated": total["dated"], "shown": n,
           "stemmer": total["stemmer"] / n if n else None, "traf": total["traf"] / n if n else None,
           "from_slot": total["from_slot"] / n if n else None,
           "date_slots": sum(1 for sp in patterns.sites.values() for lay in sp.layouts
                             if any(s.role in ("date", "byline") for s in lay.sections)),
           "layouts": sum(len(sp.layouts) for sp in patterns.sites.values()),
           "analyze_s": analyze_s, "extract_pps": len(test) / extract_s, "traf_pps": traf_pps}
    return row, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="*", default=DATASETS)
    ap.add_argument("--work", default="/tmp/stemmer-bench")
    ap.add_argument("--strip-train", action="store_true", help="remove the train pages' machine-readable dates too")
    ap.add_argument("--sites", nargs="*", default=[], help="only these sites")
    ap.add_argument("--json", help="also write the set and site rows as JSON here")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows, sites = [], []
    for d in args.sets:
        row, per_site = run_dataset(d, work, args.strip_train, set(args.sites))
        rows.append(row)
        sites += per_site
    print_table([("dataset", "dataset", "s"), ("sites", "sites", "d"), ("sites showing a date", "sites_showing", "d"),
                 ("test pages", "test", "d"), ("stating a date", "dated", "d"), ("showing it", "shown", "d"),
                 ("layouts", "layouts", "d"), ("with a date slot", "date_slots", "d"),
                 ("stemmer date exact", "stemmer", ".3f"), ("from the slot", "from_slot", ".3f"),
                 ("trafilatura date exact", "traf", ".3f"), ("analyze s", "analyze_s", ".1f"),
                 ("extract p/s", "extract_pps", ".0f"), ("traf p/s", "traf_pps", ".0f")], rows)
    print()
    print_table([("dataset", "dataset", "s"), ("site", "site", "s"), ("test pages", "test", "d"),
                 ("stating a date", "dated", "d"), ("showing it", "shown", "d"), ("matched", "matched", ".3f"),
                 ("stemmer date exact", "stemmer", ".3f"), ("from the slot", "from_slot", ".3f"),
                 ("trafilatura date exact", "traf", ".3f")], sites)
    if args.json:
        Path(args.json).write_text(json.dumps({"sets": rows, "sites": sites}, indent=1))


if __name__ == "__main__":
    main()
