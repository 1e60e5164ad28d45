"""Find the layout of a site that a new page follows."""
from __future__ import annotations

from dataclasses import dataclass

from stemmer.blocks import PageBlocks
from stemmer.cluster import KeyMaker, similarity
from stemmer.cluster.similarity import repeats
from stemmer.layout.model import Layout, SitePatterns


@dataclass(frozen=True, slots=True)
class Match:
    """The best layout for a page (None when none reaches the threshold) and its similarity."""

    layout: Layout | None
    similarity: float
    keys: tuple[str, ...]


class SiteMatcher:
    """Matches pages of one site against the site's layouts.

    Args:
        patterns: the site's learned patterns.
        threshold: least similarity of a match; default: the one stored with the patterns.
        strict: reject a layout when the page lacks a slot that all its pages had.
    """

    def __init__(self, patterns: SitePatterns, *, threshold: float | None = None,
                 strict: bool = False) -> None:
        self.patterns = patterns
        self.threshold = patterns.params.get("match_threshold", 0.5) if threshold is None else threshold
        self.strict = strict
        self.keymaker = KeyMaker(patterns.tokens, int(patterns.params.get("key_depth", 4)),
                                 webstemmer=bool(patterns.params.get("key_style_webstemmer")))
        all_keys = sorted({s.key for lay in patterns.layouts for s in lay.sections})
        self._ids = {k: _symbol(i) for i, k in enumerate(all_keys)}
        self._fresh = len(all_keys)  # the first id of the keys no layout knows
        self._layouts = []
        for lay in patterns.layouts:
            reps = {s.key: s.repeats for s in lay.sections}
            seq = "".join(self._ids[k] * reps[k] for k in dict.fromkeys(s.key for s in lay.sections))
            required = {s.key for s in lay.sections if s.share >= 1.0}
            self._layouts.append((lay, {k: self._ids[k] * n for k, n in reps.items()}, seq, required))

    def match(self, page: PageBlocks) -> Match:
        """The most similar layout of the site, if it reaches the threshold."""
        keys = self.keymaker.keys(page)
        own: dict[str, int] = {}
        for key, b in zip(keys, page.blocks):
            own[key] = own.get(key, 0) + b.weight
        # The page's keys once each, in order of first occurrence, as `layout_sequence` lists
        # them: with their ids (fresh ones for keys no layout knows), each as often as its own repeats.
        ids, fresh, items = self._ids, self._fresh, []
        for key, weight in own.items():
            kid = ids.get(key)
            if kid is None:
                kid, fresh = _symbol(fresh), fresh + 1
            items.append((key, kid * repeats(weight)))
        best, best_sim = None, -1.0
        for lay, reps, seq, required in self._layouts:
            if self.strict and not required <= own.keys():
                continue
            # A key the layout knows counts as often as in the layout.
            sim = similarity("".join([reps.get(key, mine) for key, mine in items]), seq)
            if sim > best_sim:
                best, best_sim = lay, sim
        if best is None or best_sim < self.threshold:
            return Match(None, max(best_sim, 0.0), keys)
        return Match(best, best_sim, keys)


# The first code point past the surrogates, which a key's symbol skips.
_PAST_SURROGATES = 0xE000 - 0xD800


def _symbol(n: int) -> str:
    """Key number `n` as one character: a layout sequence is a string, which rapidfuzz compares
    much faster than a list of numbers (the same sequence, so the same similarity)."""
    return chr(n if n < 0xD800 else n + _PAST_SURROGATES)

