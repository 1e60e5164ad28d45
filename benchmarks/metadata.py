"""Title, date and author of unseen pages: stemmer without patterns beside trafilatura and htmldate, same pages.

    python benchmarks/metadata.py                          # dates mceb wcxb l3s_gn1; stripped jekyll_sites web_sites
    python benchmarks/metadata.py --sets dates mceb        # the date sets and the stripped sites (issue 43's dates)
    python benchmarks/metadata.py --sets mceb --stripped   # only mceb
    python benchmarks/metadata.py --dateparser             # also time dateparser against our parse_date

stemmer: `stemmer.extract_html(html, url)` (the generic model, no patterns).
trafilatura: `bare_extraction(html, url=url, with_metadata=True)`.
htmldate (dates only): `find_date(html, url=url, original_date=True, extensive_search=True)`, as
htmldate's own evaluation runs it (with the URL the other two are given).

Scores, per set and (mceb) per page type, on the pages with gold of each kind:
  title   exact match as ../shared/tools/score.py scores it (NFKC, case-folded, spaces
          collapsed); the set's whole-run figure is score.py's own `title_exact_all`,
          run on the predictions (and the scored pages' gold) written to --work.
  date    the first 10 characters equal the gold date (score.py does not score dates).
  author  equal after case-folding, dropping punctuation and the word "by".
Beside them: how many pages without a gold date or author got one anyway.

Stripped (--stripped SETS): the page's machine-readable dates are removed (JSON-LD,
meta tags, `datetime`/`content` of dated elements, the URL), so only the date the page
shows is left; the gold is what the removed statements said (the first of JSON-LD,
meta, microdata, `<time>` in `page_signals`' order).  Pages without such a statement
are left out; `--per-site` pages of each site are taken (by a hash of the id).

At the end, the exact-date share of each tool on each set (the stripped sets
pooled), and every page where a tool missed its gold date is written to
--work/date-misses.jsonl (the set, page, gold, each tool's date and stemmer's
`date_from`) for analysis.

Speed: the seconds per page of each tool's whole extraction, and of stemmer's
metadata step alone (`page_metadata` on the parsed page).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import logging
import re
import subprocess
import sys
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TOOLS = SHARED / "tools"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(TOOLS))

import stemmer  # noqa: E402
from score import title_exact  # noqa: E402
from stemmer.blocks import parse_html  # noqa: E402
from stemmer.metadata import page_metadata, page_signals  # noqa: E402

TITLE_SETS = ("dates", "mceb", "wcxb", "l3s_gn1")
STRIPPED_SETS = ("jekyll_sites", "web_sites")
_PUNCT = re.compile(r"[^\w\s]")
_LD_JSON = re.compile(r"<script[^>]*ld\+json[^>]*>.*?</script>", re.I | re.S)
_DATE_META = re.compile(r"<meta[^>]*(?:date|time|pubdate|published|modified|sailthru|parsely)[^>]*>", re.I)
_DATED_ATTR = re.compile(r"\s(?:datetime|content)\s*=\s*(?:\"[^\"]*\"|'[^']*')", re.I)


def norm_author(text: str | None) -> str:
    """An author as the issue scores it: case-folded, punctuation and the word "by" dropped."""
    if not text:
        return ""
    text = _PUNCT.sub(" ", unicodedata.normalize("NFKC", text).casefold())
    return " ".join(w for w in text.split() if w != "by")


def read_set(name: str):
    with gzip.open(SHARED / "data" / name / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def strip_dates(html: str) -> str:
    """The page without its machine-readable dates: JSON-LD, dated meta tags, datetime/content attributes."""
    html = _LD_JSON.sub("", html)
    html = _DATE_META.sub("", html)
    return re.sub(r"<(time|[a-z0-9]+\s[^>]*itemprop\s*=\s*[\"']date)[^>]*>",
                  lambda m: _DATED_ATTR.sub("", m.group(0)), html, flags=re.I)


def stated_date(html: str) -> str | None:
    """The date the page states in its markup (not its URL), first 10 characters."""
    s = next((s for s in page_signals(parse_html(html), None).dates if s.source != "url"), None)
    return s.value[:10] if s else None


def run_stemmer(page: dict) -> dict:
    ex = stemmer.extract_html(page["html"], page.get("url"))
    return {"title": ex.title, "date": ex.date, "author": ex.author, "text": ex.text, "date_from": ex.date_from}


def run_trafilatura(page: dict) -> dict:
    from trafilatura import bare_extraction

    try:
        doc = bare_extraction(page["html"], url=page.get("url"), with_metadata=True)
    except Exception:  # noqa: BLE001 - a page trafilatura fails on scores 0, as a crash of ours would
        doc = None
    doc = doc.as_dict() if hasattr(doc, "as_dict") else (doc or {})
    return {"title": doc.get("title"), "date": doc.get("date"), "author": doc.get("author"), "text": doc.get("text")}


def run_htmldate(page: dict) -> dict:
    from htmldate import find_date

    try:
        found = find_date(page["html"], url=page.get("url"), original_date=True, extensive_search=True)
    except Exception:  # noqa: BLE001 - as trafilatura's
        found = None
    return {"title": None, "date": found, "author": None, "text": None}


# What each tool gives: htmldate reads dates only.
FIELDS = {"stemmer": ("title", "date", "author"), "trafilatura": ("title", "date", "author"), "htmldate": ("date",)}


def date_hit(pred: dict, gold: str) -> bool:
    return (pred["date"] or "")[:10] == gold


def timed(fn, pages):
    out, start = [], time.perf_counter()
    for p in pages:
        out.append(fn(p))
    return out, (time.perf_counter() - start) / max(len(pages), 1)


def peer_predictions(tool: str, fn, pages: list[dict], cache: Path | None) -> tuple[list[dict], float | None]:
    """A peer tool's predictions and seconds per page; with `cache`, read from there when these
    exact pages were run before (seconds None), else run and written there."""
    if cache is None:
        return timed(fn, pages)
    key = hashlib.sha256("".join(p["id"] + p["html"] for p in pages).encode()).hexdigest()[:16]
    path = cache / f"{tool}.{key}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8")), None
    preds, secs = timed(fn, pages)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(preds), encoding="utf-8")
    tmp.replace(path)
    return preds, secs


def run_all(tools: dict, pages: list[dict], cache: Path | None) -> tuple[dict, dict]:
    """Each tool's predictions on `pages` and its seconds per page (None: a peer's, from the cache)."""
    preds, secs = {}, {}
    for tool, fn in tools.items():
        preds[tool], secs[tool] = timed(fn, pages) if tool == "stemmer" else peer_predictions(tool, fn, pages, cache)
    return preds, secs


def metadata_seconds(pages) -> float:
    """Seconds per page of the metadata step alone, on pages already parsed."""
    roots = [(parse_html(p["html"]), p) for p in pages]
    start = time.perf_counter()
    for root, p in roots:
        page_metadata(root, p.get("url"), p.get("title"))
    return (time.perf_counter() - start) / max(len(roots), 1)


def score_titles(name: str, preds: list[dict], pages: list[dict], work: Path, tool: str) -> float | None:
    """score.py's title_exact_all on the predictions of `tool`, written to --work."""
    path, gold = work / f"{name}.{tool}.jsonl", work / f"{name}.gold.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for p, pred in zip(pages, preds):
            f.write(json.dumps({"id": p["id"], "text": pred["text"] or "", "title": pred["title"]}) + "\n")
    with gold.open("w", encoding="utf-8") as f:  # the pages scored here (all, or the --limit first)
        for p in pages:
            f.write(json.dumps({k: p.get(k) for k in ("id", "dataset", "site", "url", "text", "title", "lang")}) + "\n")
    res = subprocess.run([sys.executable, str(TOOLS / "score.py"), "--gold", str(gold),
                          "--pred", str(path), "--json"], capture_output=True, text=True, check=True)
    return json.loads(res.stdout).get("title_exact_all")


