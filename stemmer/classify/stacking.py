"""The second stage's features: what the first stage thinks of the blocks around a block.

Web2Text's idea of using the neighbouring blocks, as stacking instead of a CRF:
the second stage sees the first stage's probabilities of the three blocks on
each side, of the blocks in the block's element and its parent, and of the page.
"""
from __future__ import annotations

import numpy as np

from stemmer.blocks.segment import walker_in_use
from stemmer.classify.features import PageTable

try:
    from stemmer.classify._text_stats import context_columns as _compiled_context_columns
except ImportError:  # not built: the numpy below, to the same numbers
    _compiled_context_columns = None

CONTEXT = (-3, -2, -1, 1, 2, 3)  # neighbours whose first-stage probability the second stage sees
N_CONTEXT = 1 + len(CONTEXT) + 2 * 3 + 3  # own, neighbours, 2 enclosing elements x 3, window/max/mean


def context_features(p: np.ndarray, table: PageTable) -> np.ndarray:
    """Per block: its own first-stage probability, its neighbours', and its element's mean and max."""
    n = len(p)
    if n == 0:
        return np.zeros((0, N_CONTEXT))
    out = np.empty((n, N_CONTEXT))  # the columns written in place, in the order below
    k = 1 + len(CONTEXT) + 2 * 3
    if _compiled_context_columns is not None and walker_in_use() == "compiled":
        _compiled_context_columns(np.ascontiguousarray(p, dtype=np.float64), table.ancestors, len(table.elements),
                                  np.log1p(np.arange(n + 1.0)), out)
    else:
        _context_columns(p, table, out)
    padded = np.concatenate([np.full(5, p[0]), p, np.full(5, p[-1])])  # np.pad(p, 5, mode="edge")
    out[:, k] = np.convolve(padded, np.ones(11) / 11, mode="valid")
    out[:, k + 1] = p.max()
    out[:, k + 2] = p.mean()
    return out


def _context_columns(p: np.ndarray, table: PageTable, out: np.ndarray) -> None:
    """The columns of the neighbours and of the two nearest enclosing elements, written into `out`.
    The Python twin of `stemmer.classify._text_stats.context_columns`."""
    n = len(p)
    out[:, 0] = p
    for k, d in enumerate(CONTEXT, 1):
        out[:, k] = -1.0  # -1: no block there
        lo, hi = max(0, -d), min(n, n - d)
        if hi > lo:
            out[lo:hi, k] = p[lo + d:hi + d]
    # Blocks sharing the nearest enclosing element, and sharing its parent; the element's
    # id + 1 (0: none) numbers the groups, as sorting the ids would, in the same order.
    ancestors = table.ancestors
    groups = ([anc[-1] + 1 if anc else 0 for anc in ancestors],
              [anc[-2] + 1 if len(anc) >= 2 else 0 for anc in ancestors])
    k = 1 + len(CONTEXT)
    for depth in (1, 2):
        group = np.array(groups[depth - 1], dtype=np.int64)
        count = np.bincount(group)[group]
        top = np.full(int(group.max()) + 1, -np.inf)
        np.maximum.at(top, group, p)
        out[:, k] = np.bincount(group, weights=p)[group] / count
        out[:, k + 1] = top[group]
        out[:, k + 2] = np.log1p(count)
        k += 3
