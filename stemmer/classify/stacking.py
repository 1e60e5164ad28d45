"""The second stage's features: what the first stage thinks of the blocks around a block.

Web2Text's idea of using the neighbouring blocks, as stacking instead of a CRF:
the second stage sees the first stage's probabilities of the three blocks on
each side, of the blocks in the block's element and its parent, and of the page.
"""
from __future__ import annotations

import numpy as np

from stemmer.classify.features import PageTable

CONTEXT = (-3, -2, -1, 1, 2, 3)  # neighbours whose first-stage probability the second stage sees
N_CONTEXT = 1 + len(CONTEXT) + 2 * 3 + 3  # own, neighbours, 2 enclosing elements x 3, window/max/mean


def context_features(p: np.ndarray, table: PageTable) -> np.ndarray:
    """Per block: its own first-stage probability, its neighbours', and its element's mean and max."""
    n = len(p)
    if n == 0:
        return np.zeros((0, N_CONTEXT))
    cols = [p]
    for d in CONTEXT:
        shifted = np.full(n, -1.0)  # -1: no block there
        lo, hi = max(0, -d), min(n, n - d)
        if hi > lo:
            shifted[lo:hi] = p[lo + d:hi + d]
        cols.append(shifted)
    # Blocks sharing the nearest enclosing element, and sharing its parent.
    for depth in (1, 2):
        # the element's id + 1 (0: none) numbers the groups, as sorting the ids would, in the same order
        group = np.array([anc[-depth] + 1 if len(anc) >= depth else 0 for anc in table.ancestors], dtype=np.int64)
        count = np.bincount(group)[group]
        top = np.full(int(group.max()) + 1, -np.inf)
        np.maximum.at(top, group, p)
        cols += [np.bincount(group, weights=p)[group] / count, top[group], np.log1p(count)]
    window = np.convolve(np.pad(p, 5, mode="edge"), np.ones(11) / 11, mode="valid")
    cols += [window, np.full(n, p.max()), np.full(n, p.mean())]
    return np.column_stack(cols)
