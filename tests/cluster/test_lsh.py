import numpy as np
import pytest

from stemmer.cluster.lsh import LSHIndex, MinHasher, shingles


def test_shingles_count_repeated_keys_apart():
    assert len(shingles([1, 1, 2])) == 3
    assert len(shingles([1, 2, 1])) == 3  # a key's repeats, wherever they are
    assert len(shingles([])) == 0


def test_signature_is_repeatable_and_seeded():
    seq = [1, 1, 2, 3, 3, 3, 4]
    assert np.array_equal(MinHasher(seed=1).signature(seq), MinHasher(seed=1).signature(seq))
    assert not np.array_equal(MinHasher(seed=1).signature(seq), MinHasher(seed=2).signature(seq))


def test_signature_agreement_estimates_jaccard():
    a = list(range(100))
    b = list(range(50, 150))  # Jaccard 50 / 150
    hasher = MinHasher(bands=64, rows=4)
    agree = np.mean(hasher.signature(a) == hasher.signature(b))
    assert agree == pytest.approx(1 / 3, abs=0.08)


def test_identical_sequences_are_candidates_and_disjoint_ones_not():
    index = LSHIndex()
    index.add(7, [1, 2, 3, 4, 5, 6])
    assert index.candidates([1, 2, 3, 4, 5, 6]) == [7]
    assert index.candidates([10, 11, 12, 13]) == []


def test_candidates_rank_by_shared_bands_and_respect_the_limit():
    index = LSHIndex()
    near, far = list(range(40)), list(range(20, 60))
    index.add(0, far)
    index.add(1, near)
    query = list(range(39))
    assert index.candidates(query)[0] == 1
    assert len(index.candidates(query, limit=1)) == 1


def test_bad_band_shape_is_refused():
    with pytest.raises(ValueError, match="bands"):
        MinHasher(bands=0)
