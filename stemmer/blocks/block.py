"""What a layout block is: (tag path, text, weight), and the rules that read them from elements.

Block tags start a new block; inline tags (a, b, span, ...) let their text flow
into the enclosing block; `br` and `hr` cut a block in two.  A block's path is
the tuple of its ancestors' encodings ``tag.class1.class2#id`` from the root.
Both walkers (`stemmer.blocks.walk` and the compiled one) apply these rules to
the strings they read from the tree, so they cut the same blocks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

BLOCK_TAGS = frozenset(
    "title body p h1 h2 h3 h4 h5 h6 tr td th dt dd li ul ol dl dir menu pre div center "
    "blockquote table thead tbody tfoot caption address article section main header "
    "footer nav aside figure figcaption details summary form fieldset legend hgroup".split()
)
CHOP_TAGS = frozenset({"br", "hr"})
SKIP_TAGS = frozenset(
    "head script style noscript template svg math select option button iframe object "
    "embed canvas video audio textarea input".split()
)
_SPACES = re.compile(r"\s+")
_NOT_LETTER = re.compile(r"[\W_]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_ASCII_NOT_LETTERS = bytes(c for c in range(128) if not chr(c).isalnum())
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CJK_RUNS = re.compile(_CJK.pattern + "+")
# A CJK character carries about as much text as a short Latin word, so it
# weighs as much as three Latin letters (keeps thresholds fair across scripts).
CJK_WEIGHT = 3


def sig(text: str) -> str:
    """The letters of `text` (alphanumerics and CJK), lower-cased, without punctuation or space."""
    if text.isascii():  # by bytes: a regex replaces each run of spaces and punctuation one by one
        return text.encode("ascii").translate(None, _ASCII_NOT_LETTERS).lower().decode("ascii")
    return _NOT_LETTER.sub("", text).lower()


def letters(text: str) -> int:
    """The weight of `text`: its letters, a CJK character counting `CJK_WEIGHT`."""
    if text.isascii():
        return len(text.encode().translate(None, _ASCII_NOT_LETTERS))
    # The ASCII part by bytes (fast); only the runs of other characters by regex.
    n = len(text.encode("ascii", "ignore").translate(None, _ASCII_NOT_LETTERS))
    rest = "".join(_NON_ASCII.findall(text))
    if k := len(_NOT_LETTER.sub("", rest)):
        n += k + (CJK_WEIGHT - 1) * (len(rest) - len(_CJK_RUNS.sub("", rest)))
    return n


@dataclass(slots=True)  # not frozen: a frozen dataclass takes 3x as long to build, and pages have hundreds
class Block:
    """One layout block: its tag path from the root, its text and weights."""

    path: tuple[str, ...]
    text: str
    weight: int
    anchor_weight: int

    @property
    def tag(self) -> str:
        if not self.path:
            return ""
        enc = self.path[-1]
        tag = _TAG_OF.get(enc)
        if tag is None:
            if len(_TAG_OF) > 100_000:
                _TAG_OF.clear()
            tag = _TAG_OF[enc] = enc.split(".", 1)[0].split("#", 1)[0]
        return tag


_TAG_OF: dict[str, str] = {}  # encoding -> its tag: extract asks each kept block's tag


@dataclass(frozen=True, slots=True)
class PageBlocks:
    """A page cut into blocks, with its `<title>` and, on request, its links."""

    blocks: tuple[Block, ...]
    title: str = ""
    links: tuple[tuple[str, str], ...] = ()

    @property
    def weight(self) -> int:
        return sum(b.weight for b in self.blocks)


def _code_text(raw: str) -> str:
    """The text of a ``<pre>`` block: its lines and indentation kept, blank edges dropped."""
    lines = [line.rstrip() for line in raw.replace("\r\n", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines).expandtabs(4)


# A <pre> of nothing but line numbers counting up by one: the gutter of a
# highlighted code listing (Hexo, Rouge, Chroma), not text.
_LINE_NUMBERS = re.compile(r"\s*\d+(?:\s*\n\s*\d+)+\s*")


def _counts_up(text: str) -> bool:
    numbers = [int(n) for n in text.split()]
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:]))


# A page hiding this many times the text it shows is shown by its scripts
# (hidden menus and a paywall's second copy of the article hide about 2x).
HIDDEN_PAGE_RATIO = 5
_DISPLAY_NONE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
# The same, each form alone, in a style's lower case: a case-blind regex tries every place of a long style.
_DISPLAY_NONE_LOWER = (("none", re.compile(r"display\s*:\s*none")), ("hidden", re.compile(r"visibility\s*:\s*hidden")))
# Letters that a case-blind regex matches to i, s or k besides their two ASCII cases: a style holding one is
# scanned case-blind (`stemmer.blocks.parse` lowers stylesheets on the same terms).
CASE_TRAPS = "\u0130\u0131\u017f\u212a"


# A utility class that shows the element from some screen width on (Tailwind's
# `hidden md:block`): hidden on a phone, shown on a desktop.
_SHOWN_FROM = re.compile(
    r"[\w-]+:(?:block|flex|grid|inline|inline-block|inline-flex|inline-grid|table|contents|flow-root)")


def is_hidden(enc: str, style: str | None, hidden: str | None) -> bool:
    """Whether a block element is not shown: class ``hidden`` (in its encoding `enc`), its `style`, its `hidden`.

    A paywalled page can carry its article twice, once for each kind of reader,
    one copy hidden; what no reader sees is not the page's text.
    """
    if ".hidden" in enc:
        classes = enc.partition("#")[0].split(".")
        if "hidden" in classes and not any(_SHOWN_FROM.fullmatch(c) for c in classes):
            return True
    return bool(style) and _hides(style) or hidden is not None


def _hides(style: str) -> bool:
    """Whether `style` holds `_DISPLAY_NONE`."""
    if not style.isascii() and any(trap in style for trap in CASE_TRAPS):
        return _DISPLAY_NONE.search(style) is not None
    low = style.lower()
    return any(word in low and form.search(low) is not None for word, form in _DISPLAY_NONE_LOWER)


HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
# The glyph a headline's permalink shows on hover (Sphinx and MkDocs ¶, VuePress #).
PERMALINK_GLYPHS = frozenset("¶ # § 🔗 🔗︎ ⚓ ⚓︎".split())
_PERMALINK_CLASS = re.compile(r"anchor|headerlink|permalink|hash-?link|heading-?link", re.I)


# Text inside a block for screen readers only, clipped off screen by CSS: "(opens in
# a new window)" in a link (VuePress), "Skip to content".  No one sees it on the page.
_SCREEN_READER_ONLY = re.compile(r"(?:^|[\s-])(?:sr-only|visually-?hidden|screen-reader-text)(?=\s|$)")


def is_screen_reader_only(cls: str | None) -> bool:
    """Whether an inline element's class clips it off screen for screen readers (``sr-only``, ...)."""
    return bool(cls) and _SCREEN_READER_ONLY.search(cls) is not None


