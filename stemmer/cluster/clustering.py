"""Group a site's pages by layout: average-linkage clustering cut at a similarity threshold."""
from __future__ import annotations

import numpy as np


def cluster_pages(sim: np.ndarray, threshold: float) -> list[list[int]]:
    """Clusters of page indexes whose average similarity stays above `threshold`.

    Args:
        sim: square similarity matrix of the site's pages.
        threshold: the similarity at which the dendrogram is cut (analyze ``-t``).

    Returns:
        Lists of page indexes, largest cluster first, each in input order.
    """
    from scipy.cluster.hierarchy import fcluster, linkage  # 0.4 s to import; extract needs none of it
    from scipy.spatial.distance import squareform

    n = len(sim)
    if n == 0:
        return []
    if n == 1:
        return [[0]]
    dist = 1.0 - np.asarray(sim, dtype=np.float64)
    dist = np.clip((dist + dist.T) / 2, 0.0, 1.0)
    np.fill_diagonal(dist, 0.0)
    tree = linkage(squareform(dist, checks=False), method="average")
    labels = fcluster(tree, t=1.0 - threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(int(label), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))
