"""Cluster a big site's pages without the n × n similarity matrix.

Exact clustering (`cluster_pages`) compares every pair of pages: n² weighted LCS
runs and an n² matrix, 10 s and 20 MB at 1,600 pages, 40× that at 10,000.  The
pages of a big site are few templates filled with different texts, so:

1. **Duplicates collapse.**  Pages with the same layout sequence are one point
   with a weight, the number of its pages.  Average linkage over weighted
   points gives the same clusters as over the pages (duplicates are at distance
   0 and merge first), so when the distinct sequences fit in one `block`, the
   result is exact.
2. **Leaders.**  Otherwise the distinct sequences, heaviest first, join the
   most similar earlier *leader* whose similarity is at least a tight
   `micro_threshold` (between `threshold` and 1), or become a leader
   themselves.  Leaders to compare with are found by MinHash LSH
   (`stemmer.cluster.lsh`), so each sequence is compared with at most
   `CANDIDATES` leaders, not with all.
3. **Average linkage over the leaders**, weighted by their followers, on the
   exact similarities of the leaders (one dense block).  Every page takes its
   leader's cluster.
4. **Sampling.**  When even the leaders do not fit in one block, the `block`
   heaviest are clustered and every other leader joins the cluster of its most
   similar clustered leader (LSH candidates, exact similarity, at least
   `threshold`); the leaders that join none are clustered the same way, again.

Memory is bounded by one ``block × block`` matrix plus the sequences; time grows
with the pages times the leaders each is compared with, not with n².
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel

from stemmer.cluster.lsh import LSHIndex, MinHasher
from stemmer.cluster.similarity import similarity_matrix

# learn_site clusters sites of up to this many pages exactly (`cluster_pages` on
# all pairs): 2,000 pages take about 2 s and 16 MB there.
EXACT_MAX_PAGES = 2000
# The most sequences in one dense similarity block: BLOCK² float32 similarities
# and float64 distances (48 MB), about 2 s of weighted LCS.
BLOCK = 2000
# A leader takes sequences at least this close to 1 relative to the cut:
# micro_threshold = 1 - (1 - threshold) * MICRO_SHARE, 0.9 for the default 0.7.
# Chosen on the dev sites of >= 10 pages, leaders forced: mean adjusted Rand
# index with exact clustering 0.955 at 1/2 (0.85), 0.967 at 1/3, 0.971 at 1/6
# (0.95), which makes more leaders, each a row of the block.
MICRO_SHARE = 1 / 3
# A sequence is compared with at most this many LSH candidate leaders.
CANDIDATES = 64


def cluster_large(seqs: Sequence[Sequence[int]], threshold: float, *, block: int = BLOCK,
                  leaders: bool | None = None, micro_threshold: float | None = None,
                  seed: int = 0) -> list[list[int]]:
    """Clusters of page indexes, as `cluster_pages` finds them, without an n × n matrix.

    Args:
        seqs: the expanded layout sequences of the site's pages.
        threshold: the similarity at which clusters are cut (analyze ``-t``).
        block: the most sequences compared all against all at once (memory
            grows with its square).
        leaders: True to go through leaders even when the distinct sequences
            fit in a block (to measure that path), False never to (exact,
            one matrix of all distinct sequences); default: when they do not fit.
        micro_threshold: least similarity of a sequence to its leader; default
            from `MICRO_SHARE`.
        seed: seeds the MinHash family.

    Returns:
        Lists of page indexes, largest cluster first, each in input order.

    Raises:
        ValueError: `threshold` or `micro_threshold` outside [0, 1], or a `block` below 1.
    """
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be within [0, 1], got {threshold}")
    if block < 1:
        raise ValueError(f"block must be at least 1, got {block}")
    if micro_threshold is None:
        micro_threshold = 1.0 - (1.0 - threshold) * MICRO_SHARE
    if not threshold <= micro_threshold <= 1.0:
        raise ValueError(f"micro_threshold must be within [threshold, 1] = [{threshold}, 1], "
                         f"got {micro_threshold}")
    if not seqs:
        return []
    index: dict[tuple[int, ...], int] = {}
    pages: list[list[int]] = []
    for i, seq in enumerate(seqs):
        u = index.setdefault(tuple(seq), len(index))
        if u == len(pages):
            pages.append([])
        pages[u].append(i)
    unique = list(index)
    weights = np.array([len(p) for p in pages], dtype=np.float64)
    if leaders is None:
        leaders = len(unique) > block
    labels = _cluster_weighted(unique, weights, threshold, block, micro_threshold,
                               MinHasher(seed=seed), leaders)
    groups: dict[int, list[int]] = {}
    for u, label in enumerate(labels):
        groups.setdefault(int(label), []).extend(pages[u])
    return sorted((sorted(g) for g in groups.values()), key=lambda g: (-len(g), g[0]))


def _cluster_weighted(seqs: list[tuple[int, ...]], weights: np.ndarray, threshold: float, block: int,
                      micro_threshold: float, hasher: MinHasher, leaders: bool) -> np.ndarray:
    """Cluster labels of distinct weighted sequences: exact in one block, or by leaders."""
    if not leaders:
        return average_linkage(similarity_matrix(seqs), weights, threshold)
    heads, follows = _leaders(seqs, weights, micro_threshold, hasher)
    leader_weights = np.bincount(follows, weights=weights, minlength=len(heads))
    leader_seqs = [seqs[i] for i in heads]
    if len(heads) <= block:
        labels = average_linkage(similarity_matrix(leader_seqs), leader_weights, threshold)
    else:
        labels = _sampled(leader_seqs, leader_weights, threshold, block, hasher)
    return labels[follows]


def _leaders(seqs: list[tuple[int, ...]], weights: np.ndarray, micro_threshold: float,
             hasher: MinHasher) -> tuple[list[int], np.ndarray]:
    """Leader clustering, heaviest first: the leaders, and each sequence's leader (index into them)."""
    order = sorted(range(len(seqs)), key=lambda i: (-weights[i], i))
    lsh = LSHIndex(hasher)
    leaders: list[int] = []
    follows = np.empty(len(seqs), dtype=np.int64)
    for i in order:
        keys = lsh.keys(seqs[i])
        cands = lsh.candidates(seqs[i], keys, limit=CANDIDATES)
        best = None
        if cands:
            best = process.extractOne(seqs[i], [seqs[leaders[c]] for c in cands],
                                      scorer=Indel.normalized_similarity, processor=None,
                                      score_cutoff=micro_threshold)
        if best is not None:
            follows[i] = cands[best[2]]
        else:
            follows[i] = len(leaders)
            lsh.add(len(leaders), seqs[i], keys)
            leaders.append(i)
    return leaders, follows


