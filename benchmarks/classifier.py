"""Benchmark of the block classifier (the fallback for pages no pattern covers), beside trafilatura and readability.

Site-grouped cross-validation on the single-page sets: the sites of all sets
together are dealt into K folds (largest first, each to the fold with the
fewest pages, ties in sha256 order, as ../shared/tools/split.py
--by-site-folds does for one set), so a site that appears in two sets sits
in one fold and no page is scored by a model that saw its site.  Every page
is predicted once, by the model of its fold; the predictions of each set
are scored with ../shared/tools/score.py (per character for Chinese) beside
trafilatura (../shared/tools/baseline.py) and readability-lxml run on the same
pages.  jekyll_sites and web_sites count their article pages (those with gold).
A model trains on at most `train.PAGES_PER_SITE` pages of each site (chosen by a hash of
the id), so a big site does not dominate.

Rows (the shipped configuration, train.py's defaults, unless said otherwise):
  thesis    the thesis baseline (seed 000): embedding + position + ancestor tags -> logistic regression
  logreg    all cheap feature groups -> logistic regression, no second stage
  chosen    trained on every set (not shippable: cleaneval, l3s_gn1 and dragnet may not train it)
  gold2     trained on the gold of wcxb and zh_cwced (the shipped model's configuration)
  gold3     trained on the gold of wcxb, zh_cwced and mceb (mceb may train the shipped model)
  gold3+roles   the same with the `roles` group (captions, embedded posts, dialogs)
  gold2+static  the same with the static model's embeddings (`embed` group)
  gold2-even    the same, every training block weighted alike (not by the square root of its letters)
  gold2^0.75, gold2^1  the same, a block weighted by its letters to the power 0.75 or 1
  gold2-slow, gold2-l2  the same trees learning at half the rate for twice the rounds, or regularized
  gold2-vocab   the same with 60 tags and 200 class/id words (not 40 and 100)
  gold2-bag5    the same, its first stage the average of 5 models fitted on bootstrap samples of the sites
  gold2+marks   the same with the `marks` group (inside an element named as an article body)
  shipped   trained on the gold of the shippable sets (SHIPPABLE)
  patterns  gold of wcxb and zh_cwced, plus the blocks the learned patterns of the jekyll_sites and
            web_sites sites label (`stemmer train`'s labels, no gold of those sites)
  shipped+patterns  shipped, plus the pattern-labelled pages of those sites that have no gold
            (home, tag, archive pages)

Then pages/s of the fallback (parse, features, classifier, title) against
trafilatura's text+title on the same pages, one process, and the seconds of
a pattern-only `stemmer extract` of one page (a fresh interpreter).

    python benchmarks/classifier.py                       # everything (~1 h on 2 cores)
    python benchmarks/classifier.py --rows chosen --folds 2 --sets cleaneval zh_cwced
    python benchmarks/classifier.py --ablate              # chosen minus each feature group
    python benchmarks/classifier.py --rows shipped --ablate   # the same for the shipped training sets too
    python benchmarks/classifier.py --rows gold2 --sets wcxb zh_cwced --minilm-pages 200 --folds 2 --no-baseline
        # no embedding / the static model / MiniLM for the shipped configuration, on 200 of its training pages
    python benchmarks/classifier.py --kept-boilerplate 120 --sets dragnet l3s_gn1 cleaneval
        # per-block error analysis: where the boilerplate the shipped model keeps lies
    python benchmarks/classifier.py --held-out generic /tmp/new/model --sets cleaneval l3s_gn1 dragnet
        # saved models, no CV, on sets none of them trained on (the whole `extract` fallback path)
    python benchmarks/classifier.py --dump-probs generic --sets cleaneval l3s_gn1 dragnet mceb jekyll_sites web_sites --work W
    python benchmarks/classifier.py --decide-only generic --work W --decision-sets mceb jekyll_sites web_sites
        # the Viterbi decision (benchmarks/viterbi.py) fitted and scored under site-grouped CV on cached
        # probabilities (a CV run's own cache works too: --decide-only ROW --work of that run)

Every run prints SH precision / recall / F1 of each system, and F1 by page type for mceb and wcxb.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stemmer.blocks import parse_html  # noqa: E402
from stemmer.classify import train as T  # noqa: E402
from stemmer.classify.site_model import pattern_labelled_pages  # noqa: E402
from stemmer.classify.embed import CachedEmbedder, SentenceTransformerEmbedder, StaticEmbedder  # noqa: E402
from stemmer.classify.features import GROUPS, Featurizer, Vocabulary, page_table  # noqa: E402
from stemmer.classify.model import BlockClassifier  # noqa: E402
from stemmer.classify.title import choose_title  # noqa: E402
from stemmer.extract.decide import page_blocks  # noqa: E402

SHARED = ROOT.parent / "shared"
TOOLS = SHARED / "tools"
SETS = ["cleaneval", "l3s_gn1", "wcxb", "dragnet", "zh_cwced", "mceb", "jekyll_sites", "web_sites"]
# CC BY 4.0, MIT, Apache-2.0 and our own conversion's gold; the others are research-only or AGPL (see the data card)
SHIPPABLE = ["wcxb", "zh_cwced", "mceb", "jekyll_sites", "web_sites"]
TYPED = ("wcxb", "mceb")  # sets whose pages say their type (mceb's page_type, wcxb's id suffix)
CRAWLS = ["jekyll_sites", "web_sites"]  # multi-page sites whose learned patterns label pages
BIG_TAGS, BIG_ATTRS = 120, 600  # the union vocabulary features are computed with once; folds pick from it
CHEAP = tuple(g for g in GROUPS if g != "embed")


# --- data -----------------------------------------------------------------------------

def load_set(name: str) -> list[dict]:
    with gzip.open(SHARED / "data" / name / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def page_type(record: dict) -> str:
    """The type of a page of a typed set: mceb's ``page_type``, wcxb's id suffix (``dev-0003-article``)."""
    return record.get("page_type") or record["id"].rsplit("-", 1)[-1]


def site_folds(pages: list[dict], k: int, seed: int = 0) -> dict[str, int]:
    """Fold of every site: largest sites first, each to the fold with the fewest pages."""
    size = Counter(p["site"] for p in pages)
    order = sorted(size, key=lambda s: (-size[s], hashlib.sha256(f"{seed}:site:{s}".encode()).hexdigest()))
    load = [0] * k
    fold = {}
    for s in order:
        f = min(range(k), key=lambda i: (load[i], i))
        fold[s] = f
        load[f] += size[s]
    return fold


def pattern_pages(name: str, records: list[dict], log) -> list[T.LabelledPage]:
    """`stemmer train`'s labelled pages of a crawl set: each site analyzed on all its pages."""
    from stemmer import Page, analyze

    t0 = time.perf_counter()
    pages = [Page(r["id"], r.get("url"), r["site"], r["html"]) for r in records]
    patterns = analyze(pages, site_model=False)
    got = pattern_labelled_pages(pages, patterns)
    gold = {r["id"] for r in records if r.get("text") is not None}
    for p in got:
        p.dataset = f"patterns:{name}:{'gold' if p.id in gold else 'other'}"
    log(f"{name}: {len(got)} pattern-labelled pages ({time.perf_counter() - t0:.0f} s)")
    return got


