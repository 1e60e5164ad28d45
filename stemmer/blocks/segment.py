"""Cut a parsed page into layout blocks: (tag path, text, weight), as Webstemmer does.

Block tags start a new block; inline tags (a, b, span, ...) let their text flow
into the enclosing block; `br` and `hr` cut a block in two.  A block's path is
the tuple of its ancestors' encodings ``tag.class1.class2#id`` from the root.
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
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# A CJK character carries about as much text as a short Latin word, so it
# weighs as much as three Latin letters (keeps thresholds fair across scripts).
CJK_WEIGHT = 3


def sig(text: str) -> str:
    """The letters of `text` (alphanumerics and CJK), lower-cased, without punctuation or space."""
    return _NOT_LETTER.sub("", text).lower()


def letters(text: str) -> int:
    """The weight of `text`: its letters, a CJK character counting `CJK_WEIGHT`."""
    n = len(_NOT_LETTER.sub("", text))
    if n and not text.isascii():
        n += (CJK_WEIGHT - 1) * len(_CJK.findall(text))
    return n


@dataclass(frozen=True, slots=True)
class Block:
    """One layout block: its tag path from the root, its text and weights."""

    path: tuple[str, ...]
    text: str
    weight: int
    anchor_weight: int

    @property
    def tag(self) -> str:
        return self.path[-1].split(".", 1)[0].split("#", 1)[0] if self.path else ""


@dataclass(frozen=True, slots=True)
class PageBlocks:
    """A page cut into blocks, with its `<title>` and, on request, its links."""

    blocks: tuple[Block, ...]
    title: str = ""
    links: tuple[tuple[str, str], ...] = ()

    @property
    def weight(self) -> int:
        return sum(b.weight for b in self.blocks)


def encode(el) -> str:
    """`tag.class1.class2#id` with classes sorted and lower-cased."""
    tag = el.tag
    cls = el.get("class")
    ident = el.get("id")
    if cls:
        tokens = sorted(set(cls.lower().split()))
        tag += "." + ".".join(tokens) if tokens else ""
    if ident:
        ident = ident.strip().lower()
        if ident and " " not in ident:
            tag += "#" + ident
    return tag


def segment(root, *, with_links: bool = False) -> PageBlocks:
    """Cut the parsed page `root` into blocks in document order.

    Args:
        root: an lxml element (from `parse_html`), or None for an empty page.
        with_links: also collect ``(href, link text)`` of every ``<a href>``.

    Returns:
        The page's blocks; blocks without a letter are left out.
    """
    if root is None:
        return PageBlocks(())
    blocks: list[Block] = []
    links: list[tuple[str, str]] = []
    buf: list[str] = []
    anchor_buf: list[str] = []

    def flush(path: tuple[str, ...]) -> None:
        if not buf:
            return
        text = _SPACES.sub(" ", "".join(buf)).strip()
        anchor = "".join(anchor_buf)
        buf.clear()
        anchor_buf.clear()
        if not text:
            return
        weight = letters(text)
        if weight:
            blocks.append(Block(path, text, weight, letters(anchor) if anchor else 0))

    # An explicit stack instead of recursion: pathological pages nest thousands deep.
    # Entries are (element, path, in_anchor); a str entry is a text tail, a
    # _CLOSE entry ends the block whose path it carries.
    stack: list = [(root, (), False)]
    while stack:
        el, path, in_anchor = stack.pop()
        if el.__class__ is str:
            buf.append(el)
            if in_anchor:
                anchor_buf.append(el)
            continue
        if el is _CLOSE:
            flush(path)
            continue
        tag = el.tag
        if not isinstance(tag, str) or tag in SKIP_TAGS:
            continue
        if tag == "a":
            in_anchor = True
            if with_links and el.get("href"):
                links.append((el.get("href"), _SPACES.sub(" ", "".join(el.itertext())).strip()))
        if tag in BLOCK_TAGS:
            flush(path)
            path = path + (encode(el),)
            stack.append((_CLOSE, path, False))
        elif tag in CHOP_TAGS:
            flush(path)
        if el.text:
            buf.append(el.text)
            if in_anchor:
                anchor_buf.append(el.text)
        for child in reversed(el):
            if child.tail:
                stack.append((child.tail, path, in_anchor))
            stack.append((child, path, in_anchor))
    flush(())
    head_title = root.find("head/title")
    title = _SPACES.sub(" ", head_title.text or "").strip() if head_title is not None else ""
    return PageBlocks(tuple(blocks), title, tuple(links))


_CLOSE = object()
