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

import html
import json
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from stemmer.blocks.segment import walker_in_use
from stemmer.classify.features import PageTable, dice
from stemmer.classify.scorers import LinearScorer
from stemmer.metadata.signals import PageSignals, page_signals

try:  # compiled where the install built it, else the Python twin below (STEMMER_WALKER=python also means it)
    from stemmer.classify._text_stats import title_blocks as _compiled_title_blocks
except ImportError:
    _compiled_title_blocks = None

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
# An ASCII text's bytes mapped to its words (`_WORD`) lower-cased, between spaces: a letter to its lower
# case, a digit or "_" to itself, any other byte to a space.
_ASCII_WORDS = bytes(c + 32 if 65 <= c <= 90 else c if chr(c).isalnum() or c == 95 else 32 for c in range(128))
_ASCII_WORDS += bytes([32] * 128)
MODEL_PATH = Path(__file__).with_name("title_model.json")
# Where a candidate comes from (one flag each); a text found in several places has several.
SOURCES = ("head", "headpart", "og:title", "twitter:title", "ld", "h1", "h2", "h3", "h4", "titley")
_AGREEING = frozenset({"head", "headpart", "og:title", "ld", "h1", "titley"})
FEATURES = (tuple(f"src_{s}" for s in SOURCES) + (
    "nsrc", "d_head", "d_og", "d_h1", "d_ld", "has_og", "has_h1", "has_ld", "hfirst", "hlast", "hspan", "hn",
    "site_in", "site_share", "pos", "isblock", "first_h1", "len", "nw",
    "p_art", "p_prod", "p_has_date", "p_has_author", "p_nh1", "p_ogweb", "p_nblocks", "rule", "inblock", "p_own"))


def _key(text: str) -> str:
    """A title as exact match compares it: NFKC, case-folded, spaces collapsed."""
    if text.isascii():  # NFKC leaves ASCII as it is, and case-folds it to its lower case
        return " ".join(text.split()).lower()
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


@dataclass(frozen=True, slots=True)
class TitleSources:
    """What the title step reads of a page besides its `<title>`: three `<meta>`s and its headline blocks.

    Gathered in one pass over the blocks (the `<meta>`s come with the page's
    `page_signals`), so the rule, the candidates and their features do not each
    walk the page again.

    Attributes:
        stated: the first ``og:title`` or ``twitter:title`` in the page.
        og: the first ``og:title``; og_type: ``og:type``, lower-cased ("" if none).
        headings: (block index, tag, text) of every h1-h4 block and every title-classed block, in order.
        titled: the indexes of the blocks inside an element (or its parent) whose class or id
            says title/headline.
        h1s: the texts of the h1 blocks, in order.
    """

    stated: str | None
    og: str | None
    og_type: str
    headings: tuple[tuple[int, str, str], ...]
    titled: frozenset[int]
    h1s: tuple[str, ...]
    _words: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def words(self, text: str | None) -> frozenset[str]:
        """`text`'s words, lower-cased (read once per text: the rule and the features ask the same headings)."""
        text = text or ""
        found = self._words.get(text)
        if found is None:
            if text.isascii():  # by bytes: the regex finds the words one by one
                found = frozenset(text.encode("ascii").translate(_ASCII_WORDS).decode("ascii").split())
            else:
                found = frozenset(_WORD.findall(text.lower()))
            self._words[text] = found
        return found

    @classmethod
    def read(cls, table: PageTable, signals: PageSignals | None = None) -> TitleSources:
        """The sources of `table`'s page; `signals`: its `page_signals`, for its `<meta>`s (None: none)."""
        blocks = table.blocks
        if _compiled_title_blocks is not None and walker_in_use() == "compiled":
            titled, tags = _compiled_title_blocks(blocks, table.ancestors, table.elements, TITLE_WORDS, _HEADING_TAGS)
        else:
            titled, tags = _title_blocks(blocks, table.ancestors, table.elements)
        headings = tuple([(i, tags.get(i, blocks[i].tag), blocks[i].text) for i in sorted(tags.keys() | titled)])
        h1s = tuple(text for _, tag, text in headings if tag == "h1")
        if signals is None:
            return cls(None, None, "", headings, frozenset(titled), h1s)
        return cls(signals.social_title, signals.og_title, signals.og_type, headings, frozenset(titled), h1s)


_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4"})