class Corpus:
    """All labelled pages with their features, computed once with a large vocabulary."""

    def __init__(self, sets: list[str], embed: bool, log, patterns: bool = False) -> None:
        self.pages: list[T.LabelledPage] = []
        self.raw: list[dict] = []
        self.page_type: dict[str, str] = {}
        self.titles: list[str | None] = []
        for name in sets + ([c for c in CRAWLS if c not in sets] if patterns else []):
            t0 = time.perf_counter()
            records = load_set(name)
            got = []
            for p in T.labelled_pages(iter(records), keep_root=True) if name in sets else ():
                p.dataset = name
                self.titles.append(choose_title(p.table, p.root)[0])
                p.root = None  # the trees would hold most of the memory, and the title was all they served
                got.append(p)
            self.pages += got
            self.raw += [r for r in records if r.get("text") is not None and name in sets]
            if name in TYPED:
                TYPE_OF[name] = {r["id"]: page_type(r) for r in records}
                self.page_type.update(TYPE_OF[name])
            if patterns and name in CRAWLS:
                extra = pattern_pages(name, records, log)
                self.pages += extra
                self.titles += [None] * len(extra)  # training pages only
            rec = sum(p.gold_aligned for p in got) / max(1, sum(p.gold_tokens for p in got))
            if name in sets:
                log(f"{name}: {len(got)} pages, {sum(len(p.labels) for p in got)} blocks, "
                    f"gold tokens recovered by the alignment {rec:.3f} ({time.perf_counter() - t0:.0f} s)")
        self.vocab = Vocabulary.learn([p.table for p in self.pages], n_tags=BIG_TAGS, n_attrs=BIG_ATTRS)
        t0 = time.perf_counter()
        big = Featurizer(self.vocab, CHEAP)
        self.names = big.names
        self.X = [big.transform(p.table) for p in self.pages]
        log(f"features: {sum(len(x) for x in self.X)} blocks x {len(self.names)} ({time.perf_counter() - t0:.0f} s)")
        self.E = None
        if embed:
            t0 = time.perf_counter()
            emb = CachedEmbedder(StaticEmbedder(), size=10**7)
            self.E = [emb.encode([b.text for b in p.table.blocks]) for p in self.pages]
            log(f"static embeddings ({time.perf_counter() - t0:.0f} s)")

    def matrices(self, clf: BlockClassifier, idx: list[int]) -> list[np.ndarray]:
        """The feature matrices of pages `idx` for a classifier whose vocabulary is a subset of ours."""
        names = [n for n in clf.featurizer_.names if not n.startswith("emb_")]
        col = {n: i for i, n in enumerate(self.names)}
        cols = np.array([col[n] for n in names], dtype=np.int64)
        out = []
        for i in idx:
            m = self.X[i][:, cols]
            if "embed" in clf.featurizer_.groups:
                m = np.hstack([m, self.E[i]])
            out.append(m)
        return out


def fold_vocab(corpus: Corpus, idx: list[int], n_tags: int, n_attrs: int) -> Vocabulary:
    """`Vocabulary.learn` on the training pages, among the words the corpus features have columns for."""
    tags, attrs = Counter(), Counter()
    for i in idx:
        t = corpus.pages[i].table
        seen = {e for anc in t.ancestors for e in anc}
        tags.update({t.elements[e][0] for e in seen})
        attrs.update({w for e in seen for w in t.elements[e][1]})
    known_t, known_a = set(corpus.vocab.tags), set(corpus.vocab.attrs)
    top = lambda c, known, n: tuple(sorted([w for w, _ in c.most_common() if w in known][:n]))  # noqa: E731
    return Vocabulary(top(tags, known_t, n_tags), top(attrs, known_a, n_attrs))


# --- models ---------------------------------------------------------------------------

def with_embedding(spec: dict) -> dict:
    """The same row with the static model's embeddings (the `embed` group) added."""
    return dict(spec, embed=True, groups=tuple(dict.fromkeys(spec["groups"] + ("embed",))))


CHOSEN = dict(estimator=T.DEFAULT_ESTIMATOR, groups=T.DEFAULT_GROUPS, context=True, embed="embed" in T.DEFAULT_GROUPS,
              letter_power=T.LETTER_POWER, bags=T.BAGS)
GOLD2 = dict(CHOSEN, train_sets=["wcxb", "zh_cwced"])  # the shipped model's configuration and data
GOLD3 = dict(CHOSEN, train_sets=["wcxb", "zh_cwced", "mceb"])  # the same with mceb
PATTERN_SETS = [f"patterns:{c}:{kind}" for c in CRAWLS for kind in ("gold", "other")]
ROWS = {
    "thesis": dict(estimator="logreg", groups=("pos", "tags", "embed"), context=False, embed=True),
    "logreg": dict(estimator="logreg", groups=CHEAP, context=False, embed=False),
    "chosen": CHOSEN,
    "gold2": GOLD2,
    "gold2-even": dict(GOLD2, letter_power=0.0),
    "gold2^0.75": dict(GOLD2, letter_power=0.75),
    "gold2^1": dict(GOLD2, letter_power=1.0),
    "gold2-slow": dict(GOLD2, params={"learning_rate": 0.05, "max_iter": 400}),
    "gold2-l2": dict(GOLD2, params={"l2_regularization": 1.0, "min_samples_leaf": 50}),
    "gold2-vocab": dict(GOLD2, vocab={"n_tags": 60, "n_attrs": 200}),
    "gold2-bag5": dict(GOLD2, bags=5),
    "gold2+marks": dict(GOLD2, groups=GOLD2["groups"] + ("marks",)),
    "gold2-pages": dict(GOLD2, page_total=1000.0),
    "gold2+static": with_embedding(GOLD2),
    "gold3": GOLD3,
    "shipped": dict(CHOSEN, train_sets=SHIPPABLE),
    "gold3+roles": dict(GOLD3, groups=GOLD3["groups"] + ("roles",)),
    "patterns": dict(CHOSEN, train_sets=GOLD2["train_sets"] + PATTERN_SETS),
    "shipped+patterns": dict(CHOSEN, train_sets=SHIPPABLE + [f"patterns:{c}:other" for c in CRAWLS]),
}


