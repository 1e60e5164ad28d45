"""The title of a page that no layout covers: a heading rule, and a learned choice among the page's title candidates.

A page's ``<title>`` (or ``og:title``) names the article but usually carries
the site's name too ("Storm hits coast | Daily News"); its headline block is
exact but has to be found among other headings.

The rule: every heading (h1-h3) or block inside an element whose class says
title/headline is a candidate, scored by its word overlap (Dice) with
``<title>`` and ``og:title``, h1 preferred; the best wins if it overlaps
enough, else ``og:title``, else the longest part of ``<title>`` split at its
separators.  A page with neither ``<title>`` nor ``og:title`` takes its first
h1 that is not a link.

The learned choice, for a page that states a title of its own (``og:title``,
``twitter:title``, JSON-LD ``headline``, ...): what counts as "the title"
depends on the kind of page (an article's headline; a service page's whole
``<title>``, site name included), so each distinct candidate text (the
``<title>``, each run of its parts, the page's own titles, headings and
title-classed blocks) is described by where it comes from and how the page's
other titles agree with it, and a logistic regression (`title_model.json`,
trained by ``benchmarks/title_model.py`` under site-grouped cross-validation)
scores it; the best scored wins.  Pages that state no title of their own (most
pages before ~2010) keep the rule: the model was fitted on pages that do.
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from stemmer.classify.features import PageTable
from stemmer.classify.scorers import LinearScorer
from stemmer.metadata.signals import PageSignals, page_signals

# Tuned on the gold titles of l3s_gn1 and wcxb (exact-match share 0.68 / 0.69;
# <title> as is: 0.10 / 0.19): a small bonus for h1, a smaller malus for h3,
# and a least overlap below which a heading is not the title.
H1_BONUS = 0.2
H3_MALUS = 0.05
MIN_SCORE = 0.3
MAX_TITLE = 300  # characters; a longer block is a paragraph, not a headline
TITLE_WORDS = frozenset({"title", "headline", "heading", "entry", "post"})
_SEPARATORS = re.compile(r"\s+[|\-–—:·»/]+\s+|\s*[|·»]\s*")
_WORD = re.compile(r"\w+")
MODEL_PATH = Path(__file__).with_name("title_model.json")
# Where a candidate comes from (one flag each); a text found in several places has several.
SOURCES = ("head", "headpart", "og:title", "twitter:title", "ld", "h1", "h2", "h3", "h4", "titley")
_AGREEING = frozenset({"head", "headpart", "og:title", "ld", "h1", "titley"})
FEATURES = (tuple(f"src_{s}" for s in SOURCES) + (
    "nsrc", "d_head", "d_og", "d_h1", "d_ld", "has_og", "has_h1", "has_ld", "hfirst", "hlast", "hspan", "hn",
    "site_in", "site_share", "pos", "isblock", "first_h1", "len", "nw",
    "p_art", "p_prod", "p_has_date", "p_has_author", "p_nh1", "p_ogweb", "p_nblocks", "rule", "inblock", "p_own"))


def _words(text: str | None) -> set[str]:
    return set(_WORD.findall((text or "").lower()))


def _dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def _key(text: str) -> str:
    """A title as exact match compares it: NFKC, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def titled_blocks(table: PageTable) -> frozenset[int]:
    """The blocks inside an element (or its parent) whose class or id says title/headline."""
    return frozenset(i for i, anc in enumerate(table.ancestors)
                     if any(w in TITLE_WORDS for a in anc[-2:] for w in table.elements[a][1]))


def meta_title(root) -> str | None:
    """The page's ``og:title`` or ``twitter:title``, if any."""
    return None if root is None else _meta(root, "og:title", "twitter:title")


def _meta(root, *keys: str) -> str | None:
    """The first non-empty content of a `<meta>` whose property or name is one of `keys`."""
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() in keys:
            content = " ".join((meta.get("content") or "").split())
            if content:
                return content
    return None


def rule_title(table: PageTable, og: str | None, titled: frozenset[int] | None = None) -> tuple[str | None, int | None]:
    """The heading rule's title and its block index (None when it comes from ``<title>``/``og:title``).

    `titled`: the page's `titled_blocks`, where the caller has them.
    """
    head = table.page.title
    refs = [w for w in (_words(head), _words(og)) if w]
    if not refs:  # nothing to agree with: the page's first h1 that is not a link is its headline
        return next(((b.text, i) for i, b in enumerate(table.blocks)
                     if b.tag == "h1" and b.anchor_weight * 2 <= b.weight and len(b.text) <= MAX_TITLE), (None, None))
    best, best_score = None, -1.0
    titled = titled_blocks(table) if titled is None else titled
    for i, b in enumerate(table.blocks):
        if len(b.text) > MAX_TITLE:
            continue
        tag = b.tag
        if tag not in ("h1", "h2", "h3") and i not in titled:
            continue
        score = max((_dice(_words(b.text), r) for r in refs), default=0.0)
        score += H1_BONUS * (tag == "h1") - H3_MALUS * (tag == "h3")
        if score > best_score:
            best, best_score = i, score
    if best is not None and best_score >= MIN_SCORE:
        return table.blocks[best].text, best
    if og:
        return og, None
    parts = [p.strip() for p in _SEPARATORS.split(head) if p.strip()]
    if parts:
        return max(parts, key=len), None
    return (head or None), None


@dataclass
class Candidate:
    """One distinct title text of a page and where it was found."""

    text: str
    sources: set[str] = field(default_factory=set)
    block: int | None = None            # its first block, for a heading or title-classed block
    span: tuple[int, int, int] | None = None  # (first part, last part, parts) for a run of `<title>`'s parts


