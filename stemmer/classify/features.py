"""Block features for the classifier: position, tags, class words, R1-R5 ratios, text statistics.

`page_table` is `stemmer.blocks.segment`'s walk with a recorder: the same
blocks, and for each what the layout blocks drop: its links and images, and
the DOM elements around it.  `Featurizer` turns a page table into one row of
numbers per block; its feature groups can be switched on and off (`GROUPS`),
and its vocabularies (ancestor tags, class and id words) are learned from
training pages and saved with the model.

Ratios follow the template+SVM paper (seed 001): R1 text share of the page,
R2 link-text share, R3 link-count share, R4 image share, R5 link density,
each with add-one smoothing, for the block and for the three nearest
enclosing elements that hold more blocks than it (Web2Text's collapsed DOM:
an element with a single block in it says nothing new).
"""
from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from stemmer.blocks import Block, PageBlocks, segment
from stemmer.blocks.segment import walker_in_use

# Compiled where the install built them, else the Python twins below (STEMMER_WALKER=python also means these).
try:
    from stemmer.blocks._walker import TableRecorder as _CompiledRecorder
except ImportError:
    _CompiledRecorder = None
try:
    from stemmer.classify._text_stats import Describer as _CompiledDescriber
    from stemmer.classify._text_stats import neighbour_columns as _compiled_neighbour_columns
    from stemmer.classify._text_stats import page_arrays as _compiled_page_arrays
    from stemmer.classify._text_stats import ratio_columns as _compiled_ratio_columns
    from stemmer.classify._text_stats import text_stats as _compiled_text_stats
    from stemmer.classify._text_stats import vocab_counts as _compiled_vocab_counts
except ImportError:
    _CompiledDescriber = _compiled_neighbour_columns = _compiled_page_arrays = _compiled_ratio_columns = None
    _compiled_text_stats = _compiled_vocab_counts = None

GROUPS = ("pos", "tags", "attrs", "marks", "roles", "ratios", "text", "neigh", "embed")
# The groups a model uses unless told otherwise: no embedding, no `marks` (measured, not
# kept: benchmarks/CLASSIFIER-LOG.md), no `roles` (not yet measured under CV).
DEFAULT_GROUPS = tuple(g for g in GROUPS if g not in ("embed", "marks", "roles"))
LEVELS = 3  # enclosing elements described besides the block itself
N_FREQ = 4  # sinusoids of the position encoding (sin + cos each)
MAX_TEXT = 1000  # characters of a block looked at by the text statistics and the embedder

_WORD = re.compile(r"\w+")
_ATTR_WORD = re.compile(r"[a-z]{2,}")
_YEAR = re.compile(r"\b(19|20)\d\d\b")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_END_MARKS = ".!?:;\"'”’。！？…)"
_END_PUNCT = tuple(_END_MARKS)
_PUNCT_RE = re.compile("[.,;:!?，。；：！？、]")
_DIGIT = re.compile(r"\d")
# A short English stop list (the commonest function words): prose has many, menus few.
STOP_WORDS = frozenset(
    "a about after all also an and any are as at be been but by can could did do does for from had has "
    "have he her his how i if in into is it its just more most my no not of on one or our out over she "
    "so some such than that the their them then there these they this to up was we were what when which "
    "who will with would you your".split())
_LONGEST_STOP_WORD = max(map(len, STOP_WORDS))


@dataclass(slots=True)
class PageTable:
    """A page's blocks with what the classifier needs besides their text.

    Attributes:
        page: the blocks, identical to `segment(root)`.
        links, images: per block, the ``<a>`` and ``<img>`` elements opened while it was read.
        ancestors: per block, ids of its enclosing elements, outermost first.
        elements: per element id, (tag, class and id words).
        parent: per element id, its parent's id (-1 for the root).
        comments: ids of the elements that hold a comment section.
        content: ids of the elements whose class or id names an article's body (`entry-content`, ...).
    """

    page: PageBlocks
    links: list[int] = field(default_factory=list)
    images: list[int] = field(default_factory=list)
    ancestors: list[tuple[int, ...]] = field(default_factory=list)
    elements: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    comments: set[int] = field(default_factory=set)
    content: set[int] = field(default_factory=set)

    def in_comments(self, i: int) -> bool:
        """Whether block `i` lies in a comment section."""
        return not self.comments.isdisjoint(self.ancestors[i])

    @property
    def blocks(self) -> tuple[Block, ...]:
        return self.page.blocks

    def subset(self, keep: Sequence[int]) -> PageTable:
        """The page with only the blocks at `keep` (indexes in order); the elements stay."""
        return PageTable(PageBlocks(tuple(self.page.blocks[i] for i in keep), self.page.title, self.page.links),
                         [self.links[i] for i in keep], [self.images[i] for i in keep],
                         [self.ancestors[i] for i in keep], self.elements, self.parent, self.comments,
                         self.content)