def cell(hits: list[bool]) -> str:
    return f"{sum(hits) / len(hits):.3f}" if hits else "  -  "


def table(name: str, pages: list[dict], preds: dict[str, list[dict]], by_type: bool) -> None:
    groups = defaultdict(list)
    for i, p in enumerate(pages):
        groups["all"].append(i)
        if by_type:
            groups[p["id"].rsplit("-", 1)[-1]].append(i)
    kinds = [k for k in ("title", "date", "author") if any(p.get(k) for p in pages)]
    columns = [(k, t) for k in kinds for t in preds if k in FIELDS[t]]
    head = f"{'type':<14}" + "".join(f"{k + ' ' + t:>22}" for k, t in columns)
    print(f"\n{name}: exact-match share (n pages with gold)\n{head}")
    for group, idx in sorted(groups.items(), key=lambda g: (g[0] != "all", -len(g[1]))):
        row = f"{group:<14}"
        for kind, t in columns:
            scored = [i for i in idx if pages[i].get(kind)]
            if kind == "title":
                hits = [title_exact(preds[t][i]["title"], pages[i]["title"]) for i in scored]
            elif kind == "date":
                hits = [date_hit(preds[t][i], pages[i]["date"]) for i in scored]
            else:
                hits = [norm_author(preds[t][i]["author"]) == norm_author(pages[i]["author"]) for i in scored]
            row += f"{cell(hits) + f' ({len(scored)})':>22}"
        print(row)
    for kind in ("date", "author"):
        none = [i for i, p in enumerate(pages) if p.get(kind) is None]
        if kind in kinds and none:
            print(f"pages without gold {kind} given one: " + ", ".join(
                f"{t} {sum(bool(preds[t][i][kind]) for i in none)}/{len(none)}" for t in preds if kind in FIELDS[t]))