def cross_validate(corpus: Corpus, spec: dict, folds: dict[str, int], k: int, log) -> np.ndarray:
    """Per page, the probabilities of its blocks from the model of its fold."""
    probs: list[np.ndarray | None] = [None] * len(corpus.pages)
    train_sets = set(spec.get("train_sets", SETS))
    for f in range(k):
        t0 = time.perf_counter()
        train = [i for i, p in enumerate(corpus.pages) if folds[p.site] != f and p.dataset in train_sets]
        train = [train[j] for j in T.per_site([corpus.pages[i] for i in train], spec.get("per_site", T.PAGES_PER_SITE))]
        test = [i for i, p in enumerate(corpus.pages) if folds[p.site] == f and p.weights is None]
        clf = BlockClassifier(estimator=spec["estimator"], groups=spec["groups"], context=spec["context"],
                              threshold=T.DEFAULT_THRESHOLD, params=spec.get("params"), bags=spec.get("bags", 1),
                              embedder=StaticEmbedder() if spec["embed"] else None, **spec.get("vocab", {}))
        clf.vocab_ = fold_vocab(corpus, train, clf.n_tags, clf.n_attrs)
        clf.featurizer_ = Featurizer(clf.vocab_, clf.groups, clf._cached_embedder())
        weights = [np.asarray(T.block_weights(corpus.pages[i], power=spec.get("letter_power", 0.0),
                                              page_total=spec.get("page_total")), dtype=np.float64)
                   for i in train]
        clf.fit_arrays(corpus.matrices(clf, train), [np.asarray(corpus.pages[i].labels) for i in train],
                       [corpus.pages[i].table for i in train], sites=[corpus.pages[i].site for i in train],
                       weights=weights)
        for i, m in zip(test, corpus.matrices(clf, test)):
            probs[i] = clf.proba_from_features(m, corpus.pages[i].table)
        log(f"  fold {f}: {len(train)} train pages, {len(test)} test pages ({time.perf_counter() - t0:.0f} s)")
    return probs