def _attr_words(cls: str | None, ident: str | None) -> tuple[str, ...]:
    words = []
    for value in (cls, ident):
        if value:
            words.extend(_ATTR_WORD.findall(value.lower()))
    return tuple(words)


# A comment section or one comment, by the class or id of its element (as trafilatura's
# comment XPath): readers' comments are not the page's main text.
_COMMENT = (r"(?:(?:article|post|entry|story|blog|user|reader)[-_])?comments?"
            r"(?:[-_]?(?:list|area|section|wrapper|wrap|container|thread|block|box))?"
            r"|disqus_thread|dsq-comments|respond"
            r"|comment[-_]\d+|commentlist(?:ing)?|comments?[-_]?(?:body|content|text|entry|item)")
# An article's body, by the class or id of its element (as trafilatura's content XPath):
# `entry-content`, `post-body`, `article__body`, `storytext`, `hentry`, ...
_CONTENT = (r"(?:article|post|entry|story|blog|news|main|page|single)[-_]*(?:body|content|text|entry|inner)"
            r"|(?:content|text|body)[-_]?(?:main|body|article|post)|articlebody|storytext|hentry")
# Both in one pattern, so each class or id token is matched once on the walk of every page.
_ELEMENT_KIND = re.compile(f"(?P<comment>{_COMMENT})|{_CONTENT}")
# A word that every match of it holds: most classes and ids have none, and need no token matched.
_KIND_WORDS = re.compile("comment|disqus|respond|body|content|text|entry|inner")


def _element_kind(cls: str | None, ident: str | None) -> str | None:
    """``comment`` where a class or id token names a comment (that wins), ``content`` where one
    names an article's body, else None."""
    kind = None
    for value in (ident, cls):
        if value and _KIND_WORDS.search(low := value.lower()):
            for token in low.split():
                if (found := token_kind(token)) == "comment":
                    return found
                kind = kind or found
    return kind


@functools.lru_cache(maxsize=100_000)  # sites share their class tokens (`text-center`, `entry-content`)
def token_kind(token: str) -> str | None:
    """``comment`` where a class or id token names a comment, ``content`` where it names an article's body."""
    if m := _ELEMENT_KIND.fullmatch(token):
        return "comment" if m.group("comment") is not None else "content"
    return None


def page_table(root, *, walker: str | None = None) -> PageTable:
    """Cut a parsed page into blocks as `segment` does, keeping links, images and ancestors.

    Args:
        root: an lxml element from `parse_html`, or None.
        walker: as for `segment`.

    Returns:
        The page table, whose blocks are exactly `segment(root)`'s; no blocks for None.
    """
    if _CompiledRecorder is not None and walker_in_use(walker) == "compiled":
        table = _CompiledRecorder(_compiled_describe or _describe, _DESCRIBED)  # filled inside the compiled walk
    else:
        table = _TableRecorder()
    page = segment(root, recorder=table, walker=walker)
    return PageTable(page, table.links, table.images, table.ancestors, table.elements, table.parent,
                     table.comments, table.content)


_KIND_CODE = {None: 0, "comment": 1, "content": 2}
_DESCRIBED: dict = {}  # (tag, class, id) -> `_describe`'s answer: a site repeats its few many times
_VALUES: dict[str, tuple[tuple[str, ...], int]] = {}  # class or id -> its words and kind: sites share many


def _describe(tag: str, cls: str | None, ident: str | None) -> tuple[tuple[str, tuple[str, ...]], int]:
    """An element's entry of `PageTable.elements`, and 1 where it holds a comment section, 2 an article's body.

    `_attr_words` and `_element_kind` of the element, from those of its class and id
    (a comment token in either wins, as in `_element_kind`).
    """
    cls_words, cls_kind = _value(cls) if cls else ((), 0)
    id_words, id_kind = _value(ident) if ident else ((), 0)
    kind = 1 if 1 in (cls_kind, id_kind) else max(cls_kind, id_kind)
    return (tag, cls_words + id_words if id_words else cls_words), kind