def _sampled(seqs: list[tuple[int, ...]], weights: np.ndarray, threshold: float, block: int,
             hasher: MinHasher) -> np.ndarray:
    """Labels when the leaders exceed a block: cluster the heaviest, assign the rest, repeat."""
    labels = np.full(len(seqs), -1, dtype=np.int64)
    todo = sorted(range(len(seqs)), key=lambda i: (-weights[i], i))
    next_label = 0
    while todo:
        sample, rest = todo[:block], todo[block:]
        sample_labels = average_linkage(similarity_matrix([seqs[i] for i in sample]),
                                        weights[sample], threshold)
        labels[sample] = sample_labels + next_label
        next_label += int(sample_labels.max()) + 1
        lsh = LSHIndex(hasher)
        for j, i in enumerate(sample):
            lsh.add(j, seqs[i])
        left = []
        for i in rest:
            cands = lsh.candidates(seqs[i], limit=CANDIDATES)
            best = cands and process.extractOne(
                seqs[i], [seqs[sample[c]] for c in cands], scorer=Indel.normalized_similarity,
                processor=None, score_cutoff=threshold)
            if best:
                labels[i] = labels[sample[cands[best[2]]]]
            else:
                left.append(i)
        todo = left
    return labels


def average_linkage(sim: np.ndarray, weights: Sequence[float] | np.ndarray, threshold: float) -> np.ndarray:
    """Flat clusters of weighted average linkage (UPGMA), cut at similarity `threshold`.

    A point of weight w stands for w identical pages: the distance of two
    clusters is the mean over their pages' pairs, as in
    ``scipy.cluster.hierarchy.linkage(method="average")`` over the pages, cut
    with ``fcluster(criterion="distance")`` at ``1 - threshold``.  Runs the
    nearest-neighbour chain (Murtagh 1983), O(n²) time on one n × n matrix; a
    cluster whose nearest neighbour is beyond the cut is retired at once (an
    average of distances beyond the cut stays beyond it).

    Args:
        sim: square similarity matrix of the points.
        weights: positive weight of each point.
        threshold: least average similarity within a cluster.

    Returns:
        A cluster label per point (0, 1, ... in no particular order).
    """
    n = len(sim)
    w = np.asarray(weights, dtype=np.float64)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if w.shape != (n,) or not np.all(w > 0):
        raise ValueError(f"weights must be {n} positive numbers, got shape {w.shape}")
    dist = 1.0 - np.asarray(sim, dtype=np.float64)
    dist = np.clip((dist + dist.T) / 2, 0.0, 1.0)
    np.fill_diagonal(dist, np.inf)
    cut = 1.0 - threshold
    size = w.copy()
    root = np.arange(n)  # the cluster row each point was merged into
    merged_into = np.arange(n)
    chain: list[int] = []
    start = 0
    alive = np.ones(n, dtype=bool)
    while True:
        if not chain:
            while start < n and not alive[start]:
                start += 1
            if start == n:
                break
            chain.append(start)
        a = chain[-1]
        row = dist[a]
        b = int(np.argmin(row))
        nearest = row[b]
        if not nearest <= cut:  # a never merges below the cut: retire it
            alive[a] = False
            dist[a, :] = np.inf
            dist[:, a] = np.inf
            chain.pop()
            continue
        if len(chain) > 1 and row[chain[-2]] <= nearest:  # ties go back down the chain: no cycles
            b = chain[-2]
        if len(chain) > 1 and b == chain[-2]:
            chain.pop()
            chain.pop()
            with np.errstate(invalid="ignore"):
                new = (size[a] * dist[a] + size[b] * dist[b]) / (size[a] + size[b])
            new[a] = new[b] = np.inf
            dist[a, :] = new
            dist[:, a] = new
            dist[b, :] = np.inf
            dist[:, b] = np.inf
            size[a] += size[b]
            alive[b] = False
            merged_into[b] = a
        else:
            chain.append(b)
    for i in range(n):  # follow merges to the surviving row
        r = i
        while merged_into[r] != r:
            r = merged_into[r]
        root[i] = r
    _, labels = np.unique(root, return_inverse=True)
    return labels.astype(np.int64)