def date_misses(name: str, pages: list[dict], preds: dict[str, list[dict]]) -> list[dict]:
    """The pages with a gold date that some tool missed: the gold, each tool's date, stemmer's source."""
    out = []
    for i, p in enumerate(pages):
        if p.get("date") and not all(date_hit(preds[t][i], p["date"]) for t in preds):
            out.append({"set": name, "id": p["id"], "site": p.get("site"), "url": p.get("url"),
                        "lang": p.get("lang"), "gold": p["date"],
                        **{t: preds[t][i]["date"] for t in preds},
                        "stemmer_from": preds["stemmer"][i].get("date_from")})
    return out


def sample(pages: list[dict], per_site: int) -> list[dict]:
    by_site = defaultdict(list)
    for p in pages:
        by_site[p["site"]].append(p)
    out = []
    for site in sorted(by_site):
        out += sorted(by_site[site], key=lambda p: hashlib.sha256(p["id"].encode()).hexdigest())[:per_site]
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="*", default=list(TITLE_SETS), help="sets with gold titles (and dates, authors)")
    ap.add_argument("--stripped", nargs="*", default=list(STRIPPED_SETS),
                    help="sets whose pages are stripped of their stated dates (none: leave out)")
    ap.add_argument("--per-site", type=int, default=15, help="pages per site of the stripped sets")
    ap.add_argument("--limit", type=int, default=0, help="at most this many pages of each set (0: all)")
    ap.add_argument("--no-trafilatura", action="store_true")
    ap.add_argument("--no-htmldate", action="store_true")
    ap.add_argument("--cache", action="store_true",
                    help="read trafilatura's and htmldate's predictions from --work/cache where these pages were "
                         "run before (no timing of them then); write them there")
    ap.add_argument("--dateparser", action="store_true", help="also time dateparser.parse against parse_date")
    ap.add_argument("--work", type=Path, default=Path("/tmp/stemmer-metadata-bench"))
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)
    args.work.mkdir(parents=True, exist_ok=True)
    tools = ({"stemmer": run_stemmer} | ({} if args.no_trafilatura else {"trafilatura": run_trafilatura})
             | ({} if args.no_htmldate else {"htmldate": run_htmldate}))
    speed, exact, misses = [], {}, []
    cache = args.work / "cache" if args.cache else None
    for name in args.sets:
        pages = [p for p in read_set(name) if p.get("title") or p.get("date") or p.get("author")]
        if name in STRIPPED_SETS:
            pages = [p for p in pages if p.get("text") is not None]  # article pages
        pages = pages[:args.limit] if args.limit else pages
        preds, secs = run_all(tools, pages, cache)
        table(name, pages, preds, by_type=name == "mceb")
        if any(p.get("title") for p in pages):
            print("score.py title_exact_all: " + ", ".join(
                f"{t} {score_titles(name, preds[t], pages, args.work, t):.3f}" for t in tools if "title" in FIELDS[t]))
        dated = [i for i, p in enumerate(pages) if p.get("date")]
        if dated:
            exact[name] = {t: [date_hit(preds[t][i], pages[i]["date"]) for i in dated] for t in tools}
            misses += date_misses(name, pages, preds)
        speed.append((name, len(pages), secs, metadata_seconds(pages)))
    for name in args.stripped:
        pages = []
        for p in sample([p for p in read_set(name) if p.get("text") is not None], args.per_site):
            gold = stated_date(p["html"])
            if gold:
                pages.append({"id": p["id"], "site": p["site"], "url": None, "html": strip_dates(p["html"]),
                              "date": gold, "lang": p.get("lang")})
        preds = run_all(tools, pages, cache)[0]
        stripped = exact.setdefault("stripped " + "+".join(args.stripped), {t: [] for t in tools})
        for t in tools:
            stripped[t] += [date_hit(preds[t][i], p["date"]) for i, p in enumerate(pages)]
        misses += date_misses(f"{name} stripped", pages, preds)
        print(f"\n{name}, stated dates stripped: date exact share per site (n pages)")
        sites = sorted({p["site"] for p in pages})
        print(f"{'site':<28}{'lang':>5}" + "".join(f"{t:>14}" for t in tools))
        for site in sites + ["all"]:
            idx = [i for i, p in enumerate(pages) if site in ("all", p["site"])]
            lang = pages[idx[0]]["lang"] if site != "all" else ""
            print(f"{site:<28}{lang:>5}" + "".join(
                f"{cell([date_hit(preds[t][i], pages[i]['date']) for i in idx]) + f' ({len(idx)})':>14}"
                for t in tools))
    if exact:
        print("\ndate exact share per set (n pages with a gold date)")
        print(f"{'set':<34}{'n':>5}" + "".join(f"{t:>14}" for t in tools))
        for name, hits in exact.items():
            print(f"{name:<34}{len(hits['stemmer']):>5}" + "".join(f"{cell(hits[t]):>14}" for t in tools))
        path = args.work / "date-misses.jsonl"
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in misses), encoding="utf-8")
        tmp.replace(path)
        print(f"pages some tool missed: {len(misses)}, in {path}")
    if speed:
        print("\nseconds per page: " + "; ".join(
            f"{name} ({n}): " + ", ".join(f"{t} {s:.4f}" if s is not None else f"{t} (cached)"
                                          for t, s in secs.items()) + f", stemmer's metadata step {m:.4f}"
            for name, n, secs, m in speed))
    if args.dateparser:
        time_dateparser()