def _value(value: str) -> tuple[tuple[str, ...], int]:
    known = _VALUES.get(value)
    if known is None:
        if len(_VALUES) > 100_000:
            _VALUES.clear()
        known = _VALUES[value] = _value_entry(value)
    return known


def _value_entry(value: str) -> tuple[tuple[str, ...], int]:
    """A class or id value's words and kind code."""
    return _attr_words(value, None), _value_kind(value)


def _value_kind(value: str) -> int:
    return _KIND_CODE[_element_kind(value, None)]


# `_describe` in C (ASCII values, asking `_value_kind` where a value may name a comment or body;
# `_value_entry` for the others), sharing `_VALUES`.
_compiled_describe = (_CompiledDescriber(_VALUES, _value_entry, _value_kind) if _CompiledDescriber is not None
                      else None)


class _TableRecorder:
    """A page table's lists filled in by `segment`'s walk (a `stemmer.blocks.walk.Recorder`).

    The Python twin of `stemmer.blocks._walker.TableRecorder`.
    """

    __slots__ = ("links", "images", "ancestors", "elements", "parent", "comments", "content", "stack",
                 "pending_links", "pending_images")

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.links, self.images, self.ancestors = [], [], []
        self.elements, self.parent, self.comments, self.content = [], [], set(), set()
        self.stack: list[int] = []  # open elements (ids), outermost first
        self.pending_links = self.pending_images = 0  # since the last block boundary

    def open(self, tag: str, cls: str | None, ident: str | None) -> None:
        if tag == "a":
            self.pending_links += 1
        elif tag == "img":
            self.pending_images += 1
        key = (tag, cls, ident)
        described = _DESCRIBED.get(key)
        if described is None:
            if len(_DESCRIBED) > 100_000:
                _DESCRIBED.clear()
            described = _DESCRIBED[key] = _describe(tag, cls, ident)
        stack = self.stack
        e = len(self.elements)
        self.parent.append(stack[-1] if stack else -1)
        stack.append(e)
        self.elements.append(described[0])
        if described[1] == 1:
            self.comments.add(e)
        elif described[1] == 2:
            self.content.add(e)

    def close(self) -> None:
        self.stack.pop()

    def boundary(self) -> None:
        self.pending_links = self.pending_images = 0

    def block(self) -> None:
        self.links.append(self.pending_links)
        self.images.append(self.pending_images)
        self.ancestors.append(tuple(self.stack))


def _words(text: str) -> list[str]:
    return _WORD.findall(text[:MAX_TEXT].lower())


def dice(a: set[str], b: set[str]) -> float:
    """Dice's coefficient of two word sets; 0 where either is empty."""
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


@dataclass(frozen=True)
class Vocabulary:
    """The learned parts of the features: which ancestor tags and class words get a column."""

    tags: tuple[str, ...] = ()
    attrs: tuple[str, ...] = ()

    @classmethod
    def learn(cls, tables: Iterable[PageTable], *, n_tags: int = 40, n_attrs: int = 100) -> Vocabulary:
        """The `n_tags` tags and `n_attrs` class/id words on the most pages' block ancestors."""
        tags: Counter[str] = Counter()
        attrs: Counter[str] = Counter()
        for t in tables:
            seen = {i for anc in t.ancestors for i in anc}
            tags.update({t.elements[i][0] for i in seen})
            attrs.update({w for i in seen for w in t.elements[i][1]})
        # ties by word, not by set order: string hashes differ per process, models must not
        top = lambda c, n: tuple(sorted(heapq.nsmallest(n, c, key=lambda w: (-c[w], w))))  # noqa: E731
        return cls(top(tags, n_tags), top(attrs, n_attrs))


