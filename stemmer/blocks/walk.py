"""The walk over a parsed page that cuts its blocks, in Python (`stemmer.blocks._walker` is the compiled twin).

One walk serves the layout stage and the block classifier: `segment` walks
without a recorder; the classifier's page table (`stemmer.classify.features`)
passes a `Recorder` that hears, in order, each element the walk enters and
leaves and each block boundary, and so learns each block's surroundings.
"""
from __future__ import annotations

from typing import Protocol

from lxml import etree

from stemmer.blocks.block import (BLOCK_TAGS, CHOP_TAGS, SKIP_TAGS, Block, block_text, encode, is_hidden, is_permalink,
                                  is_pre, is_screen_reader_only, letters, may_be_permalink)


class Recorder(Protocol):
    """What a walk tells a caller that wants more of the page than its blocks."""

    def open(self, tag: str, cls: str | None, ident: str | None) -> None:
        """The walk enters an element (one it neither skips nor hides), with its class and id."""

    def close(self) -> None:
        """The walk leaves the last element it entered."""

    def boundary(self) -> None:
        """A block tag opens or closes, or a br/hr cuts: the next block starts here."""

    def block(self) -> None:
        """The text read since the last boundary became a block."""

    def clear(self) -> None:
        """Forget the walk so far: `segment` walks the page again (showing its hidden elements)."""


# What each tag does to the block being read (anything else is inline).
_BLOCK, _CHOP, _SKIP, _ANCHOR = 1, 2, 3, 4
_KIND: dict = {**{t: _BLOCK for t in BLOCK_TAGS}, **{t: _CHOP for t in CHOP_TAGS},
               **{t: _SKIP for t in SKIP_TAGS}, "a": _ANCHOR,
               # comments, processing instructions and entities: no text of the page
               etree.Comment: _SKIP, etree.ProcessingInstruction: _SKIP, etree.Entity: _SKIP}


def walk(root, with_links: bool, skip_hidden: bool, recorder: Recorder | None = None):
    """Cut `root` into blocks in document order.

    Returns:
        (blocks, the ``<head><title>`` text, ``(href, link text)`` of each ``<a href>``
        if `with_links`, the letters of the hidden elements left out if `skip_hidden`).
    """
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
            if recorder is not None:
                recorder.block()

    # lxml's walker runs in C and needs no recursion: pathological pages nest thousands deep.
    walker = etree.iterwalk(root, events=("start", "end"))
    skip_subtree = walker.skip_subtree
    skipped_el = None  # the last element whose subtree was skipped: its end event only reads its tail
    for event, el in walker:
        tag = el.tag
        kind = kinds.get(tag)
        if event == "start":
            if kind == _SKIP or (kind != _BLOCK and is_screen_reader_only(el.get("class"))):
                skipped_el = el
                skip_subtree()
                continue
            if kind == _BLOCK:
                enc = encode(tag, el.get("class"), el.get("id"))
                if skip_hidden and is_hidden(enc, el.get("style"), el.get("hidden")):
                    skipped_el = el
                    hidden_weight += letters("".join(el.itertext()))
                    skip_subtree()
                    continue
                if buf:
                    flush(paths[-1])
                if recorder is not None:
                    recorder.boundary()
                paths.append(paths[-1] + (enc,))
            elif kind == _CHOP:
                if tag == "br" and is_pre(paths[-1]):
                    buf.append("\n")  # a code listing written line by line with <br>
                else:
                    if buf:
                        flush(paths[-1])
                    if recorder is not None:
                        recorder.boundary()
            elif kind == _ANCHOR:
                if may_be_permalink(paths[-1], el.get("href")) and is_permalink("".join(el.itertext()), el.get("class")):
                    skipped_el = el
                    skip_subtree()
                    continue
                in_anchor += 1
                if with_links and (href := el.get("href")):
                    links.append((href, " ".join("".join(el.itertext()).split())))
            if recorder is not None:
                recorder.open(tag, el.get("class"), el.get("id"))
            if (text := el.text) and (buf or not text.isspace()):  # no block starts with a space
                buf.append(text)
                if in_anchor:
                    anchor_buf.append(text)
            continue
        if el is skipped_el:
            skipped_el = None
        else:
            if kind == _BLOCK:
                if buf:
                    flush(paths[-1])
                if recorder is not None:
                    recorder.boundary()
                paths.pop()
            elif kind == _ANCHOR:
                in_anchor -= 1
            if recorder is not None:
                recorder.close()
        if (tail := el.tail) and (buf or not tail.isspace()):
            buf.append(tail)
            if in_anchor:
                anchor_buf.append(tail)
    if buf:
        flush(())
    head_title = root.find("head/title")
    title = " ".join((head_title.text or "").split()) if head_title is not None else ""
    return blocks, title, links, hidden_weight
