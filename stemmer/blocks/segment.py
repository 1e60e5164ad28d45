"""Cut a parsed page into layout blocks: (tag path, text, weight), as Webstemmer does.

Block tags start a new block; inline tags (a, b, span, ...) let their text flow
into the enclosing block; `br` and `hr` cut a block in two.  A block's path is
the tuple of its ancestors' encodings ``tag.class1.class2#id`` from the root.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

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


# A utility class that shows the element from some screen width on (Tailwind's
# `hidden md:block`): hidden on a phone, shown on a desktop.
_SHOWN_FROM = re.compile(
    r"[\w-]+:(?:block|flex|grid|inline|inline-block|inline-flex|inline-grid|table|contents|flow-root)")


# Text inside a block for screen readers only, clipped off screen by CSS: "(opens in
# a new window)" in a link (VuePress), "Skip to content".  No one sees it on the page.
_SCREEN_READER_ONLY = re.compile(r"(?:^|[\s-])(?:sr-only|visually-?hidden|screen-reader-text)(?=\s|$)")


def is_hidden(el, enc: str) -> bool:
    """Whether a block element (encoded `enc`) is not shown: class ``hidden``, an inline style, `hidden`.

    A paywalled page can carry its article twice, once for each kind of reader,
    one copy hidden; what no reader sees is not the page's text.
    """
    if ".hidden" in enc:
        classes = enc.partition("#")[0].split(".")
        if "hidden" in classes and not any(_SHOWN_FROM.fullmatch(c) for c in classes):
            return True
    style = el.get("style")
    return bool(style) and _DISPLAY_NONE.search(style) is not None or el.get("hidden") is not None


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


def encode(el) -> str:
    """`tag.class1.class2#id` with classes sorted and lower-cased."""
    attrs = (el.tag, el.get("class"), el.get("id"))
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


_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
# The glyph a headline's permalink shows on hover (Sphinx and MkDocs ¶, VuePress #).
PERMALINK_GLYPHS = frozenset("¶ # § 🔗 🔗︎ ⚓ ⚓︎".split())
_PERMALINK_CLASS = re.compile(r"anchor|headerlink|permalink|hash-?link|heading-?link", re.I)


def is_permalink(el, path: tuple[str, ...]) -> bool:
    """Whether the ``<a>`` `el` in the block at `path` is a headline's permalink, not text.

    So it is inside a heading when it links to a fragment and shows only a
    permalink glyph, or nothing, or a character or two while its class names
    it so (``headerlink``, ``header-anchor``, ...): a reader sees it on hover only.
    A heading's whole text linked to its own fragment stays.
    """
    if not path or path[-1].split(".", 1)[0].split("#", 1)[0] not in _HEADINGS or "#" not in el.get("href", ""):
        return False
    text = "".join(el.itertext()).replace("\u200b", "").strip()
    return (text in PERMALINK_GLYPHS or not text
            or len(text) <= 2 and bool(_PERMALINK_CLASS.search(el.get("class") or "")))


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
    page, hidden_weight = _segment(root, with_links, skip_hidden=True)
    if hidden_weight > HIDDEN_PAGE_RATIO * page.weight:
        # Nearly all of the text is hidden: a page that its scripts show once loaded.
        page, _ = _segment(root, with_links, skip_hidden=False)
    return page


# What each tag does to the block being read (anything else is inline).
_BLOCK, _CHOP, _SKIP, _ANCHOR = 1, 2, 3, 4
_KIND: dict = {**{t: _BLOCK for t in BLOCK_TAGS}, **{t: _CHOP for t in CHOP_TAGS},
               **{t: _SKIP for t in SKIP_TAGS}, "a": _ANCHOR,
               # comments, processing instructions and entities: no text of the page
               etree.Comment: _SKIP, etree.ProcessingInstruction: _SKIP, etree.Entity: _SKIP}


def _segment(root, with_links: bool, skip_hidden: bool) -> tuple[PageBlocks, int]:
    """`segment`, and the letters of the hidden elements it left out (`skip_hidden`)."""
    hidden_weight = 0
    blocks: list[Block] = []
    links: list[tuple[str, str]] = []
    buf: list[str] = []
    anchor_buf: list[str] = []
    paths: list[tuple[str, ...]] = [()]  # the path of each open block element
    in_anchor = 0
    kinds = _KIND

    def flush(path: tuple[str, ...]) -> None:
        """Close the block being read: its text runs since the last block boundary."""
        text = block_text(path, buf)
        anchor = "".join(anchor_buf) if anchor_buf else ""
        buf.clear()
        anchor_buf.clear()
        if text and (weight := letters(text)):
            blocks.append(Block(path, text, weight, letters(anchor) if anchor else 0))

    # lxml's walker runs in C and needs no recursion: pathological pages nest thousands deep.
    walker = etree.iterwalk(root, events=("start", "end"))
    skip_subtree = walker.skip_subtree
    skipped_el = None  # the last element whose subtree was skipped: its end event only reads its tail
    for event, el in walker:
        kind = kinds.get(el.tag)
        if event == "start":
            if kind == _SKIP or (kind != _BLOCK and (cls := el.get("class"))
                                 and _SCREEN_READER_ONLY.search(cls) is not None):
                skipped_el = el
                skip_subtree()
                continue
            if kind == _BLOCK:
                enc = encode(el)
                if skip_hidden and is_hidden(el, enc):
                    skipped_el = el
                    hidden_weight += letters("".join(el.itertext()))
                    skip_subtree()
                    continue
                if buf:
                    flush(paths[-1])
                paths.append(paths[-1] + (enc,))
            elif kind == _CHOP:
                if el.tag == "br" and is_pre(paths[-1]):
                    buf.append("\n")  # a code listing written line by line with <br>
                elif buf:
                    flush(paths[-1])
            elif kind == _ANCHOR:
                if is_permalink(el, paths[-1]):
                    skipped_el = el
                    skip_subtree()
                    continue
                in_anchor += 1
                if with_links and (href := el.get("href")):
                    links.append((href, " ".join("".join(el.itertext()).split())))
            if (text := el.text) and (buf or not text.isspace()):  # no block starts with a space
                buf.append(text)
                if in_anchor:
                    anchor_buf.append(text)
            continue
        if el is skipped_el:
            skipped_el = None
        elif kind == _BLOCK:
            if buf:
                flush(paths[-1])
            paths.pop()
        elif kind == _ANCHOR:
            in_anchor -= 1
        if (tail := el.tail) and (buf or not tail.isspace()):
            buf.append(tail)
            if in_anchor:
                anchor_buf.append(tail)
    if buf:
        flush(())
    head_title = root.find("head/title")
    title = " ".join((head_title.text or "").split()) if head_title is not None else ""
    return PageBlocks(tuple(blocks), title, tuple(links)), hidden_weight
