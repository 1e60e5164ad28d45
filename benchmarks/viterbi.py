"""A page-level decision measured and not kept: which blocks of a page are main text, decided jointly.

Not run by `extract` (which runs `stemmer.extract.decide.page_blocks`): fitted on the
shippable sets it loses dragnet 0.05 and l3s_gn1 0.009 against those rules
(benchmarks/CLASSIFIER-LOG.md, "One decision per page"); `benchmarks/classifier.py
--decide-only` fits and scores it, importing this file.

The classifier scores each block alone (with its neighbours' scores as inputs).
Whether a block belongs to the page's main text also depends on where it lies
against the rest of what is chosen: a paragraph continuing the article in a
second container is main text, a list of links in a column beside it is not.
`decide` reads that as one decision over the block sequence, as Web2Text's
hidden-Markov pass does:

1. The article's *anchor*: the block of most letters outside links x probability
   among the run of candidate blocks (probability >= the model's threshold) that holds
   the most of them; its *container* is the innermost element holding that run.
2. Each block gets a score, a weighted sum of its *terms* (`TERMS`): the classifier's
   log-odds against the threshold, and where it lies against the article (inside
   its container, in a sibling of it, outside it before or after, in an element
   whose class names a page region such as a sidebar, mostly link text, on a tag
   path the article's blocks have once class and id are set aside, in a comment
   section).  The weights are a logistic regression fitted under site-grouped
   cross-validation on probabilities of pages the model never saw
   (`benchmarks/classifier.py --decide-only`), not set by hand.
3. A two-state Viterbi pass over the blocks in order chooses the labels that
   maximise the sum of the kept blocks' scores plus `PAIR` for every two
   consecutive blocks of one parent element or one class-free tag path that get
   the same label: a short heading between two paragraphs of the body follows them,
   a lone line between two menus does not become main text.

A page with nothing kept keeps its one block of `DOMINANT_SHARE` of its letters.
Only numpy.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stemmer.extract.decide import DOMINANT_SHARE, chosen_runs, plain_path, run_container  # noqa: E402

# The terms of a block's score, in the order of `WEIGHTS`.
TERMS = ("bias", "logit", "inside", "sibling", "after_outside", "before_outside", "region_word", "links",
         "article_path", "comment")
# Fitted by `python benchmarks/classifier.py --decide-only generic --work W --decision-sets mceb
# jekyll_sites web_sites` on the shipped model's probabilities (benchmarks/CLASSIFIER-LOG.md).
WEIGHTS = (-0.001, 0.948, 0.140, -0.895, -0.940, 0.446, -1.677, -0.288, 0.677, -2.979)
PAIR = 0.0
# A class or id word holding one of these names a region of the page other than its text
# (as readability's and trafilatura's lists of unlikely candidates); a term, weighed as the others.
REGION_WORDS = re.compile("sidebar|widget|promo|related|share|social|newsletter|subscri|footer|nav|menu|meta")
_LOGIT_CLIP = 8.0


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return np.clip(np.log(p / (1 - p)), -_LOGIT_CLIP, _LOGIT_CLIP)


def block_terms(table, probs, threshold: float) -> np.ndarray:
    """The terms (`TERMS`) of every block of the page: an array (blocks, len(TERMS))."""
    n = len(table.blocks)
    out = np.zeros((n, len(TERMS)))
    if n == 0:
        return out
    probs = np.asarray(probs, dtype=float)
    out[:, 0] = 1.0
    out[:, 1] = _logit(probs) - float(_logit(np.array([threshold]))[0])
    weights = np.array([b.weight for b in table.blocks], dtype=float)
    anchor_w = np.array([b.anchor_weight for b in table.blocks], dtype=float)
    out[:, 7] = anchor_w > 0.5 * weights
    if table.comments:
        comment = np.array([table.in_comments(i) for i in range(n)], dtype=bool)
        if ((probs >= threshold) & ~comment).any():
            out[:, 9] = comment
    runs = chosen_runs(probs >= threshold)
    if not runs:
        return out
    text = (weights - anchor_w) * probs
    core = max(runs, key=lambda r: float(text[r].sum()))
    anchor = max(core, key=lambda i: text[i])
    container = run_container(table, core)
    around_anchor = set(table.ancestors[anchor])
    sibling_of = table.parent[container] if container is not None and container >= 0 else None
    article_paths = {plain_path(table.blocks[i].path) for i in core}
    marked: dict[int, bool] = {}
    for i, b in enumerate(table.blocks):
        anc = table.ancestors[i]
        inside = container is None or container in anc
        out[i, 2] = inside
        out[i, 3] = not inside and sibling_of is not None and sibling_of >= 0 and sibling_of in anc
        if not inside:
            out[i, 4] = i > core[-1]
            out[i, 5] = i < core[0]
        for e in anc:
            if e not in around_anchor:
                if e not in marked:
                    marked[e] = any(REGION_WORDS.search(w) for w in table.elements[e][1])
                if marked[e]:
                    out[i, 6] = 1.0
                    break
        out[i, 8] = plain_path(b.path) in article_paths
    return out


def pair_links(table) -> np.ndarray:
    """Per two consecutive blocks (i, i+1): 1 where they share a parent element or a class-free tag path."""
    n = len(table.blocks)
    if n < 2:
        return np.zeros(0)
    parent = [anc[-1] if anc else -1 for anc in table.ancestors]
    paths = [plain_path(b.path) for b in table.blocks]
    return np.array([float(parent[i] == parent[i + 1] or paths[i] == paths[i + 1]) for i in range(n - 1)])


def viterbi(score: np.ndarray, bonus: np.ndarray) -> np.ndarray:
    """The labels maximising sum(score[i] for kept i) + sum(bonus[i] where label i == label i+1)."""
    n = len(score)
    if n == 0:
        return np.zeros(0, dtype=bool)
    best = np.array([0.0, score[0]])  # best total ending in label 0 / 1
    back = np.zeros((n, 2), dtype=np.int8)
    for i in range(1, n):
        b = bonus[i - 1]
        stay0, move0 = best[0] + b, best[1]
        stay1, move1 = best[1] + b, best[0]
        back[i, 0] = 0 if stay0 >= move0 else 1
        back[i, 1] = 1 if stay1 >= move1 else 0
        best = np.array([max(stay0, move0), max(stay1, move1) + score[i]])
    labels = np.zeros(n, dtype=bool)
    state = int(best[1] > best[0])
    for i in range(n - 1, -1, -1):
        labels[i] = state
        state = back[i, state]
    return labels


def dominant_block(table, chosen: np.ndarray) -> np.ndarray:
    """`chosen`, or where it is empty, the one block holding `DOMINANT_SHARE` of the page's letters."""
    if len(chosen) and not chosen.any():
        weights = [b.weight for b in table.blocks]
        top = max(range(len(weights)), key=weights.__getitem__)
        if weights[top] >= DOMINANT_SHARE * sum(weights):
            chosen = chosen.copy()
            chosen[top] = True
    return chosen


def decide(table, probs, threshold: float, *, joint: bool = True, weights=WEIGHTS, pair: float = PAIR) -> np.ndarray:
    """Which blocks of the `PageTable` are main text, given the classifier's `probs` and `threshold`.

    `joint`: the page-level decision (for a model that never saw the site); else
    the blocks at `threshold` or more, less readers' comments where there is text
    outside them (a site's own model, which learned its site's regions).
    """
    probs = np.asarray(probs, dtype=float)
    if joint:
        score = block_terms(table, probs, threshold) @ np.asarray(weights, dtype=float)
        chosen = viterbi(score, pair * pair_links(table)) if pair > 0 else score > 0
    else:
        chosen = probs >= threshold
        if table.comments and chosen.any():
            comment = np.array([table.in_comments(i) for i in range(len(chosen))], dtype=bool)
            if (chosen & ~comment).any():
                chosen &= ~comment
    return dominant_block(table, chosen)