def may_be_permalink(path: tuple[str, ...], href: str | None) -> bool:
    """Whether an ``<a href>`` in the block at `path` could be a headline's permalink: a fragment link in a heading."""
    return bool(path) and path[-1].split(".", 1)[0].split("#", 1)[0] in HEADINGS and "#" in (href or "")


def is_permalink(text: str, cls: str | None) -> bool:
    """Whether a link that `may_be_permalink`, with its `text` and class, is one: a reader sees it on hover only.

    So it is when it shows only a permalink glyph, or nothing, or a character
    or two while its class names it so (``headerlink``, ``header-anchor``, ...).
    A heading's whole text linked to its own fragment stays.
    """
    text = text.replace("\u200b", "").strip()
    return text in PERMALINK_GLYPHS or not text or len(text) <= 2 and bool(_PERMALINK_CLASS.search(cls or ""))


def block_text(path: tuple[str, ...], parts: list[str]) -> str:
    """The text of the block at `path` from its text runs: spaces collapsed, or a code listing's lines kept."""
    if not is_pre(path):
        return " ".join("".join(parts).split())
    text = _code_text("".join(parts))
    if _LINE_NUMBERS.fullmatch(text) and _counts_up(text):
        return ""  # the line-number gutter beside a code listing
    return text


def is_pre(path: tuple[str, ...]) -> bool:
    """Whether the block at `path` is a ``<pre>``: a code listing."""
    return bool(path) and path[-1].startswith("pre") and path[-1][3:4] in ("", ".", "#")


_ENCODINGS: dict[tuple, str] = {}  # a page repeats its few (tag, class, id) many times


def encode(tag: str, cls: str | None, ident: str | None) -> str:
    """`tag.class1.class2#id` with classes sorted and lower-cased."""
    attrs = (tag, cls, ident)
    enc = _ENCODINGS.get(attrs)
    if enc is None:
        if len(_ENCODINGS) > 100_000:
            _ENCODINGS.clear()
        enc = _ENCODINGS[attrs] = _encode(*attrs)
    return enc


def _encode(tag: str, cls: str | None, ident: str | None) -> str:
    if cls:
        tokens = sorted(set(cls.lower().split()))
        tag += "." + ".".join(tokens) if tokens else ""
    if ident:
        ident = ident.strip().lower()
        if ident and " " not in ident:
            tag += "#" + ident
    return tag
