"""The title of a page that no layout covers: a heading that agrees with the page's <title>.

A page's ``<title>`` (or ``og:title``) names the article but usually carries
the site's name too ("Storm hits coast | Daily News"); its headline block is
exact but has to be found among other headings.  So: every heading (h1-h3) or
block inside an element whose class says title/headline is a candidate,
scored by its word overlap (Dice) with ``<title>`` and ``og:title``, h1
preferred; the best wins if it overlaps enough, else ``og:title``, else the
longest part of ``<title>`` split at its separators.  A page with neither
``<title>`` nor ``og:title`` takes its first h1 that is not a link.
"""
from __future__ import annotations

import re

from stemmer.classify.features import PageTable

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


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def meta_title(root) -> str | None:
    """The page's ``og:title`` or ``twitter:title``, if any."""
    if root is None:
        return None
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").lower()
        if key in ("og:title", "twitter:title"):
            content = " ".join((meta.get("content") or "").split())
            if content:
                return content
    return None


def choose_title(table: PageTable, root=None) -> tuple[str | None, int | None]:
    """The page's title and the index of its block (None when it comes from ``<title>``/``og:title``).

    Args:
        table: the page's blocks (`page_table`).
        root: the parsed page, for ``og:title``; optional.

    Returns:
        (title, block index); (None, None) for a page with no title anywhere.
    """
    head = table.page.title
    og = meta_title(root)
    refs = [w for w in (_words(head), _words(og or "")) if w]
    if not refs:  # nothing to agree with: the page's first h1 that is not a link is its headline
        return next(((b.text, i) for i, b in enumerate(table.blocks)
                     if b.tag == "h1" and b.anchor_weight * 2 <= b.weight and len(b.text) <= MAX_TITLE), (None, None))
    best, best_score = None, -1.0
    for i, (b, anc) in enumerate(zip(table.blocks, table.ancestors)):
        if len(b.text) > MAX_TITLE:
            continue
        titley = any(w in TITLE_WORDS for a in anc[-2:] for w in table.elements[a][1])
        tag = b.tag
        if tag not in ("h1", "h2", "h3") and not titley:
            continue
        words = _words(b.text)
        score = max((_dice(words, r) for r in refs), default=0.0)
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
