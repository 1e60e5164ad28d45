"""MinHash signatures and banded LSH over layout sequences: cheap candidate pairs.

Comparing every page of a big site with every other costs n² weighted LCS runs.
Pages of one template share most of their layout keys, so the Jaccard similarity
of their key multisets is high, and MinHash estimates it from a short signature
(Broder 1997).  Banding the signature (Leskovec, Rajaraman & Ullman, *Mining of
Massive Datasets*, ch. 3) makes two sequences candidates when one band of
``ROWS`` values agrees, which happens with probability ``1 - (1 - J^ROWS)^BANDS``:
with 8 bands of 4 rows, 0.98 at J = 0.8, 0.88 at J = 0.7, 0.40 at J = 0.5.
Only candidates get the exact weighted similarity; a missed pair costs a little
accuracy, never correctness of the similarity itself.

The shingles of an expanded layout sequence are its keys counted with their
repeats (``(key, 1)``, ``(key, 2)``, ...), so heavy keys weigh more, as in `Sim`.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

# 8 bands of 4 rows: pages of one template (J >= 0.7) collide in nearly every
# case, pages of different templates (J <= 0.4) in about 1 of 5.  Chosen on the
# jekyll_sites dev set: wider bands missed article pages with long bodies.
BANDS = 8
ROWS = 4
_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a fast, well-spread 64-bit hash of each value."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def shingles(seq: Sequence[int]) -> np.ndarray:
    """The multiset shingles of an expanded layout sequence, as distinct 64-bit values."""
    counts: dict[int, int] = {}
    out = []
    for kid in seq:
        n = counts[kid] = counts.get(kid, 0) + 1
        out.append(((kid & 0xFFFFFFFF) << 8) | (n & 0xFF))
    return np.unique(np.asarray(out, dtype=np.uint64)) if out else np.zeros(0, np.uint64)


class MinHasher:
    """MinHash signatures of `bands * rows` values, from a seeded family of hashes.

    Args:
        bands: number of LSH bands.
        rows: signature values per band.
        seed: seeds the hash family, so that signatures repeat from run to run.
    """

    def __init__(self, bands: int = BANDS, rows: int = ROWS, seed: int = 0) -> None:
        if bands < 1 or rows < 1:
            raise ValueError(f"bands and rows must be at least 1, got bands={bands}, rows={rows}")
        self.bands, self.rows = bands, rows
        rng = np.random.default_rng(seed)
        self._salts = rng.integers(0, 2**63, size=(bands * rows, 1), dtype=np.uint64)

    def signature(self, seq: Sequence[int]) -> np.ndarray:
        """The signature of one sequence; all-max for an empty one."""
        sh = shingles(seq)
        if not len(sh):
            return np.full(self.bands * self.rows, _MASK, dtype=np.uint64)
        with np.errstate(over="ignore"):
            return _mix(sh[None, :] ^ self._salts).min(axis=1)

    def band_keys(self, signature: np.ndarray) -> list[bytes]:
        """One hashable key per band: the band's index and its values."""
        r = self.rows
        return [bytes([b]) + signature[b * r:(b + 1) * r].tobytes() for b in range(self.bands)]


class LSHIndex:
    """Banded LSH buckets of item ids; a query returns the items sharing a band.

    Example:
        >>> index = LSHIndex()
        >>> index.add(0, [1, 1, 2, 3])
        >>> index.candidates([1, 1, 2, 3])
        [0]
    """

    def __init__(self, hasher: MinHasher | None = None) -> None:
        self.hasher = hasher or MinHasher()
        self._buckets: dict[bytes, list[int]] = {}

    def add(self, item: int, seq: Sequence[int], keys: Iterable[bytes] | None = None) -> None:
        """Put `item` (an id of the caller's) into the buckets of `seq`'s bands."""
        for key in keys if keys is not None else self.keys(seq):
            self._buckets.setdefault(key, []).append(item)

    def keys(self, seq: Sequence[int]) -> list[bytes]:
        """The band keys of a sequence (compute once, pass to `add` and `candidates`)."""
        return self.hasher.band_keys(self.hasher.signature(seq))

    def candidates(self, seq: Sequence[int], keys: Iterable[bytes] | None = None,
                   limit: int | None = None) -> list[int]:
        """Items sharing at least one band with `seq`, most shared bands first, then oldest.

        Args:
            seq: the query sequence.
            keys: its band keys, if already computed.
            limit: return at most this many.
        """
        hits: dict[int, int] = {}
        for key in keys if keys is not None else self.keys(seq):
            for item in self._buckets.get(key, ()):
                hits[item] = hits.get(item, 0) + 1
        ranked = sorted(hits, key=lambda i: (-hits[i], i))
        return ranked[:limit] if limit is not None else ranked