def _title_blocks(blocks, ancestors, elements) -> tuple[list[int], dict[int, str]]:
    """The indexes of the blocks inside an element (or its parent) whose class or id says title
    (`TITLE_WORDS`), and the tag of each h1-h4 block by its index.

    The Python twin of `stemmer.classify._text_stats.title_blocks`.
    """
    # Per innermost element of a block: whether its class or id, or its parent's, says title
    # (a block's last two ancestors are its innermost element and that one's parent).
    named: dict[int, bool] = {}
    titled = []
    for i, anc in enumerate(ancestors):
        if anc:
            says = named.get(e := anc[-1])
            if says is None:
                says = named[e] = (not TITLE_WORDS.isdisjoint(elements[e][1])
                                   or (len(anc) > 1 and not TITLE_WORDS.isdisjoint(elements[anc[-2]][1])))
            if says:
                titled.append(i)
    tags = {}
    for i, b in enumerate(blocks):  # a heading's path ends in "h1...", "h2..."
        if (path := b.path) and path[-1][:1] == "h" and (tag := b.tag) in _HEADING_TAGS:
            tags[i] = tag
    return titled, tags


def rule_title(table: PageTable, sources: TitleSources) -> tuple[str | None, int | None]:
    """The heading rule's title and its block index (None when it comes from ``<title>``/``og:title``)."""
    head, og = table.page.title, sources.stated
    refs = [w for w in (sources.words(head), sources.words(og)) if w]
    blocks = table.blocks
    if not refs:  # nothing to agree with: the page's first h1 that is not a link is its headline
        return next(((text, i) for i, tag, text in sources.headings
                     if tag == "h1" and blocks[i].anchor_weight * 2 <= blocks[i].weight and len(text) <= MAX_TITLE),
                    (None, None))
    best, best_score = None, -1.0
    first, second = refs[0], refs[1] if len(refs) > 1 else None
    words_of, titled = sources.words, sources.titled
    for i, tag, text in sources.headings:
        if len(text) > MAX_TITLE or (tag not in ("h1", "h2", "h3") and i not in titled):
            continue
        words = words_of(text)
        score = dice(words, first)
        if second is not None:
            score = max(score, dice(words, second))
        score += H1_BONUS * (tag == "h1") - H3_MALUS * (tag == "h3")
        if score > best_score:
            best, best_score = i, score
    if best is not None and best_score >= MIN_SCORE:
        return blocks[best].text, best
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


def title_candidates(table: PageTable, signals: PageSignals, sources: TitleSources) -> dict[str, Candidate]:
    """The page's distinct title texts (by their exact-match key), each with its sources."""
    found: dict[str, Candidate] = {}

    def add(text: str, source: str, block: int | None = None, span: tuple[int, int, int] | None = None) -> None:
        if (spaced := _spaced(text)) is not None:
            put(*spaced, source, block, span)

    def put(text: str, key: str, source: str, block: int | None, span: tuple[int, int, int] | None) -> None:
        c = found.get(key)
        if c is None:
            c = found[key] = Candidate(text)
        c.sources.add(source)
        if block is not None and c.block is None:
            c.block = block
        if span is not None and c.span is None:
            c.span = span

    for text, i, j, n in _head_spans(table.page.title):
        add(text, "head" if i == 0 and j == n - 1 else "headpart", span=(i, j, n))
    for s in signals.titles:
        add(s.value, s.key if s.source == "meta" else "ld")
    titled = sources.titled
    for i, tag, text in sources.headings:  # a heading's text spaced once for its tag and its title class
        if (spaced := _spaced(text)) is not None:
            if tag in _HEADING_TAGS:
                put(*spaced, tag, i, None)
            if i in titled:
                put(*spaced, "titley", i, None)
    return found


def _spaced(text: str) -> tuple[str, str] | None:
    """A candidate's text as a reader sees it, spaces collapsed, and its key (`_key`); None if empty or too long."""
    if "&" in text and ";" in text:  # escaped twice in the page ("SQL &amp;#x26; AI"): a reader sees "&"
        text = html.unescape(text)
    text = " ".join(text.split())
    if not text or len(text) > MAX_TITLE:
        return None
    return text, text.lower() if text.isascii() else _key(text)  # `_key`'s, the text spaced already


def _in_blocks(table: PageTable, keys: set[str]) -> set[str]:
    """The keys of `keys` that some block's text has (`_key`).

    A block's text has its spaces collapsed (but a ``<pre>``'s), so in ASCII its
    key is its lower case, of its length: most blocks need no key made.  (Any
    element whose tag starts with "pre" is read as a ``<pre>`` here, to be safe.)
    """
    found: set[str] = set()
    if not keys:
        return found
    lengths = {len(k) for k in keys}
    for b in table.blocks:
        text = b.text
        if text.isascii() and not (b.path and b.path[-1][:3] == "pre"):
            if len(text) not in lengths or (k := text.lower()) not in keys:
                continue
        elif (k := _key(text)) not in keys:
            continue
        found.add(k)
        if len(found) == len(keys):
            break
    return found


