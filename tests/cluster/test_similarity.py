import random

import numpy as np
import pytest

from stemmer.cluster import cluster_pages, layout_sequence, similarity, similarity_matrix
from stemmer.cluster.similarity import MAX_REPEATS, repeats
from stemmer.layout.model import AnalyzeParams

NAV = '<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news/">News</a></li></ul></nav>'
FOOTER = '<footer class="footer"><p>Copyright 2024 Example Media</p></footer>'


def article(n: int, paragraphs: int, extra: str = "") -> str:
    body = "".join(f"<p>Paragraph {i} of story {n}, with a few words of running text.</p>"
                   for i in range(paragraphs))
    return (f'<html><body>{NAV}<article id="post-{n}" class="post post-{n}"><h1 class="title">Story {n}</h1>'
            f'<div class="body">{extra}{body}</div></article>{FOOTER}</body></html>')


def listing(n: int, rows: int) -> str:
    items = "".join(f'<tr><td class="date">May {i}</td><td class="link"><a href="/{i}">Headline {i}</a></td></tr>'
                    for i in range(rows))
    return (f'<html><body>{NAV}<h2 class="section">Archive {n}</h2><table class="list">{items}</table>'
            f"{FOOTER}</body></html>")


def random_seqs(n: int, seed: int = 0) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.randrange(8) for _ in range(rng.randrange(0, 15))] for _ in range(n)]


def test_identical_layouts_have_similarity_one():
    assert similarity([1, 1, 2, 3, 3, 3], [1, 1, 2, 3, 3, 3]) == 1.0
    assert similarity([], []) == 1.0


def test_disjoint_layouts_have_similarity_zero():
    assert similarity([1, 2, 3], [4, 5]) == 0.0
    assert similarity([1, 2], []) == 0.0


def test_similarity_is_symmetric_and_bounded():
    seqs = random_seqs(30)
    for a in seqs:
        for b in seqs:
            s = similarity(a, b)
            assert 0.0 <= s <= 1.0
            assert s == pytest.approx(similarity(b, a))


def test_similarity_is_the_weighted_lcs_formula():
    # LCS of [1,1,2,3] and [1,1,3,4] is [1,1,3]: 2 * 3 / (4 + 4)
    assert similarity([1, 1, 2, 3], [1, 1, 3, 4]) == pytest.approx(0.75)


def test_similarity_matrix_agrees_with_pairwise_similarity():
    seqs = [s for s in random_seqs(12, seed=1) if s]
    matrix = similarity_matrix(seqs)
    assert matrix.shape == (len(seqs), len(seqs))
    assert np.allclose(np.diag(matrix), 1.0)
    assert np.allclose(matrix, matrix.T)
    for i, a in enumerate(seqs):
        for j, b in enumerate(seqs):
            assert matrix[i, j] == pytest.approx(similarity(a, b), abs=1e-6)


def test_layout_sequence_lists_first_occurrences_repeated_by_weight():
    ids = {"nav": 0, "p": 1, "foot": 2}
    reps = {"nav": 2, "p": 3}
    assert layout_sequence(["nav", "p", "p", "p", "foot", "p"], ids, reps) == [0, 0, 1, 1, 1, 2]


def test_unknown_keys_get_distinct_ids_that_match_nothing():
    seq = layout_sequence(["x", "known", "y", "x"], {"known": 5}, {})
    assert seq[1] == 5
    assert seq[0] < 0 and seq[2] < 0 and seq[0] != seq[2]
    assert len(seq) == 3


def test_repeats_grow_slowly_with_text_and_are_capped():
    weights = [repeats(n) for n in (0, 10, 100, 1_000, 100_000)]
    assert weights[0] == 1
    assert weights == sorted(weights)
    assert weights[-1] == MAX_REPEATS
    assert repeats(5_000) <= MAX_REPEATS


def test_paragraph_runs_of_different_lengths_stay_similar(sequences):
    short, long, other = sequences([article(1, 3), article(2, 30), listing(1, 10)])
    assert similarity(short, long) >= 0.95
    assert similarity(short, other) < 0.6
    assert similarity(long, other) < 0.6


def test_varying_inner_body_structure_stays_similar(sequences):
    plain, rich = sequences([
        article(1, 4),
        article(2, 12, extra="<h2>Sub</h2><blockquote><p>A quote of some words</p></blockquote>"
                             "<ul><li>one item</li><li>another item</li></ul>"),
    ])
    assert similarity(plain, rich) > AnalyzeParams().cluster_threshold


def test_pages_of_one_template_cluster_together_other_template_apart(sequences):
    htmls = [article(1, 3), article(2, 30), article(3, 8), listing(1, 5), listing(2, 25), article(4, 1)]
    clusters = cluster_pages(similarity_matrix(sequences(htmls)), 0.7)
    assert sorted(map(sorted, clusters)) == [[0, 1, 2, 5], [3, 4]]


def test_clusters_come_largest_first_in_input_order():
    sim = np.array([[1, 0, 0, 0], [0, 1, 0.9, 0.9], [0, 0.9, 1, 0.9], [0, 0.9, 0.9, 1]], dtype=np.float32)
    assert cluster_pages(sim, 0.5) == [[1, 2, 3], [0]]


def test_cluster_threshold_cuts_the_tree():
    sim = np.array([[1, 0.8, 0.8], [0.8, 1, 0.8], [0.8, 0.8, 1]])
    assert cluster_pages(sim, 0.7) == [[0, 1, 2]]
    assert cluster_pages(sim, 0.9) == [[0], [1], [2]]


def test_cluster_pages_of_zero_or_one_page():
    assert cluster_pages(np.zeros((0, 0)), 0.7) == []
    assert cluster_pages(np.ones((1, 1)), 0.7) == [[0]]