def _head_spans(head: str) -> list[tuple[str, int, int, int]]:
    """Every run of consecutive parts of `<title>` (split at its separators), as written."""
    head = " ".join(head.split())
    if not head:
        return []
    cuts = list(_SEPARATORS.finditer(head))
    starts, ends = [0] + [m.end() for m in cuts], [m.start() for m in cuts] + [len(head)]
    parts = [(s, e) for s, e in zip(starts, ends) if head[s:e].strip()]
    n = len(parts)
    return [(head[parts[i][0]:parts[j][1]].strip(), i, j, n) for i in range(n) for j in range(i, n)]


def title_candidates(table: PageTable, signals: PageSignals,
                     titled: frozenset[int] | None = None) -> dict[str, Candidate]:
    """The page's distinct title texts (by their exact-match key), each with its sources."""
    titled = titled_blocks(table) if titled is None else titled
    found: dict[str, Candidate] = {}

    def add(text: str, source: str, **where) -> None:
        text = " ".join(text.split())
        if not text or len(text) > MAX_TITLE:
            return
        c = found.setdefault(_key(text), Candidate(text))
        c.sources.add(source)
        if where.get("block") is not None and c.block is None:
            c.block = where["block"]
        if where.get("span") is not None and c.span is None:
            c.span = where["span"]

    for text, i, j, n in _head_spans(table.page.title):
        add(text, "head" if i == 0 and j == n - 1 else "headpart", span=(i, j, n))
    for s in signals.titles:
        add(s.value, s.key if s.source == "meta" else "ld")
    for i, b in enumerate(table.blocks):
        if b.tag in ("h1", "h2", "h3", "h4"):
            add(b.text, b.tag, block=i)
        if i in titled:
            add(b.text, "titley", block=i)
    return found


def candidate_features(table: PageTable, root, signals: PageSignals, candidates: dict[str, Candidate],
                       rule: str | None) -> np.ndarray:
    """One row of `FEATURES` per candidate, in the order of `candidates`."""
    blocks = table.blocks
    og, og_type = _meta(root, "og:title"), (_meta(root, "og:type") or "").lower()
    ld = next((s.value for s in signals.titles if s.source == "json-ld"), None)
    h1s = [b.text for b in blocks if b.tag == "h1"]
    head_w, og_w, h1_w, ld_w = _words(table.page.title), _words(og), _words(h1s[0] if h1s else ""), _words(ld)
    site_w = set().union(*(_words(s.value) for s in signals.site_names)) if signals.site_names else set()
    first_h1 = _key(h1s[0]) if h1s else None
    rule_key = _key(rule) if rule else None
    block_keys = {_key(b.text) for b in blocks}
    n_blocks = max(len(blocks), 1)
    page = (float(og_type == "article"), float("product" in og_type), float(bool(signals.dates)),
            float(bool(signals.authors)), float(min(len(h1s), 5)), float(og_type == "website"),
            math.log1p(len(blocks)))
    rows = []
    for key, c in candidates.items():
        w = _words(c.text)
        i, j, n = c.span or (-1, -9, 0)
        rows.append([float(s in c.sources) for s in SOURCES] + [
            len(c.sources & _AGREEING), _dice(w, head_w), _dice(w, og_w), _dice(w, h1_w), _dice(w, ld_w),
            float(bool(og_w)), float(bool(h1_w)), float(bool(ld_w)),
            float(i == 0), float(j == n - 1), (j - i + 1) / n if c.span else 0.0, n,
            float(bool(w & site_w)), len(w & site_w) / max(len(w), 1),
            (c.block if c.block is not None else n_blocks) / n_blocks, float(c.block is not None),
            float(key == first_h1), math.log1p(len(c.text)), math.log1p(len(w)),
            *page, float(key == rule_key), float(key in block_keys), float(bool(signals.titles))])
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))


@lru_cache(maxsize=1)
def title_model() -> LinearScorer | None:
    """The shipped candidate scorer (`title_model.json`); None where the package has none."""
    if not MODEL_PATH.exists():
        return None
    spec = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    if tuple(spec["features"]) != FEATURES:
        raise ValueError(f"{MODEL_PATH}: its features are not this version's; retrain it "
                         "(python benchmarks/title_model.py --write)")
    return LinearScorer(np.array(spec["mean"]), np.array(spec["scale"]), np.array(spec["coef"]),
                        float(spec["intercept"]))


def choose_title(table: PageTable, root=None, *, model: LinearScorer | None = None) -> tuple[str | None, int | None]:
    """The page's title and the index of its block (None when it comes from ``<title>`` or a meta tag).

    Args:
        table: the page's blocks (`page_table`).
        root: the parsed page, for its own titles; optional (without it, the rule alone).
        model: the candidate scorer; None: the shipped one (`title_model`).

    Returns:
        (title, block index); (None, None) for a page with no title anywhere.
    """
    og = meta_title(root)
    titled = titled_blocks(table)
    rule, rule_at = rule_title(table, og, titled)
    if root is None:
        return rule, rule_at
    signals = page_signals(root)
    model = model or title_model()
    if model is None or not signals.titles:
        return rule, rule_at
    candidates = title_candidates(table, signals, titled)
    if not candidates:
        return rule, rule_at
    X = candidate_features(table, root, signals, candidates, rule)
    best = list(candidates.values())[int(np.argmax(model.decision(X)))]
    if rule is not None and _key(best.text) == _key(rule):
        return rule, rule_at
    return best.text, best.block