def candidate_features(table: PageTable, signals: PageSignals, sources: TitleSources,
                       candidates: dict[str, Candidate], rule: str | None) -> np.ndarray:
    """One row of `FEATURES` per candidate, in the order of `candidates`.

    Page-level features read the page's own statements without its URL (a date in
    the URL does not count), as `benchmarks/title_model.py` trained them.
    """
    blocks = table.blocks
    og, og_type = sources.og, sources.og_type
    ld = next((s.value for s in signals.titles if s.source == "json-ld"), None)
    h1s = sources.h1s
    words = sources.words
    head_w, og_w, h1_w, ld_w = words(table.page.title), words(og), words(h1s[0] if h1s else ""), words(ld)
    site_w = frozenset().union(*(words(s.value) for s in signals.site_names))
    first_h1 = _key(h1s[0]) if h1s else None
    rule_key = _key(rule) if rule else None
    block_keys = {key for key, c in candidates.items() if c.block is not None}
    block_keys |= _in_blocks(table, set(candidates) - block_keys)
    n_blocks = max(len(blocks), 1)
    page = (float(og_type == "article"), float("product" in og_type),
            float(any(s.source != "url" for s in signals.dates)),
            float(bool(signals.authors)), float(min(len(h1s), 5)), float(og_type == "website"),
            math.log1p(len(blocks)))
    # Column by column over all candidates (a column that is 0 for every candidate left as is).
    cands, keys = list(candidates.values()), list(candidates)
    X = np.zeros((len(cands), len(FEATURES)))
    at = _FEATURE_AT
    for r, c in enumerate(cands):
        for s in c.sources:
            if (col := _SOURCE_AT.get(s)) is not None:
                X[r, col] = 1.0
        if c.span:
            i, j, n = c.span
            X[r, at["hfirst"]:at["hn"] + 1] = (float(i == 0), float(j == n - 1), (j - i + 1) / n, n)
    cand_w = [words(c.text) for c in cands]
    X[:, at["nsrc"]] = [len(c.sources & _AGREEING) for c in cands]
    for name, other in (("d_head", head_w), ("d_og", og_w), ("d_h1", h1_w), ("d_ld", ld_w)):
        if other:
            X[:, at[name]] = [dice(w, other) for w in cand_w]
    X[:, at["has_og"]:at["has_ld"] + 1] = (float(bool(og_w)), float(bool(h1_w)), float(bool(ld_w)))
    if site_w:
        X[:, at["site_in"]] = [float(bool(w & site_w)) for w in cand_w]
        X[:, at["site_share"]] = [len(w & site_w) / max(len(w), 1) for w in cand_w]
    X[:, at["pos"]] = [(c.block if c.block is not None else n_blocks) / n_blocks for c in cands]
    X[:, at["isblock"]] = [float(c.block is not None) for c in cands]
    X[:, at["first_h1"]] = [float(key == first_h1) for key in keys]
    X[:, at["len"]] = [math.log1p(len(c.text)) for c in cands]
    X[:, at["nw"]] = [math.log1p(len(w)) for w in cand_w]
    X[:, at["p_art"]:at["p_nblocks"] + 1] = page
    X[:, at["rule"]] = [float(key == rule_key) for key in keys]
    X[:, at["inblock"]] = [float(key in block_keys) for key in keys]
    X[:, at["p_own"]] = float(bool(signals.titles))
    return X


_SOURCE_AT = {s: i for i, s in enumerate(SOURCES)}
_FEATURE_AT = {f: i for i, f in enumerate(FEATURES)}


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


def choose_title(table: PageTable, root=None, *, model: LinearScorer | None = None,
                 signals: Callable[[], PageSignals] | None = None) -> tuple[str | None, int | None]:
    """The page's title and the index of its block (None when it comes from ``<title>`` or a meta tag).

    Args:
        table: the page's blocks (`page_table`).
        root: the parsed page, for its own titles; optional (without it, the rule alone).
        model: the candidate scorer; None: the shipped one (`title_model`).
        signals: a function giving the page's `page_signals`, where the caller reads them
            anyway (extract, for the page's date and author); None: read here.

    Returns:
        (title, block index); (None, None) for a page with no title anywhere.
    """
    if root is None:
        return rule_title(table, TitleSources.read(table))
    page = signals() if signals is not None else page_signals(root)
    sources = TitleSources.read(table, page)
    rule, rule_at = rule_title(table, sources)
    model = model or title_model()
    if model is None or not page.titles:
        return rule, rule_at
    candidates = title_candidates(table, page, sources)
    if not candidates:
        return rule, rule_at
    X = candidate_features(table, page, sources, candidates, rule)
    best = list(candidates.values())[int(np.argmax(model.decision(X)))]
    if rule is not None and _key(best.text) == _key(rule):
        return rule, rule_at
    return best.text, best.block
