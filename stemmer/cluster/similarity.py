"""Weighted longest-common-subsequence similarity of two pages' layouts.

A page's layout sequence lists each key once, at its first occurrence, so
runs of paragraphs and the varying inner order of article bodies cannot break
the alignment.  Each key is repeated by its site weight (`repeats`), which
makes the plain LCS of the expanded sequences equal to the weighted LCS:

    Sim(A, B) = 2 * sum_{k in LCS} w(k) / (sum_{k in A} w(k) + sum_{k in B} w(k))

Weights grow with the log of a key's text, so a long article body cannot
drown the static blocks that make a template.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel

# Weight of a key: 1 + log2(1 + letters / LETTERS_UNIT), at most MAX_REPEATS.
# Chosen on the dev sites: a 10-letter nav item weighs 2, a 1,000-letter body 6.
LETTERS_UNIT = 10
MAX_REPEATS = 6


@functools.lru_cache(maxsize=4096)  # a page's key weights recur (a site's nav items): extract asks per key
def repeats(mean_letters: float) -> int:
    """How many times a key with this mean text weight counts in a layout sequence."""
    return min(MAX_REPEATS, 1 + round(math.log2(1 + mean_letters / LETTERS_UNIT)))


def layout_sequence(keys: Iterable[str], key_ids: Mapping[str, int],
                    key_repeats: Mapping[str, int], default_repeats: int = 1) -> list[int]:
    """The expanded sequence of a page: first occurrences of its keys, each repeated.

    Keys not in `key_ids` get fresh negative ids (they match nothing known).
    """
    seq: list[int] = []
    seen: set[str] = set()
    fresh = -1
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        kid = key_ids.get(key)
        if kid is None:
            kid, fresh = fresh, fresh - 1
        seq.extend([kid] * key_repeats.get(key, default_repeats))
    return seq


def similarity(a: Sequence[int], b: Sequence[int]) -> float:
    """Sim of two expanded layout sequences, in [0, 1]; 1 for identical layouts."""
    if not a and not b:
        return 1.0
    return Indel.normalized_similarity(a, b)


def similarity_matrix(seqs: Sequence[Sequence[int]], others: Sequence[Sequence[int]] | None = None,
                      *, workers: int = 1) -> np.ndarray:
    """All pairwise similarities (float32), computed in rapidfuzz's C++ loop."""
    return process.cdist(seqs, seqs if others is None else others,
                         scorer=Indel.normalized_similarity, dtype=np.float32, workers=workers)
