"""Layout keys: a block's tag path with only the attribute tokens a site reuses.

Raw paths carry per-page noise: ids like ``post-1234``, hashed CSS classes,
tag and category classes on an article element.  A site's token vocabulary
(the share of its pages on which each class or id token occurs) keeps the
tokens that mark template slots and drops the rest, so pages of one template
get the same keys.
"""
from __future__ import annotations

import functools
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
# Members of a token family whose page counts sum to at most this times the
# family's own page count replace each other (see `_variable_families`).
EXCLUSIVE_FAMILY_RATIO = 1.3
# How many innermost elements of a main-text container a block's path must match.
CONTAINER_TAIL = 3
# A KeyMaker's memos forget all at this many entries: a long crawl of one site meets
# new path tails (per-post ids) on every page.
MEMO_LIMIT = 100_000
_HAS_DIGIT = re.compile(r"\d")


@functools.lru_cache(maxsize=65536)
def split_element(encoding: str) -> tuple[str, tuple[str, ...]]:
    """Split ``tag.c1.c2#id`` into the tag and its tokens (ids keep their ``#``)."""
    head, _, ident = encoding.partition("#")
    tag, *classes = head.split(".")
    classes = [c for c in classes if c]
    if ident:
        classes.append("#" + ident)
    return tag, tuple(classes)


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
        self._enc = _Made(self._encode)  # raw element -> its encoding
        self._keys = _Made(self._key_of)  # by the path's last `depth` elements: all a key reads
        self._within: dict[tuple[tuple[str, ...], tuple[str, ...]], bool] = {}

    @classmethod
    def learn(cls, pages: Iterable[PageBlocks], depth: int = 4) -> "KeyMaker":
        """Count on how many of `pages` each usable token occurs."""
        df: Counter[str] = Counter()
        family_df: Counter[str] = Counter()
        n = 0
        for page in pages:
            n += 1
            seen: set[str] = set()
            for enc in {e for b in page.blocks for e in b.path}:
                seen.update(_usable_tokens(enc))
            df.update(seen)
            family_df.update({f for t in seen if (f := _family(t))})
        variable = _variable_families(df, family_df)
        floor = max(MIN_TOKEN_PAGES, MIN_TOKEN_SHARE * n)
        share = {t: round(c / n, 4) for t, c in sorted(df.items())
                 if c >= floor and _family(t) not in variable}
        return cls(share, depth)

    def encoding(self, raw: str) -> str:
        """The normalised encoding of one element: its tag and kept tokens."""
        return self._enc[raw]

    def _encode(self, raw: str) -> str:
        if self.webstemmer:
            return _webstemmer_encoding(raw)
        tag, tokens = split_element(raw)
        share = self.token_share
        ids = [t for t in tokens if t[0] == "#" and t in share]
        # An id names the slot alone; its element's classes are styles and states.
        classes = [] if ids else sorted((t for t in tokens if t[0] != "#" and t in share),
                                        key=lambda t: (-share[t], t))[:MAX_CLASSES]
        return ".".join([tag, *sorted(classes)]) + (ids[0] if ids else "")

    def key(self, path: tuple[str, ...]) -> str:
        """The layout key of a block path: its last `depth` normalised encodings."""
        return self._keys[path[-self.depth:]]

    def _key_of(self, tail: tuple[str, ...]) -> str:
        return "/".join(map(self._enc.__getitem__, tail))

    def keys(self, page: PageBlocks) -> tuple[str, ...]:
        """The layout keys of a page's blocks, in order (`key` of each)."""
        known, start = self._keys, -self.depth
        return tuple([known[b.path[start:]] for b in page.blocks])

    def full_path(self, path: tuple[str, ...]) -> tuple[str, ...]:
        """The whole path, normalised (used for main-text containers)."""
        return tuple(map(self._enc.__getitem__, path))

    def within(self, path: tuple[str, ...], container: tuple[str, ...]) -> bool:
        """Whether a block path lies inside `container` and outside any box in it.

        Only the container's innermost elements must match, anywhere in the path:
        wrappers added or renamed higher up do not move the article body.  A box
        is an element below the container that names itself as noise (`boxed`):
        a "related" list or a share bar embedded in the article.
        """
        inside = self._within.get((path, container))
        if inside is None:
            tail = container[-CONTAINER_TAIL:]
            # The block's own element counts: text set loose in the container
            # itself (a Blogger post body with <br>s) is inside it.
            enc = list(map(self._enc.__getitem__, path))
            end = next((start + len(tail) for start in range(len(enc) - len(tail), -1, -1)
                        if all(map(_covers, enc[start:start + len(tail)], tail))), None)
            inside = end is not None and not any(boxed(raw) for raw in path[end:])
            if len(self._within) >= MEMO_LIMIT:
                self._within.clear()
            self._within[(path, container)] = inside
        return inside


class _Made(dict):
    """A memo: the value of a key it lacks is made by `make` where first asked, and kept
    (a hit costs a dict lookup in C, no Python call); it forgets all at `MEMO_LIMIT` entries."""

    __slots__ = ("make",)

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        if len(self) >= MEMO_LIMIT:
            self.clear()
        value = self[key] = self.make(key)
        return value