def save_probs(corpus: Corpus, probs, work: Path, row: str) -> None:
    """The row's out-of-fold probabilities, and the pages they belong to, for `--decide-only`."""
    import pickle

    keep = [i for i, pr in enumerate(probs) if pr is not None]
    np.savez_compressed(work / f"probs.{row}.npz", ids=np.array([corpus.pages[i].id for i in keep]),
                        **{f"p{n}": probs[i] for n, i in enumerate(keep)})
    cache = work / "pages.pkl"  # the benchmark's own cache, never a user's file
    if not cache.exists():
        light = [dict(id=p.id, site=p.site, dataset=p.dataset, table=p.table, labels=p.labels, gold=p.gold,
                      title=corpus.titles[i], page_type=corpus.page_type.get(p.id)) for i, p in
                 enumerate(corpus.pages) if probs[i] is not None]
        tmp = cache.with_suffix(".tmp")
        with tmp.open("wb") as f:
            pickle.dump(light, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(cache)


def write_predictions(corpus: Corpus, probs, threshold: float, work: Path, row: str) -> dict[str, Path]:
    out = {}
    files = {}
    for i, p in enumerate(corpus.pages):
        if probs[i] is None:  # a pattern-labelled training page
            continue
        title = corpus.titles[i]
        text = "\n".join(b.text for b, main in zip(p.table.blocks, page_blocks(p.table, probs[i], threshold))
                         if main)
        if p.dataset not in files:
            out[p.dataset] = work / f"{p.dataset}.{row}.jsonl"
            files[p.dataset] = out[p.dataset].open("w", encoding="utf-8")
        files[p.dataset].write(json.dumps({"id": p.id, "text": text, "title": title, "matched": False},
                                          ensure_ascii=False) + "\n")
    for f in files.values():
        f.close()
    return out


def score(dataset: str, pred: Path) -> dict:
    """score.py's summary of `pred`; for a typed set (`TYPED`) also ``by_type``: SH F1 of each page type."""
    pages_out = pred.with_suffix(".pages.jsonl")
    res = subprocess.run([sys.executable, str(TOOLS / "score.py"), "--gold", str(SHARED / "data" / dataset),
                          "--pred", str(pred), "--json", "--pages-out", str(pages_out)],
                         check=True, capture_output=True, text=True)
    out = json.loads(res.stdout)
    if dataset in TYPED:
        if dataset not in TYPE_OF:
            TYPE_OF[dataset] = {r["id"]: page_type(r) for r in load_set(dataset)}
        scored: dict[str, list[float]] = {}
        with pages_out.open(encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                if row.get("text_scored"):
                    scored.setdefault(TYPE_OF[dataset][row["id"]], []).append(row["sh_f1"])
        out["by_type"] = {t: (float(np.mean(v)), len(v)) for t, v in scored.items()}
    return out


TYPE_OF: dict[str, dict[str, str]] = {}  # per typed set, the type of each page id (filled as sets load)


def trafilatura(dataset: str, work: Path) -> tuple[Path, dict]:
    out = work / f"{dataset}.trafilatura.jsonl"
    res = subprocess.run([sys.executable, str(TOOLS / "baseline.py"), str(SHARED / "data" / dataset),
                          "-o", str(out), "--json", "--gold-only"], check=True, capture_output=True, text=True)
    return out, json.loads(res.stdout.strip().splitlines()[-1])


def readability(dataset: str, records: list[dict], work: Path) -> tuple[Path, float]:
    """readability-lxml's ``Document(html).summary()`` as text (one block a line) and ``short_title()``.

    Returns the predictions and the pages/s of summary + title (the text conversion is not timed).
    """
    import logging

    from readability import Document

    from stemmer import html2txt

    logging.getLogger("readability").setLevel(logging.CRITICAL)
    out = work / f"{dataset}.readability.jsonl"
    Document("<html><body><p>" + "warm up text. " * 40 + "</p></body></html>").summary()
    seconds = 0.0
    with out.open("w", encoding="utf-8") as f:
        for r in records:
            t0 = time.perf_counter()
            try:
                doc = Document(r["html"])
                summary, title = doc.summary(), doc.short_title()
            except Exception:  # noqa: BLE001 - a page readability fails on scores 0, as a peer's crash would
                summary, title = "", None
            seconds += time.perf_counter() - t0
            f.write(json.dumps({"id": r["id"], "text": html2txt(summary) if summary else "", "title": title},
                               ensure_ascii=False) + "\n")
    return out, len(records) / max(seconds, 1e-9)


# --- speed ----------------------------------------------------------------------------

def fallback_speed(records: list[dict], model_path: Path | None) -> float:
    """Pages/s of the fallback on raw HTML: parse, blocks, features, classifier and title."""
    from stemmer.extract.fallback import Fallback

    fb = Fallback(str(model_path) if model_path else "generic")
    fb.extract("warm", None, "x", parse_html("<p>warm up</p>"))
    t0 = time.perf_counter()
    for r in records:
        fb.extract(r["id"], r.get("url"), r["site"], parse_html(r["html"]))
    return len(records) / (time.perf_counter() - t0)


ONE_PAGE = """
import sys, time
from stemmer.cli import main
status = main(["extract", "-q", "--no-fallback", "-p", sys.argv[1], sys.argv[2]])
assert status == 0 and "torch" not in sys.modules
"""


def one_page_seconds() -> float:
    """Wall seconds of a fresh `stemmer extract -p` of one page of the demo site, patterns only."""
    from stemmer import analyze, read_pages, save_patterns

    with tempfile.TemporaryDirectory() as tmp:
        save_patterns(analyze(read_pages(str(ROOT / "stemmer" / "demo" / "site"))), Path(tmp) / "p")
        page = next(iter(sorted((ROOT / "stemmer" / "demo" / "site").rglob("news/2024/01/*.html"))))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", ONE_PAGE, str(Path(tmp) / "p"), str(page)], check=True,
                       capture_output=True)
        return time.perf_counter() - t0


# --- saved models on sets they never saw -------------------------------------------------

def held_out(models: list[str], sets: list[str], work: Path, log, peers: bool = True) -> list[dict]:
    """Each model's fallback (as `extract` runs it) on every page with gold, beside trafilatura and readability.

    Returns one dict of cells a set (SH F1 and pages/s of each model and peer).
    """
    from stemmer.extract.fallback import Fallback

    rows = []
    for ds in sets:
        records = [r for r in load_set(ds) if r.get("text") is not None]
        cells = {"dataset": ds, "pages": len(records)}
        scores: dict[str, dict] = {}
        for m in models:
            fb = Fallback(m)
            fb.extract("warm", None, "x", parse_html("<p>warm up</p>"))
            out = work / f"{ds}.{Path(m).name}.jsonl"
            t0 = time.perf_counter()
            with out.open("w", encoding="utf-8") as f:
                for r in records:
                    ex = fb.extract(r["id"], r.get("url"), r["site"], parse_html(r["html"]))
                    f.write(json.dumps({"id": r["id"], "text": ex.text, "title": ex.title}, ensure_ascii=False) + "\n")
            cells[f"{m} p/s"] = len(records) / (time.perf_counter() - t0)
            scores[m] = score(ds, out)
        if peers:
            pred, stats = trafilatura(ds, work)
            scores["trafilatura"], cells["trafilatura p/s"] = score(ds, pred), stats["total_pages_per_s"]
            pred, cells["readability p/s"] = readability(ds, records, work)
            scores["readability"] = score(ds, pred)
        for system, summary in scores.items():
            cells[system] = summary["sh_f1"]
            cells[f"{system} P/R"] = (summary["sh_precision"], summary["sh_recall"])
            cells[f"{system} by type"] = summary.get("by_type", {})
        log(str(cells))
        rows.append(cells)
    peer_cols = ["trafilatura", "readability"] if peers else []
    head = ["dataset", "pages"] + models + peer_cols + [f"{m} p/s" for m in models] + [f"{p} p/s" for p in peer_cols]
    print("\nsh_f1 (macro over pages) of saved models on sets they never saw; pages/s of text+title\n")
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for c in sorted(rows, key=lambda c: c[models[-1]] - max([c[p] for p in peer_cols], default=0.0)):
        print("| " + " | ".join(str(c[h]) if h in ("dataset", "pages") else
                                fmt(c[h], ".1f" if h.endswith("p/s") else ".3f") for h in head) + " |")
    systems = models + peer_cols
    print("\nSH precision / recall of each system\n")
    print("| dataset | " + " | ".join(systems) + " |\n|" + "---|" * (len(systems) + 1))
    for c in rows:
        print(f"| {c['dataset']} | " + " | ".join("{:.3f} / {:.3f}".format(*c[f"{s} P/R"]) for s in systems) + " |")
    typed = [c for c in rows if c[f"{models[-1]} by type"]]
    if typed:
        print("\nSH F1 by page type (pages)\n")
        print("| dataset | type | pages | " + " | ".join(systems) + " |\n|" + "---|" * (len(systems) + 3))
        for c in typed:
            for t, (_, n) in sorted(c[f"{models[-1]} by type"].items()):
                print(f"| {c['dataset']} | {t} | {n} | " + " | ".join(fmt(c[f"{s} by type"][t][0], ".3f")
                                                                     for s in systems) + " |")
    return rows


# --- what the kept boilerplate is ---------------------------------------------------------

CLASS_WORDS = ("comment", "sidebar", "author", "related", "footer", "tag", "widget", "meta", "share", "social",
               "nav", "menu", "caption", "newsletter", "subscri", "promo", "advert", "breadcrumb")


def kept_boilerplate(sets: list[str], n_pages: int) -> None:
    """Per set, the letters of the blocks the shipped model keeps but the gold lacks, by where they lie.

    Where: before, inside or after the run from the first to the last gold block;
    short link blocks (under 80 characters, a link opened in them); and the class/id
    words of their 4 nearest enclosing elements.  For sets the shipped model never saw.
    """
    from stemmer.classify.label import align
    from stemmer.extract.fallback import GENERIC_PATH

    clf = BlockClassifier.load(GENERIC_PATH)
    print(f"\nkept boilerplate of the shipped model, {n_pages} pages a set (letters; shares of the kept boilerplate)\n")
    print("| set | precision by letters | before the article | inside | after | short link blocks | "
          "top class/id words |\n|---|---|---|---|---|---|---|")
    for ds in sets:
        records = [r for r in load_set(ds) if r.get("text")]
        records = sorted(records, key=lambda r: hashlib.sha256(r["id"].encode()).hexdigest())[:n_pages]
        good = bad = 0
        where, words, linky = Counter(), Counter(), 0
        for r in records:
            t = page_table(parse_html(r["html"]))
            if not t.blocks:
                continue
            labels = align([b.text for b in t.blocks], r["text"]).labels()
            gold = [i for i, lab in enumerate(labels) if lab]
            for i, kept in enumerate(page_blocks(t, clf.predict_proba(t), clf.threshold)):
                b = t.blocks[i]
                if not kept or labels[i]:
                    good += b.weight if kept else 0
                    continue
                bad += b.weight
                where["none" if not gold else "before" if i < gold[0] else "after" if i > gold[-1] else "inside"] += b.weight
                linky += b.weight if t.links[i] and len(b.text) < 80 else 0
                names = {w for e in t.ancestors[i][-4:] for w in t.elements[e][1]}
                for cw in {cw for cw in CLASS_WORDS if any(cw in w for w in names)}:
                    words[cw] += b.weight
        share = lambda x: f"{x / max(bad, 1):.2f}"  # noqa: E731
        top = ", ".join(f"{w} {share(v)}" for w, v in words.most_common(5))
        print(f"| {ds} | {good / max(good + bad, 1):.3f} | {share(where['before'])} | {share(where['inside'])} | "
              f"{share(where['after'])} | {share(linky)} | {top} |")


# --- MiniLM on a subsample ------------------------------------------------------------

def embedders_subsample(corpus: Corpus, n_pages: int, folds: dict[str, int], row: str, log) -> list[dict]:
    """`row` with no embedding, the static model and MiniLM: 2-fold CV on one page subsample.

    MiniLM embeds some 150 texts/s on two CPU cores, too slow for the whole corpus;
    the three embedders see the same pages (drawn from the row's training sets, so
    each fold has pages to learn from) and folds, so their rows compare.
    """
    pool = [i for i, p in enumerate(corpus.pages)  # the row's own training pages with gold: enough to train on
            if p.weights is None and p.dataset in ROWS[row].get("train_sets", SETS)]
    rng = np.random.default_rng(0)
    idx = sorted(rng.choice(pool, size=min(n_pages, len(pool)), replace=False).tolist())
    sub_folds = {corpus.pages[i].site: folds[corpus.pages[i].site] % 2 for i in idx}
    n_texts = sum(len(corpus.pages[i].table.blocks) for i in idx)
    rows = []
    for name in ("none", "static", "minilm"):
        saved, secs = corpus.E, 0.0
        spec = ROWS[row]
        if name != "none":
            enc = CachedEmbedder(StaticEmbedder() if name == "static" else SentenceTransformerEmbedder())
            t0 = time.perf_counter()
            E = {i: enc.encode([b.text for b in corpus.pages[i].table.blocks]) for i in idx}
            secs = time.perf_counter() - t0
            log(f"{name}: {n_texts} block texts in {secs:.0f} s ({n_texts / secs:.0f}/s)")
            corpus.E = [E.get(i) for i in range(len(corpus.pages))]
            spec = with_embedding(spec)
        sub = _SubCorpus(corpus, idx)
        probs = cross_validate(sub, spec, sub_folds, 2, log)
        scored = [(p, pr) for p, pr in zip(sub.pages, probs) if pr is not None]
        f1 = _mean_sh_f1([p for p, _ in scored], [pr for _, pr in scored], T.DEFAULT_THRESHOLD)
        rows.append({"embedder": name, "row": row, "pages": len(scored), "sh_f1": f1,
                     "embed_pages_per_s": len(idx) / secs if secs else None})
        log(f"  {name} {row}: sh_f1 {f1:.3f}")
        corpus.E = saved
    return rows


class _SubCorpus(Corpus):
    """A view of some pages of a corpus."""

    def __init__(self, corpus: Corpus, idx: list[int]) -> None:  # noqa: D107 - no featurizing again
        self.pages = [corpus.pages[i] for i in idx]
        self.vocab = corpus.vocab
        self.names = corpus.names
        self.X = [corpus.X[i] for i in idx]
        self.E = None if corpus.E is None else [corpus.E[i] for i in idx]


def _mean_sh_f1(pages, probs, threshold) -> float:
    sys.path.insert(0, str(TOOLS))
    from score import sh_f1

    return float(np.mean([sh_f1("\n".join(b.text for b, main in zip(p.table.blocks, page_blocks(p.table, pr, threshold))
                                          if main), p.gold)
                          for p, pr in zip(pages, probs)]))


# --- the page-level decision on cached out-of-fold probabilities ------------------------------

def dump_probs(model: str, sets: list[str], work: Path, k: int, log) -> None:
    """A saved model's probabilities on every page with gold of `sets` (which it never trained on),
    cached for `--decide-only` as a cross-validation run's are: ``pages.SET.pkl``, ``probs.SET.npz``
    and the sites' folds (``folds.SET.json``)."""
    import pickle

    from stemmer.extract.fallback import GENERIC_PATH

    clf = BlockClassifier.load(GENERIC_PATH if model == "generic" else Path(model))
    for ds in sets:
        t0 = time.perf_counter()
        records = load_set(ds)
        types = {r["id"]: page_type(r) for r in records} if ds in TYPED else {}
        light, probs = [], {}
        for p in T.labelled_pages(iter(records), keep_root=True):
            light.append(dict(id=p.id, site=p.site, dataset=ds, table=p.table, labels=p.labels, gold=p.gold,
                              title=choose_title(p.table, p.root)[0], page_type=types.get(p.id)))
            probs[p.id] = clf.predict_proba(p.table)
        with (work / f"pages.{ds}.pkl").open("wb") as f:
            pickle.dump(light, f, protocol=pickle.HIGHEST_PROTOCOL)
        np.savez_compressed(work / f"probs.{ds}.npz", ids=np.array(list(probs)),
                            **{f"p{n}": v for n, v in enumerate(probs.values())})
        (work / f"folds.{ds}.json").write_text(json.dumps({"k": k, "fold_of_site": site_folds(light, k)}))
        log(f"{ds}: {len(light)} pages ({time.perf_counter() - t0:.0f} s)")


PAIRS = (0.0, 0.5, 1.0, 2.0)  # the Viterbi pass's bonus for like labels, chosen among these
OFFSETS = (-0.5, 0.0, 0.5)  # and a shift of the fitted bias: F1's best cut need not be at p = 0.5
# The decision's weights would ship with stemmer: fitted on shippable sets only
DECISION_SETS = GOLD3["train_sets"]


def decide_only(work: Path, row: str, log, ablate=(), decision_sets=None) -> dict:
    """The Viterbi page-level decision (benchmarks/viterbi.py) fitted and scored under the row's CV.

    Reads the pages and the row's out-of-fold probabilities that a run of this
    benchmark cached in `work`.  For each fold, the decision's weights (a logistic
    regression on the blocks' terms, each block weighing its letters, each page
    the same) and its Viterbi bonus (among `PAIRS`) are fitted on the pages of
    the other folds of `DECISION_SETS`, and the fold's pages are decided with
    them.  Printed beside the threshold alone, the decision without its Viterbi
    pass or its one-block rule, and (`ablate`) without each of these terms;
    last, the weights fitted on all pages of `DECISION_SETS`, for viterbi.py.
    """
    import pickle

    from sklearn.linear_model import LogisticRegression

    decision_sets = decision_sets or DECISION_SETS
    today = page_blocks  # today's rules, beside which the decision is scored

    import viterbi as decision  # benchmarks/viterbi.py, beside this file

    sys.path.insert(0, str(TOOLS))
    from score import shingle_prf, tokenize

    if (work / "pages.pkl").exists():  # a cross-validation run's cache
        with (work / "pages.pkl").open("rb") as f:
            pages = pickle.load(f)
        cached = np.load(work / f"probs.{row}.npz")
        by_id = {str(i): cached[f"p{n}"] for n, i in enumerate(cached["ids"])}
        folds = json.loads((work / "folds.json").read_text())
        k, fold_of = folds["k"], folds["fold_of_site"]
    else:  # `--dump-probs`'s, one file per set
        pages, by_id, fold_of = [], {}, {}
        for path in sorted(work.glob("pages.*.pkl")):
            ds = path.name.split(".")[1]
            with path.open("rb") as f:
                pages += pickle.load(f)
            cached = np.load(work / f"probs.{ds}.npz")
            by_id.update({str(i): cached[f"p{n}"] for n, i in enumerate(cached["ids"])})
            folds = json.loads((work / f"folds.{ds}.json").read_text())
            k = folds["k"]
            fold_of.update(folds["fold_of_site"])
    pages = [p for p in pages if p["id"] in by_id]
    t0 = time.perf_counter()
    threshold = T.DEFAULT_THRESHOLD
    for p in pages:
        p["probs"] = by_id[p["id"]]
        p["terms"] = decision.block_terms(p["table"], p["probs"], threshold)
        p["pairs"] = decision.pair_links(p["table"])
        p["tokens"] = [tokenize(b.text) for b in p["table"].blocks]
        p["gold_tokens"] = tokenize(p["gold"])
        p["fold"] = fold_of[p["site"]]
    log(f"terms of {len(pages)} pages ({time.perf_counter() - t0:.0f} s)")

    def f1(p, keep) -> tuple[float, float, float]:
        pred = [t for tok, m in zip(p["tokens"], keep) if m for t in tok]
        return shingle_prf(pred, p["gold_tokens"])[:3]

    def fit(train, drop=None):
        X = np.vstack([p["terms"] for p in train])
        if drop is not None:
            X[:, decision.TERMS.index(drop)] = 0.0  # the term left out: its weight stays 0
        y = np.concatenate([p["labels"] for p in train])
        per_set = Counter(p["dataset"] for p in train)  # each page weighs the same, each set too
        w = np.concatenate([np.maximum([b.weight for b in p["table"].blocks], 1) /
                            max(1, sum(b.weight for b in p["table"].blocks)) / per_set[p["dataset"]] for p in train])
        lr = LogisticRegression(C=1.0, fit_intercept=False, max_iter=1000).fit(X, y, sample_weight=w * len(train))
        return tuple(float(c) for c in lr.coef_[0])

    def mean_by_set(scored: list[tuple[dict, float]]) -> float:
        sets = {}
        for p, v in scored:
            sets.setdefault(p["dataset"], []).append(v)
        return float(np.mean([np.mean(v) for v in sets.values()]))

    def choose(train):
        fitted = np.asarray(fit(train))
        bias = decision.TERMS.index("bias")
        grid = [(lam, off) for lam in PAIRS for off in OFFSETS]

        def value(lam, off):
            w = fitted.copy()
            w[bias] += off
            return mean_by_set([(p, f1(p, decision.viterbi(p["terms"] @ w, lam * p["pairs"]))[2]) for p in train])

        lam, off = max(grid, key=lambda g: value(*g))
        fitted[bias] += off
        return tuple(float(x) for x in fitted), lam, off

    shipped = "decision (shipped)"
    systems = {"today's rules": {}, "threshold": {}, "decision, no pass": {}, "decision, no one-block rule": {}, shipped: {}}
    systems.update({f"{shipped} - {t}": {} for t in ablate})
    chosen_params = []
    for f in range(k):
        train = [p for p in pages if p["fold"] != f and p["dataset"] in decision_sets]
        weights, lam, off = choose(train)
        chosen_params.append((weights, lam))
        without = {}
        for t in ablate:  # refitted without the term, at the full decision's pass and shift
            w = np.asarray(fit(train, drop=t))
            w[decision.TERMS.index("bias")] += off
            without[t] = w
        log(f"  fold {f}: pair {lam}, weights " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(decision.TERMS, weights)))
        for p in pages:
            if p["fold"] != f:
                continue
            score = p["terms"] @ np.asarray(weights)
            systems["threshold"][p["id"]] = f1(p, p["probs"] >= threshold)
            systems["today's rules"][p["id"]] = f1(p, today(p["table"], p["probs"], threshold))
            systems["decision, no pass"][p["id"]] = f1(p, score > 0)
            keep = decision.viterbi(score, lam * p["pairs"])
            systems["decision, no one-block rule"][p["id"]] = f1(p, keep)
            systems[shipped][p["id"]] = f1(p, decision.dominant_block(p["table"], keep))
            for t, w in without.items():
                keep = decision.viterbi(p["terms"] @ w, lam * p["pairs"])
                systems[f"{shipped} - {t}"][p["id"]] = f1(p, decision.dominant_block(p["table"], keep))
    table = {}
    for name, got in systems.items():
        for p in pages:
            key = (p["dataset"], p.get("page_type")) if p.get("page_type") else None
            for cell in [p["dataset"]] + ([f"{p['dataset']}:{p['page_type']}", f"wcxb+mceb:{p['page_type']}"]
                                          if key else []):
                table.setdefault(cell, {}).setdefault(name, []).append(got[p["id"]])
    print(f"\nthe page-level decision on row {row}'s out-of-fold probabilities, site-grouped {k}-fold CV "
          f"(SH F1 / precision / recall, macro over pages)\n")
    print("| set | pages | " + " | ".join(systems) + " |\n|---|---|" + "---|" * len(systems))
    for cell in sorted(table, key=lambda c: (":" in c, c)):
        vals = table[cell]
        print(f"| {cell} | {len(vals['threshold'])} | " + " | ".join(
            "{:.3f} / {:.3f} / {:.3f}".format(*(np.mean([v[j] for v in vals[n]]) for j in (2, 0, 1)))
            for n in systems) + " |")
    weights, lam, _ = choose([p for p in pages if p["dataset"] in decision_sets])
    print("\nfitted on all pages of " + ", ".join(decision_sets) + f": PAIR = {lam}\nWEIGHTS = (" +
          ", ".join(f"{w:.3f}" for w in weights) + ")  # " + ", ".join(decision.TERMS))
    return {"table": {c: {n: [float(np.mean([v[j] for v in vals[n]])) for j in range(3)] for n in vals}
                      for c, vals in table.items()}, "weights": weights, "pair": lam, "folds": chosen_params}


