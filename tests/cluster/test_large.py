import random

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from stemmer.cluster import cluster_pages, similarity_matrix
from stemmer.cluster.large import average_linkage, cluster_large


def template_seqs(n: int, templates: int = 4, edits: int = 12, seed: int = 0) -> list[list[int]]:
    """Sequences from a few random templates, each with some insertions and deletions."""
    rng = random.Random(seed)
    bases = [[rng.randrange(400) for _ in range(60)] for _ in range(templates)]
    seqs = []
    for _ in range(n):
        seq = list(bases[rng.randrange(templates)])
        for _ in range(rng.randrange(edits)):
            if rng.random() < 0.5:
                seq.insert(rng.randrange(len(seq)), rng.randrange(400))
            else:
                seq.pop(rng.randrange(len(seq)))
        seqs.append(seq)
    return seqs


def as_labels(clusters, n):
    out = np.empty(n, dtype=int)
    for k, members in enumerate(clusters):
        out[members] = k
    return out


def same_partition(a, b) -> bool:
    return sorted(map(sorted, a)) == sorted(map(sorted, b))


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
def test_average_linkage_cuts_like_scipy(threshold):
    seqs = template_seqs(120, edits=30, seed=3)
    sim = similarity_matrix(seqs)
    dist = np.clip(1 - sim.astype(np.float64), 0, 1)
    dist = (dist + dist.T) / 2
    np.fill_diagonal(dist, 0)
    expected = fcluster(linkage(squareform(dist), "average"), 1 - threshold, criterion="distance")
    got = average_linkage(sim, np.ones(len(seqs)), threshold)
    assert same_partition(list(_groups(expected).values()), list(_groups(got).values()))


def _groups(labels):
    groups = {}
    for i, label in enumerate(labels):
        groups.setdefault(label, []).append(i)
    return groups


def test_a_weight_counts_as_that_many_identical_points():
    sim = np.array([[1.0, 0.75, 0.5], [0.75, 1.0, 0.6], [0.5, 0.6, 1.0]])
    # 0 and 1 merge first; 2 joins them at (w0 * 0.5 + w1 * 0.6) / (w0 + w1).
    assert len(set(average_linkage(sim, [1, 1, 1], 0.56))) == 2  # 0.55
    assert len(set(average_linkage(sim, [1, 4, 1], 0.56))) == 1  # 0.58
    assert len(set(average_linkage(sim, [4, 1, 1], 0.56))) == 2  # 0.52
    # the same as clustering the points repeated: 1 four times
    expanded = sim[np.ix_([0, 1, 1, 1, 1, 2], [0, 1, 1, 1, 1, 2])]
    assert len(cluster_pages(expanded, 0.56)) == 1


def test_duplicates_collapse_without_changing_the_clusters():
    seqs = template_seqs(150, seed=1)
    seqs = seqs + seqs[:100] + seqs[:40]
    assert same_partition(cluster_large(seqs, 0.7), cluster_pages(similarity_matrix(seqs), 0.7))


def test_leaders_agree_with_exact_clustering():
    from sklearn.metrics import adjusted_rand_score

    seqs = template_seqs(600, seed=2)
    exact = as_labels(cluster_pages(similarity_matrix(seqs), 0.7), len(seqs))
    approx = as_labels(cluster_large(seqs, 0.7, leaders=True), len(seqs))
    assert adjusted_rand_score(exact, approx) >= 0.95


def test_leaders_beyond_a_block_are_sampled_and_assigned():
    seqs = template_seqs(300, templates=3, edits=40, seed=4)
    clusters = cluster_large(seqs, 0.5, leaders=True, micro_threshold=0.99, block=20)
    assert sorted(i for c in clusters for i in c) == list(range(300))
    assert len(clusters) < 60  # the leaders outside the sample joined clusters


def test_clusters_come_largest_first_in_input_order():
    seqs = [[1, 2, 3], [7, 8, 9], [1, 2, 3], [1, 2, 3, 4], [7, 8, 9]]
    assert cluster_large(seqs, 0.7) == [[0, 2, 3], [1, 4]]
    assert cluster_large([], 0.7) == []


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="threshold"):
        cluster_large([[1]], 1.5)
    with pytest.raises(ValueError, match="micro_threshold"):
        cluster_large([[1]], 0.7, micro_threshold=0.5)
    with pytest.raises(ValueError, match="block"):
        cluster_large([[1]], 0.7, block=0)
    with pytest.raises(ValueError, match="weights"):
        average_linkage(np.eye(2), [1, 0], 0.7)