def feature_names(vocab: Vocabulary, groups: Sequence[str], embed_dim: int = 0) -> list[str]:
    """The column names of `Featurizer.transform`, in order."""
    names: list[str] = []
    for g in GROUPS:
        if g not in groups:
            continue
        if g == "pos":
            names += ["pos", "pos_weight", "pos2"]
            names += [f"pe_{f}_{k}" for k in range(N_FREQ) for f in ("sin", "cos")]
        elif g == "tags":
            names += [f"anc_{t}" for t in vocab.tags] + [f"own_{t}" for t in vocab.tags] + ["depth"]
        elif g == "attrs":
            names += [f"attr_{w}" for w in vocab.attrs] + [f"ownattr_{w}" for w in vocab.attrs]
        elif g == "marks":
            names += ["in_content", "content_share", "in_largest_content", "content_elements"]
        elif g == "roles":
            names += ["in_figure", "images_around", "images_own", "caption_word", "embed_word", "dialog_word"]
        elif g == "ratios":
            for lv in range(LEVELS + 1):
                names += [f"L{lv}_{r}" for r in ("r1", "r2", "r3", "r4", "r5", "blocks", "good", "main")]
        elif g == "text":
            names += ["log_weight", "log_words", "word_len", "punct", "punct_ratio", "ends_punct", "copyright",
                      "year", "digits", "capitals", "stop_ratio", "cjk", "bars", "dup", "title_dice",
                      "title_same"]
        elif g == "neigh":
            names += [f"n{d}_{f}" for d in (-2, -1, 1, 2)
                      for f in ("log_weight", "r5", "ends_punct", "same_parent", "good")]
        elif g == "embed":
            names += [f"emb_{i}" for i in range(embed_dim)]
    return names