# --- main -----------------------------------------------------------------------------

def fmt(x, spec=".3f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="*", default=SETS)
    ap.add_argument("--rows", nargs="*", default=["gold2", "shipped", "patterns", "shipped+patterns"],
                    choices=list(ROWS))
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--thresholds", nargs="+", type=float, default=[T.DEFAULT_THRESHOLD], metavar="P",
                    help=f"score each row at these thresholds too (row@P; default {T.DEFAULT_THRESHOLD} alone)")
    ap.add_argument("--pages-per-site", type=int, default=T.PAGES_PER_SITE, metavar="N",
                    help="training pages per site of each fold's model (default %(default)s)")
    ap.add_argument("--ablate", action="store_true",
                    help="also the chosen model (and the shipped one, if in --rows) without each feature group")
    ap.add_argument("--minilm-pages", type=int, default=0, metavar="N",
                    help="also compare no embedding, the static model and MiniLM for the first of --rows "
                         "on N pages (MiniLM: ~150 texts/s on 2 cores)")
    ap.add_argument("--held-out", nargs="+", metavar="MODEL",
                    help="only score these saved models (or 'generic') on --sets, no cross-validation")
    ap.add_argument("--kept-boilerplate", type=int, default=0, metavar="N",
                    help="only the per-block error analysis of the shipped model on N pages of each of --sets")
    ap.add_argument("--decide-only", metavar="ROW",
                    help="only fit and score the page-level decision on ROW's probabilities cached in --work")
    ap.add_argument("--dump-probs", metavar="MODEL",
                    help="only cache a saved model's probabilities on --sets for --decide-only (no CV)")
    ap.add_argument("--decision-sets", nargs="*", metavar="SET",
                    help=f"with --decide-only: fit the decision on these sets (default {' '.join(DECISION_SETS)})")
    ap.add_argument("--ablate-terms", nargs="*", default=[], metavar="TERM",
                    help="with --decide-only: also the decision refitted without each of these terms")
    ap.add_argument("--no-baseline", action="store_true", help="skip trafilatura, readability and the speeds")
    ap.add_argument("--work", default="/tmp/stemmer-bench-classifier")
    ap.add_argument("--json", help="also write the results as JSON here")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    if args.kept_boilerplate:
        kept_boilerplate(args.sets, args.kept_boilerplate)
        return
    if args.dump_probs:
        dump_probs(args.dump_probs, args.sets, work, args.folds, log)
        return
    if args.decide_only:
        got = decide_only(work, args.decide_only, log, args.ablate_terms, args.decision_sets)
        if args.json:
            Path(args.json).write_text(json.dumps(got, indent=1))
        return
    if args.held_out:
        rows = held_out(args.held_out, args.sets, work, log, peers=not args.no_baseline)
        if args.json:
            Path(args.json).write_text(json.dumps({"held_out": rows}, indent=1))
        return

    needs_embed = any(ROWS[r]["embed"] for r in args.rows) or args.minilm_pages > 0
    needs_patterns = any(t.startswith("patterns:") for r in args.rows for t in ROWS[r].get("train_sets", ()))
    corpus = Corpus(args.sets, needs_embed, log, patterns=needs_patterns)
    everything = [{"site": p.site} for p in corpus.pages]
    folds = site_folds(everything, args.folds)
    (work / "folds.json").write_text(json.dumps({"k": args.folds, "fold_of_site": folds}, indent=0))

    specs = {r: dict(ROWS[r], per_site=args.pages_per_site) for r in args.rows}
    for base in [r for r in ("chosen", "shipped") if r in args.rows or r == "chosen"] if args.ablate else []:
        row = ROWS[base]
        for g in row["groups"]:
            specs[f"{base}-{g}"] = dict(row, groups=tuple(x for x in row["groups"] if x != g),
                                        embed=g != "embed" and row["embed"])
        if "embed" not in row["groups"]:
            specs[f"{base}+embed"] = with_embedding(row)
            if corpus.E is None:
                corpus.E = [CachedEmbedder(StaticEmbedder(), size=10**7).encode([b.text for b in p.table.blocks])
                            for p in corpus.pages]
        specs[f"{base}-context"] = dict(row, context=False)

    results: dict[str, dict[str, dict]] = {}
    for row, spec in specs.items():
        log(f"{row}: {spec['estimator']} on {', '.join(spec['groups'])}"
            f"{' + second stage' if spec['context'] else ''}")
        t0 = time.perf_counter()
        probs = cross_validate(corpus, spec, folds, args.folds, log)
        save_probs(corpus, probs, work, row)
        for threshold in args.thresholds:
            name = row if threshold == T.DEFAULT_THRESHOLD else f"{row}@{threshold}"
            preds = write_predictions(corpus, probs, threshold, work, name)
            results[name] = {ds: score(ds, path) for ds, path in preds.items()}
            log(f"  {name} done in {time.perf_counter() - t0:.0f} s: " +
                ", ".join(f"{ds} {s['sh_f1']:.3f}" for ds, s in results[name].items()))

    traf: dict[str, dict] = {}
    read: dict[str, dict] = {}
    speed: dict[str, dict] = {}
    if not args.no_baseline:
        for ds in args.sets:
            pred, stats = trafilatura(ds, work)
            traf[ds] = {"score": score(ds, pred), "stats": stats}
            records = [r for r in corpus.raw if r["dataset"] == ds]
            pred, read_pps = readability(ds, records, work)
            read[ds] = {"score": score(ds, pred)}
            speed[ds] = {"fallback_pps": fallback_speed(records, None), "readability_pps": read_pps,
                         "traf_text_pps": stats["text_pages_per_s"], "traf_total_pps": stats["total_pages_per_s"]}
            log(f"{ds}: trafilatura {traf[ds]['score']['sh_f1']:.3f}, readability {read[ds]['score']['sh_f1']:.3f}; "
                f"pages/s: fallback {speed[ds]['fallback_pps']:.1f}, trafilatura text+title "
                f"{stats['total_pages_per_s']:.1f}, readability {read_pps:.1f}")
    minilm = embedders_subsample(corpus, args.minilm_pages, folds, args.rows[0], log) if args.minilm_pages else []
    one_page = one_page_seconds()

    # the table
    cols = list(results)
    main_row = "shipped" if "shipped" in results else cols[-1]
    print(f"\nsh_f1 (macro over pages), site-grouped {args.folds}-fold CV; threshold {T.DEFAULT_THRESHOLD}; "
          f"worst set of {main_row} (beside the best peer) first\n")
    head = ["dataset", "pages"] + cols + (["trafilatura", "readability", f"{main_row} - best peer",
                                           f"title {main_row}", "title traf", "fallback p/s",
                                           "traf p/s (text+title)", "readability p/s"] if traf else [])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    margin = {ds: results[main_row][ds]["sh_f1"] - (max(traf[ds]["score"]["sh_f1"], read[ds]["score"]["sh_f1"])
                                                    if traf else 0.0) for ds in args.sets}
    for ds in sorted(args.sets, key=margin.get):
        first = next(iter(results.values()))[ds]
        cells = [ds, str(first["n_scored"])] + [fmt(results[c][ds]["sh_f1"]) for c in cols]
        if traf:
            t = traf[ds]["score"]
            ch = results[main_row][ds]
            cells += [fmt(t["sh_f1"]), fmt(read[ds]["score"]["sh_f1"]), f"{margin[ds]:+.3f}",
                      fmt(ch.get("title_exact_all")), fmt(t.get("title_exact_all")),
                      fmt(speed[ds]["fallback_pps"], ".1f"), fmt(speed[ds]["traf_total_pps"], ".1f"),
                      fmt(speed[ds]["readability_pps"], ".1f")]
        print("| " + " | ".join(cells) + " |")
    systems = [(c, results[c]) for c in cols] + ([("trafilatura", {d: traf[d]["score"] for d in traf}),
                                                  ("readability", {d: read[d]["score"] for d in read})] if traf else [])
    print("\nSH precision / recall / F1 (macro over pages) of each system\n")
    print("| dataset | " + " | ".join(n for n, _ in systems) + " |\n|---|" + "---|" * len(systems))
    for ds in args.sets:
        print(f"| {ds} | " + " | ".join(f"{fmt(r[ds]['sh_precision'])} / {fmt(r[ds]['sh_recall'])} / "
                                        f"{fmt(r[ds]['sh_f1'])}" for _, r in systems) + " |")
    typed = [ds for ds in TYPED if ds in args.sets]
    if typed:
        print("\nSH F1 by page type (pages); the last line pools the typed sets\n")
        print("| set | type | pages | " + " | ".join(n for n, _ in systems) + " |\n|---|---|---|" + "---|" * len(systems))
        kinds = sorted({t for ds in typed for t in systems[0][1][ds]["by_type"]})
        for t in kinds:
            for ds in typed + ["together"]:
                sets = typed if ds == "together" else [ds]
                n = sum(systems[0][1][d]["by_type"].get(t, (0, 0))[1] for d in sets)
                if not n:
                    continue
                cells = [sum(r[d]["by_type"][t][0] * r[d]["by_type"][t][1] for d in sets if t in r[d]["by_type"]) / n
                         for _, r in systems]
                print(f"| {ds} | {t} | {n} | " + " | ".join(fmt(c) for c in cells) + " |")
    if minilm:
        print("\n| embedder | row | pages scored | sh_f1 (2-fold) | pages/s of the embedding alone |\n|---|---|---|---|---|")
        for r in minilm:
            print(f"| {r['embedder']} | {r['row']} | {r['pages']} | {r['sh_f1']:.3f} | {fmt(r['embed_pages_per_s'], '.1f')} |")
    print(f"\npattern-only `stemmer extract -p` of one page, fresh interpreter: {one_page:.2f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": results, "trafilatura": traf, "readability": read,
                                               "speed": speed,
                                               "minilm": minilm, "one_page_s": one_page}, indent=1))


if __name__ == "__main__":
    main()
