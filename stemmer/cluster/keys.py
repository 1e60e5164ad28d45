"""Layout keys: a block's tag path with only the attribute tokens a site reuses.

Raw paths carry per-page noise: ids like ``post-1234``, hashed CSS classes,
tag and category classes on an article element.  A site's token vocabulary
(the share of its pages on which each class or id token occurs) keeps the
tokens that mark template slots and drops the rest, so pages of one template
get the same keys.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from stemmer.blocks import PageBlocks

# A token must occur on at least this many pages, and this share of them, to be
# part of a key.  Chosen on the dev sites: per-post ids/classes occur once.
MIN_TOKEN_PAGES = 2
MIN_TOKEN_SHARE = 0.05
# At most this many class tokens per element (the most common ones on the site):
# WordPress-style class lists carry per-post category and tag classes.
MAX_CLASSES = 2
_HAS_DIGIT = re.compile(r"\d")


def _tokens(encoding: str) -> tuple[str, list[str]]:
    """Split ``tag.c1.c2#id`` into the tag and its tokens (ids keep their ``#``)."""
    head, _, ident = encoding.partition("#")
    tag, *classes = head.split(".")
    classes = [c for c in classes if c]
    if ident:
        classes.append("#" + ident)
    return tag, classes


class KeyMaker:
    """Maps raw block paths to layout keys, given a site's token vocabulary.

    Args:
        token_share: share of the site's pages on which each attribute token occurs.
        depth: how many trailing path elements form a key.
    """

    def __init__(self, token_share: Mapping[str, float], depth: int = 4, *,
                 webstemmer: bool = False) -> None:
        self.token_share = dict(token_share)
        self.depth = depth
        self.webstemmer = webstemmer
        self._enc: dict[str, str] = {}
        self._keys: dict[tuple[str, ...], str] = {}

    @classmethod
    def learn(cls, pages: Iterable[PageBlocks], depth: int = 4) -> "KeyMaker":
        """Count on how many of `pages` each usable token occurs."""
        df: Counter[str] = Counter()
        n = 0
        for page in pages:
            n += 1
            seen: set[str] = set()
            for enc in {e for b in page.blocks for e in b.path}:
                seen.update(t for t in _tokens(enc)[1] if not _HAS_DIGIT.search(t))
            df.update(seen)
        floor = max(MIN_TOKEN_PAGES, MIN_TOKEN_SHARE * n)
        share = {t: round(c / n, 4) for t, c in sorted(df.items()) if c >= floor}
        return cls(share, depth)

    def encoding(self, raw: str) -> str:
        """The normalised encoding of one element: its tag and kept tokens."""
        enc = self._enc.get(raw)
        if enc is None and self.webstemmer:
            enc = self._enc[raw] = _webstemmer_encoding(raw)
        if enc is None:
            tag, tokens = _tokens(raw)
            share = self.token_share
            classes = sorted((t for t in tokens if t[0] != "#" and t in share),
                             key=lambda t: (-share[t], t))[:MAX_CLASSES]
            ids = [t for t in tokens if t[0] == "#" and t in share]
            enc = ".".join([tag, *sorted(classes)]) + (ids[0] if ids else "")
            self._enc[raw] = enc
        return enc

    def key(self, path: tuple[str, ...]) -> str:
        """The layout key of a block path: its last `depth` normalised encodings."""
        key = self._keys.get(path)
        if key is None:
            key = "/".join(self.encoding(e) for e in path[-self.depth:])
            self._keys[path] = key
        return key

    def full_path(self, path: tuple[str, ...]) -> tuple[str, ...]:
        """The whole path, normalised (used for main-text containers)."""
        return tuple(self.encoding(e) for e in path)


def _webstemmer_encoding(raw: str) -> str:
    """Webstemmer's ``tag:class=a b:id=x`` (its align/valign/span attributes are not kept)."""
    tag, tokens = _tokens(raw)
    classes = " ".join(t for t in tokens if t[0] != "#")
    ids = [t[1:] for t in tokens if t[0] == "#"]
    attrs = ([f"class={classes}"] if classes else []) + [f"id={i}" for i in ids]
    return tag + "".join(":" + a for a in sorted(attrs))