# Readability's test for elements that are unlikely to hold the article:
# a class or id naming one of these, unless it also names one of _MAYBE.
_UNLIKELY = re.compile(
    r"-ad-|ad-break|agegate|banner|breadcrumb|combx|comment|community|disqus|extra|footer|gdpr|"
    r"legends|menu|pager|pagination|popup|promo|related|remark|replies|rss|share|shoutbox|"
    r"sidebar|skyscraper|social|sponsor|supplemental|tags|widget")
_MAYBE = re.compile(r"and|article|body|column|content|main|shadow")
_BOX_TAGS = frozenset({"aside", "nav", "footer", "form"})


@functools.lru_cache(maxsize=65536)
def boxed(raw: str) -> bool:
    """Whether an element (raw ``tag.c1.c2#id``) is a box of noise inside an article."""
    tag, tokens = split_element(raw)
    if tag in _BOX_TAGS:
        return True
    names = " ".join(tokens)
    return bool(_UNLIKELY.search(names)) and not _MAYBE.search(names)


def common_container(paths: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest chain of elements that all `paths` start with, tag by tag.

    Each element keeps only the tokens every path has there: a ``<body>`` or
    ``<article>`` whose classes name the post's category must not cut the chain.
    Where the paths differ only by wrappers that some pages add (a ``<div>``
    around the content column), the chain skips them: it goes on with the
    elements that all paths end with, when these and the start together make up
    the whole of the shortest path.
    """
    paths = list(paths)
    if not paths:
        return ()
    head = _shared_chain(paths)
    shortest = min(len(p) for p in paths)
    if len(head) < shortest and any(len(p) != shortest for p in paths):
        tail = _shared_chain([p[::-1] for p in paths])[::-1]
        if len(head) + len(tail) >= shortest:
            return tuple(head) + tuple(tail[len(tail) - (shortest - len(head)):])
    return tuple(head)


def _shared_chain(paths: list[tuple[str, ...]]) -> list[str]:
    """The elements all `paths` share position by position from their start, with their shared tokens."""
    chain: list[str] = []
    for elements in zip(*paths):
        parsed = [split_element(e) for e in elements]
        tag = parsed[0][0]
        if any(t != tag for t, _ in parsed):
            break
        shared = set(parsed[0][1]).intersection(*(toks for _, toks in parsed[1:]))
        ids = sorted(t for t in shared if t[0] == "#")
        chain.append(".".join([tag, *sorted(t for t in shared if t[0] != "#")]) + (ids[0] if ids else ""))
    return chain


@functools.lru_cache(maxsize=65536)
def _covers(encoding: str, want: str) -> bool:
    """Whether an element matches a container element: same tag and id, a class in common.

    One shared class is enough: a post's own classes (its category) vary from page to page.
    """
    if encoding == want:
        return True
    tag, tokens = split_element(encoding)
    want_tag, want_tokens = split_element(want)
    if tag != want_tag:
        return False
    want_ids = [t for t in want_tokens if t[0] == "#"]
    if want_ids and want_ids[0] not in tokens:
        return False
    want_classes = {t for t in want_tokens if t[0] != "#"}
    return not want_classes or not want_classes.isdisjoint(tokens)


@functools.lru_cache(maxsize=65536)
def _usable_tokens(encoding: str) -> tuple[str, ...]:
    """The tokens of an element that may be part of a key: those without digits (per-post ids)."""
    return tuple(t for t in split_element(encoding)[1] if not _HAS_DIGIT.search(t))


@functools.lru_cache(maxsize=65536)
def _family(token: str) -> str | None:
    """``category`` for ``category-news``: the prefix of a token that names a value."""
    for i, ch in enumerate(token):
        if ch in "-_" and i:
            return token[:i]
    return None


def _variable_families(df: Counter[str], family_df: Counter[str]) -> set[str]:
    """Token families whose members replace each other from page to page.

    ``category-news`` / ``category-sports`` or ``format-standard`` / ``format-video``
    name a post's category or format: at most one per page, so their page
    counts add up to about the pages the family occurs on.  Families whose
    members occur together (``entry-title``, ``entry-content``) name slots.
    """
    members: dict[str, list[int]] = {}
    for token, count in df.items():
        if (family := _family(token)) is not None:
            members.setdefault(family, []).append(count)
    return {f for f, counts in members.items()
            if len(counts) >= 2 and sum(counts) <= EXCLUSIVE_FAMILY_RATIO * family_df[f]}


def _webstemmer_encoding(raw: str) -> str:
    """Webstemmer's ``tag:class=a b:id=x`` (its align/valign/span attributes are not kept)."""
    tag, tokens = split_element(raw)
    classes = " ".join(t for t in tokens if t[0] != "#")
    ids = [t[1:] for t in tokens if t[0] == "#"]
    attrs = ([f"class={classes}"] if classes else []) + [f"id={i}" for i in ids]
    return tag + "".join(":" + a for a in sorted(attrs))