def time_dateparser() -> None:
    """Per-call seconds and answers of dateparser.parse (with the language given) and parse_date."""
    import dateparser

    from stemmer.metadata import parse_date
    from stemmer.metadata.dates import _parsed  # its memo, emptied before each call: the time of a reading

    cases = [("March 5, 2024", "en"), ("5 mars 2024", "fr"), ("12 Marzo 2021", "it"), ("2024年3月5日", "ja"),
             ("۱۴ فروردین ۱۴۰۲", "fa"), ("Updated on June 18, 2025 at 12:35 PM", "en"),
             ("Table of Contents", "en"), ("By Jane Doe", "en")]
    start = time.perf_counter()
    dateparser.parse("1 January 2020", languages=["en"])
    print(f"\ndateparser: first call (imports, loads) {time.perf_counter() - start:.2f} s")
    print(f"{'text':<40}{'dateparser':>22}{'ms':>8}{'parse_date':>22}{'ms':>8}")
    for text, lang in cases:
        row = f"{text!r:<40}"
        for fn in (lambda: dateparser.parse(text, languages=[lang]),
                   lambda: _parsed.cache_clear() or parse_date(text, lang=lang)):
            start = time.perf_counter()
            for _ in range(20):
                got = fn()
            ms = (time.perf_counter() - start) / 20 * 1000
            got = got.isoformat()[:10] if hasattr(got, "isoformat") else got
            row += f"{str(got):>22}{ms:>8.3f}"
        print(row)


if __name__ == "__main__":
    main()