class Featurizer:
    """Turns page tables into feature matrices (one row per block).

    Args:
        vocab: learned tag and class-word vocabularies.
        groups: feature groups to compute, a subset of `GROUPS`.
        embedder: an `Embedder` for the ``embed`` group (ignored without it).
    """

    def __init__(self, vocab: Vocabulary, groups: Sequence[str] = GROUPS, embedder=None) -> None:
        unknown = set(groups) - set(GROUPS)
        if unknown:
            raise ValueError(f"unknown feature groups {sorted(unknown)}; choose from {', '.join(GROUPS)}")
        self.vocab = vocab
        self.groups = tuple(g for g in GROUPS if g in groups and (g != "embed" or embedder is not None))
        self.embedder = embedder
        self._tag_index = {t: i for i, t in enumerate(vocab.tags)}
        self._attr_index = {w: len(vocab.tags) + i for i, w in enumerate(vocab.attrs)}
        # an element's columns, remembered: a site repeats its few elements on every page
        self._columns_of = functools.lru_cache(maxsize=100_000)(self._element_columns)
        self.names = feature_names(vocab, self.groups, embedder.dim if embedder is not None else 0)

    def __getstate__(self) -> dict:  # the memo is a function of self: made again, not sent (scale's workers)
        return {k: v for k, v in self.__dict__.items() if k != "_columns_of"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._columns_of = functools.lru_cache(maxsize=100_000)(self._element_columns)

    @property
    def n_features(self) -> int:
        return len(self.names)

    def transform(self, table: PageTable) -> np.ndarray:
        """The features of every block of the page: an array (blocks, `n_features`)."""
        blocks = table.blocks
        n = len(blocks)
        if n == 0:
            return np.zeros((0, self.n_features), dtype=np.float32)
        stats = _Stats(table)
        X = np.empty((n, self.n_features), dtype=np.float32)
        at = 0
        for g in self.groups:
            if g == "pos":
                parts = [self._pos(stats)]
            elif g == "tags":
                parts = self._tags(table, stats)
            elif g == "attrs":
                parts = self._attrs(table, stats)
            elif g == "marks":
                parts = [stats.marks(table.content, table.ancestors)]
            elif g == "roles":
                parts = [stats.roles(table)]
            elif g == "ratios":
                parts = [stats.ratios()]
            elif g == "text":
                parts = [stats.text(table.page.title)]
            elif g == "neigh":
                parts = [stats.neighbours()]
            else:  # embed
                parts = [np.asarray(self.embedder.encode([b.text[:MAX_TEXT] for b in blocks]),
                                    dtype=np.float32).reshape(n, -1)]
            for part in parts:  # each cast to float32 where it lands, as one stacked matrix would be
                X[:, at:at + part.shape[1]] = part
                at += part.shape[1]
        return X

    def _pos(self, stats: _Stats) -> np.ndarray:
        n = stats.n
        out = _positions(n).copy()
        out[0, 1] = 0.0
        np.cumsum(stats.weight[:-1], out=out[1:, 1])
        out[:, 1] /= max(stats.total_weight, 1.0)
        return out

    def _tags(self, table: PageTable, stats: _Stats) -> list[np.ndarray]:
        counts, own = self._per_block(table, stats)
        k = len(self.vocab.tags)
        return [counts[:, :k], own[:, :k], np.log1p(stats.depth.astype(np.float64))[:, None]]

    def _attrs(self, table: PageTable, stats: _Stats) -> list[np.ndarray]:
        counts, own = self._per_block(table, stats)
        k = len(self.vocab.tags)
        return [np.minimum(counts[:, k:], 1.0), own[:, k:]]

    def _per_block(self, table: PageTable, stats: _Stats) -> tuple[np.ndarray, np.ndarray]:
        """`_Stats.per_block` of the tag columns and then the class-word columns, once per page."""
        if stats.vocab_columns is None:
            k = len(self.vocab.tags) + len(self.vocab.attrs)
            if stats.compiled:
                stats.vocab_columns = _compiled_vocab_counts(table.elements, self._columns_of, stats.chain,
                                                             stats.rows, stats.inner, stats.n, k)
            else:
                stats.vocab_columns = stats.per_block(list(map(self._columns_of, table.elements)), k)
        return stats.vocab_columns

    def _element_columns(self, element: tuple[str, tuple[str, ...]]) -> tuple[int, ...]:
        """An element's columns: its tag's, then its class and id words' (after the tags')."""
        tag, words = element
        tag_column = self._tag_index.get(tag)
        word_columns = set(map(self._attr_index.get, words))
        word_columns.discard(None)
        return ((tag_column,) if tag_column is not None else ()) + tuple(word_columns)


@functools.lru_cache(maxsize=4096)
def _positions(n: int) -> np.ndarray:
    """For `n` blocks, the `pos` group's columns but the second (left 0): each block's relative
    position, its square, and its position encoding."""
    pos = np.arange(n, dtype=np.float64) / max(n - 1, 1)
    # The Transformer encoding of the thesis, fed the relative position in
    # [0, 1] with periods from 2 down to 1/4 of the page.
    freqs = np.pi * 2.0 ** np.arange(N_FREQ)
    out = np.zeros((n, 3 + 2 * N_FREQ))
    out[:, 0] = pos
    out[:, 2] = pos * pos
    out[:, 3::2] = np.sin(pos[:, None] * freqs)
    out[:, 4::2] = np.cos(pos[:, None] * freqs)
    out.flags.writeable = False  # shared by every page of `n` blocks
    return out


class _Stats:
    """Per-page sums over elements, shared by the ratio, text and neighbour features."""

    def __init__(self, table: PageTable) -> None:
        self.vocab_columns = None  # `Featurizer._per_block`'s, shared by the tag and class-word groups
        self.compiled = _compiled_page_arrays is not None and walker_in_use() == "compiled"
        self.blocks = blocks = table.blocks
        self.n = len(blocks)
        self.table_parent = table.parent
        n_el = len(table.elements)
        self.n_elements = n_el
        if self.compiled:
            (self.weight, self.anchor, self.ends, self.good, self.per_block_sums, self.depth, self.chain, self.rows,
             self.inner, self.sums, self.page_sums, self.main, self.levels, self.in_main, self.parent) = (
                _compiled_page_arrays(blocks, table.links, table.images, table.ancestors, table.parent, _END_MARKS,
                                      PROSE_LETTERS, MAIN_KEEP, LEVELS))
            self.total_weight = float(self.page_sums[0])
        else:
            self._numpy_arrays(table)

    def _numpy_arrays(self, table: PageTable) -> None:
        """The per-block and per-element arrays of the page.
        The Python twin of `stemmer.classify._text_stats.page_arrays`."""
        blocks, n, n_el = self.blocks, self.n, self.n_elements
        # "Good" text: prose-like blocks (few links, a sentence end or long), the
        # mass a readability-style main-container search looks for.
        weights, anchors = [b.weight for b in blocks], [b.anchor_weight for b in blocks]
        ends = [b.text.rstrip().endswith(_END_PUNCT) for b in blocks]
        good = [w if (a * 3 <= w and (e or w >= PROSE_LETTERS)) else 0.0
                for w, a, e in zip(weights, anchors, ends)]
        self.weight, self.anchor, self.ends, self.good = (
            np.array(v, dtype=np.float64) for v in (weights, anchors, ends, good))
        links, images = np.array(table.links, dtype=np.float64), np.array(table.images, dtype=np.float64)
        self.total_weight = float(self.weight.sum())
        # Each block's enclosing elements in flat arrays (`_element_arrays`), and per element
        # the sums over the blocks in it (whole numbers: any order adds them exactly).
        self.per_block_sums = per_block = np.column_stack(
            [self.weight, self.anchor, links, images, np.ones(n), self.good])
        self.depth, self.chain, self.rows, self.inner, sums = _element_arrays(table.ancestors, n_el, per_block)
        lens, has = self.depth, self.depth > 0
        self.sums = sums
        self.page_sums = per_block.sum(axis=0)
        parent = self._parent
        # The main container: from the root down, follow the element holding the
        # most good text while it keeps at least MAIN_KEEP of the page's good text.
        main = -1
        total_good = self.page_sums[5]
        if total_good > 0:
            # Only elements that keep enough good text can be stepped into, and where one of an
            # element's children does, the child of the most good text is one of them.
            keep = MAIN_KEEP * total_good
            able = np.flatnonzero(~(sums[:n_el, 5] < keep))
            best_child: dict[int, int] = {}  # per element, its able child of the most good text (the first)
            for e, p in zip(able.tolist(), parent[able].tolist()):
                if p not in best_child or sums[e, 5] > sums[best_child[p], 5]:
                    best_child[p] = e
            node = -1
            while node in best_child:
                node = best_child[node]
            main = node
        self.main = main
        # Containers: per block, the nearest LEVELS enclosing elements that hold more blocks.
        # Going out from a block, the blocks held never fall: an element holds more than the
        # one inside it (the innermost: more than the block itself) where they rise.
        held = sums[self.chain, 4]
        inside = np.ones(len(held))
        same_block = self.rows[1:] == self.rows[:-1]
        inside[:-1][same_block] = held[1:][same_block]
        rises = held > inside
        seen = np.cumsum(rises)
        last = np.cumsum(lens) - 1  # each block's innermost pair
        out_from_inner = seen[last[self.rows]] - seen + rises  # 1 for the innermost rise
        keep = rises & (out_from_inner <= LEVELS)
        self.levels = np.full((n, LEVELS), -1, dtype=np.int64)
        self.levels[self.rows[keep], out_from_inner[keep] - 1] = self.chain[keep]
        self.in_main = np.zeros(n)
        if main >= 0:
            self.in_main[self.rows[self.chain == main]] = 1.0
        self.parent = np.where(has, self.inner, -1)

    @functools.cached_property
    def _parent(self) -> np.ndarray:
        """Per element, its parent's id (-1 for the root)."""
        return np.array(self.table_parent, dtype=np.int64).reshape(self.n_elements)

    @functools.cached_property
    def _levels(self) -> list[np.ndarray]:
        """The elements at each depth below the root, for sums over the element tree level by level."""
        depths = [0] * self.n_elements
        for e, p in enumerate(self._parent.tolist()):
            if p >= 0:
                depths[e] = depths[p] + 1
        depth = np.array(depths, dtype=np.int64).reshape(self.n_elements)
        order = np.argsort(depth, kind="stable")
        bounds = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2))
        return [order[bounds[d]:bounds[d + 1]] for d in range(1, len(bounds) - 1)]

    def per_block(self, columns: list[tuple[int, ...]], k: int) -> tuple[np.ndarray, np.ndarray]:
        """From each element's columns (of `k`): per block, how many of its enclosing elements
        have each column, and which its innermost one has (float32 rows of 0s and 1s).
        The Python twin of `stemmer.classify._text_stats.vocab_counts`."""
        starts = np.zeros(self.n_elements + 2, dtype=np.int64)  # the last element: none
        np.cumsum(np.fromiter(map(len, columns), dtype=np.int64, count=self.n_elements), out=starts[1:-1])
        starts[-1] = starts[-2]
        flat = np.fromiter(itertools.chain.from_iterable(columns), dtype=np.int64, count=int(starts[-1]))

        def spread(rows: np.ndarray, elements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """(row, column) of each column of each element."""
            size = starts[elements + 1] - starts[elements]
            offset = np.repeat(starts[elements] - (np.cumsum(size) - size), size)
            return np.repeat(rows, size), flat[offset + np.arange(int(size.sum()))]

        n = self.n
        rows, cols = spread(self.rows, self.chain)
        counts = np.bincount(rows * k + cols, minlength=n * k).reshape(n, k).astype(np.float32)
        own = np.zeros((n, k), dtype=np.float32)
        own[spread(np.arange(n), self.inner)] = 1
        return counts, own

    def ratios(self) -> np.ndarray:
        """Per level (the block, then its `levels`): R1-R5, log blocks, good share, and whether it is
        the main container (for the block: whether it lies in it); all levels' rows at once."""
        n, p, main = self.n, self.page_sums, self.main
        if self.compiled:
            return _compiled_ratio_columns(self.per_block_sums, self.sums, p, self.levels, self.in_main, main,
                                           np.log1p(np.arange(n + 1.0)))
        idx = self.levels.T  # (LEVELS, blocks)
        s = np.empty((LEVELS + 1, n, 6))
        s[0] = self.per_block_sums
        s[1:] = np.where(idx[:, :, None] >= 0, self.sums[np.maximum(idx, 0)], p)
        s = s.reshape(-1, 6)
        out = np.empty((LEVELS + 1, n, 8))
        r = out.reshape(-1, 8)
        r[:, 0] = s[:, 0] / (p[0] + 1)
        r[:, 1] = s[:, 1] / (p[1] + 1)
        r[:, 2] = s[:, 2] / (p[2] + 1)
        r[:, 3] = s[:, 3] / (p[3] + 1)
        r[:, 4] = s[:, 1] / (s[:, 0] + 1)
        r[:, 5] = np.log1p(s[:, 4])
        r[:, 6] = s[:, 5] / (p[5] + 1)
        out[0, :, 7] = self.in_main
        out[1:, :, 7] = (idx == main) & (main >= 0)
        return out.transpose(1, 0, 2).reshape(n, -1)

    def marks(self, content: set[int], ancestors: list[tuple[int, ...]]) -> np.ndarray:
        """Per block: inside an element marked as an article body, that element's share of the
        page's letters, whether it is the marked element of most letters, and how many hold text."""
        out = np.zeros((self.n, 4))
        held = [e for e in content if self.sums[e, 0] > 0]
        if not held:
            return out
        largest = max(held, key=lambda e: (self.sums[e, 0], -e))
        total = self.total_weight + 1
        for r, anc in enumerate(ancestors):
            marked = [e for e in anc if e in content]
            if marked:
                out[r, :3] = 1.0, self.sums[marked[-1], 0] / total, float(largest in marked)
        out[:, 3] = np.log1p(len(held))
        return out

    def roles(self, table: PageTable) -> np.ndarray:
        """Per block, what may make it a caption, an embedded post or a dialog rather than prose:
        inside a figure, images in its element and beside it (in its element's parent),
        and class or id words of its four nearest elements naming such a thing."""
        n_el = len(table.elements)
        images = np.zeros(n_el + 1)
        for e, (tag, _) in enumerate(table.elements):
            if tag == "img":
                images[e] = 1.0
        for idx in reversed(self._levels):
            np.add.at(images, self._parent[idx], images[idx])
        out = np.zeros((self.n, 6))
        for r, anc in enumerate(table.ancestors):
            if not anc:
                continue
            near = anc[-4:]
            tags = {table.elements[e][0] for e in anc}
            words = " ".join(w for e in near for w in table.elements[e][1])
            around = self._parent[anc[-1]]
            out[r] = (float(bool(tags & _FIGURE_TAGS)), math.log1p(images[around]), math.log1p(images[anc[-1]]),
                      float(bool(_CAPTION_WORDS.search(words))), float(bool(_EMBED_WORDS.search(words))),
                      float(bool(_DIALOG_WORDS.search(words)) or "dialog" in tags))
        return out

    def text(self, title: str) -> np.ndarray:
        return _text_stats(self.blocks, title)

    def neighbours(self) -> np.ndarray:
        """Per block, of the two blocks on each side: log letters, R5, sentence end, same parent, good share."""
        n = self.n
        if self.compiled:
            return _compiled_neighbour_columns(np.log1p(self.weight), self.weight, self.anchor, self.ends, self.good,
                                               self.parent)
        base = np.column_stack([np.log1p(self.weight), self.anchor / (self.weight + 1), self.ends,
                                np.zeros(n), self.good / (self.weight + 1)])
        out = np.zeros((n, 4, base.shape[1]))
        for k, d in enumerate((-2, -1, 1, 2)):
            lo, hi = max(0, -d), min(n, n - d)
            if hi > lo:
                out[lo:hi, k] = base[lo + d:hi + d]
                out[lo:hi, k, 3] = self.parent[lo:hi] == self.parent[lo + d:hi + d]
        return out.reshape(n, -1)


def _element_arrays(ancestors: list[tuple[int, ...]], n_el: int, per_block: np.ndarray):
    """Each block's enclosing elements in flat arrays, and per element the sums of the rows of
    `per_block` over the blocks in it (the last row: over the blocks in none).

    Returns (depth, chain, rows, inner, sums): block `rows[j]` lies in element `chain[j]`,
    outermost first; a block's last one is its innermost (`inner`, n_el where it has none).
    Part of the Python twin of `stemmer.classify._text_stats.page_arrays`.
    """
    n = len(ancestors)
    lens = np.fromiter(map(len, ancestors), dtype=np.int64, count=n)
    chain = np.fromiter(itertools.chain.from_iterable(ancestors), dtype=np.int64, count=int(lens.sum()))
    rows = np.repeat(np.arange(n), lens)
    has = lens > 0
    inner = np.full(n, n_el, dtype=np.int64)
    inner[has] = chain[np.cumsum(lens)[has] - 1]
    width = per_block.shape[1]
    sums = np.zeros((n_el + 1, width))
    cells = (chain[:, None] * width + np.arange(width)).ravel()
    sums[:n_el] = np.bincount(cells, weights=per_block[rows].ravel(), minlength=n_el * width).reshape(n_el, width)
    sums[n_el] = per_block[~has].sum(axis=0)
    return lens, chain, rows, inner, sums


MAIN_KEEP = 0.5  # a readability-style descent stops where no child keeps half the good text
PROSE_LETTERS = 80  # a block of this many letters is prose-like without a sentence end
# What the `roles` group looks for in the class and id words around a block.
_FIGURE_TAGS = frozenset({"figure", "figcaption"})
_CAPTION_WORDS = re.compile(r"caption|credit|legend|attribution|photo|figure")
_EMBED_WORDS = re.compile(r"embed|tweet|twitter|instagram|tiktok|facebook|youtube")
_DIALOG_WORDS = re.compile(r"modal|dialog|popup|overlay|cookie|consent|gdpr|lightbox")


def _text_stats(blocks: Sequence[Block], title: str) -> np.ndarray:
    """Per block: length, punctuation, stop words, digits, capitals, duplicates, likeness to <title>."""
    title_words = set(_words(title))
    title_sig = " ".join(title.lower().split())
    if _compiled_text_stats is not None and walker_in_use() == "compiled":
        return _compiled_text_stats(blocks, MAX_TEXT, STOP_WORDS, _LONGEST_STOP_WORD, title_words, title_sig)
    counts = Counter(b.text for b in blocks)
    rows = []
    for b in blocks:
        text = b.text[:MAX_TEXT]
        words = _words(text)
        nw = len(words)
        n_chars = max(len(text), 1)
        punct = len(_PUNCT_RE.findall(text))
        stop = sum(map(STOP_WORDS.__contains__, words))
        digits = len(_DIGIT.findall(text))
        split = text.split()
        caps = sum(map(str.isupper, [w[0] for w in split])) if nw else 0
        cjk = len(_CJK.findall(text))
        rows.append((
            math.log1p(b.weight), math.log1p(nw), (sum(map(len, words)) / nw) if nw else 0.0,
            min(punct, 20) / 20, punct / n_chars, float(text.rstrip().endswith(_END_PUNCT)),
            float("©" in text or "copyright" in text.lower()), float(bool(_YEAR.search(text))),
            digits / n_chars, caps / max(len(split), 1), stop / nw if nw else 0.0, cjk / n_chars,
            min(text.count("|") + text.count("»") + text.count("·"), 10) / 10,
            math.log(counts[b.text]), dice(set(words), title_words),
            float(bool(title_sig) and " ".join(text.lower().split()) == title_sig)))
    return np.array(rows, dtype=np.float64).reshape(len(blocks), -1)
