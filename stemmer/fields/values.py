"""What a page's named slots say: the values of `Extraction.fields`.

A named slot (`Section.field`) gives the text of its first block on the page, or,
``many``, of every block; a ``url`` slot the ``href`` / ``src`` of the link or image
in its block; a ``date`` slot the text of its first block that reads as a date and,
as ``NAME_iso``, that date (read the way a date slot is, `slot_date`).  Every named field of the layout is in
the result, empty (None or ``[]``) where the page lacks it: the drift count needs those.
"""
from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urljoin

from stemmer.blocks import Block, PageBlocks
from stemmer.blocks.block import BLOCK_TAGS, encode
from stemmer.layout.bylines import slot_date
from stemmer.layout.model import Layout, Section

FieldValue = str | list[str] | None
# One link or image of a page: the path of the block it lies in, its text, its address.
Link = tuple[tuple[str, ...], str, str]


def named_slots(layout: Layout) -> dict[str, Section]:
    """The layout's named slots by key; of two slots of one name, the first in page order."""
    kept = _NAMED.get(id(layout))
    if kept is None or kept[0] is not layout:
        if len(_NAMED) > 10_000:
            _NAMED.clear()
        names: set[str] = set()
        slots = {}
        for s in layout.sections:
            if s.field and s.field not in names:
                names.add(s.field)
                slots[s.key] = s
        kept = _NAMED[id(layout)] = (layout, slots)
    return kept[1]


_NAMED: dict[int, tuple[Layout, dict[str, Section]]] = {}  # id of a layout -> (it, its named slots)


def field_values(layout: Layout, keys: Sequence[str], page: PageBlocks, root=None,
                 base: str | None = None) -> dict[str, FieldValue]:
    """The values of the layout's named slots on a page whose blocks have these keys.

    Args:
        root: the parsed page, which ``url`` slots read (without it they give nothing).
        base: the page's URL, against which a ``url`` slot's relative address is resolved.
    """
    named = named_slots(layout)
    if not named:
        return {}
    found: dict[str, list[Block]] = {}
    for key, b in zip(keys, page.blocks):
        if key in named:
            found.setdefault(key, []).append(b)
    links: list[Link] | None = None
    out: dict[str, FieldValue] = {}
    for key, s in named.items():
        blocks = found.get(key, ())
        if s.field_type == "url":
            if links is None:
                links = page_links(root) if root is not None else []
            values = [urljoin(base, u) if base else u for u in block_urls(blocks, links)]
        else:
            values = [v for b in blocks if (v := without_prefix(b.text, s.prefix))]
        if s.field_type == "date":
            read = [(v, slot_date(v, s.day_first)) for v in values]
            if not s.many:  # one date: the slot's first block that reads as one
                read = [next((r for r in read if r[1]), read[0])] if read else []
            values, dates = [v for v, _ in read], [d for _, d in read if d]
            out[s.field] = values if s.many else (values[0] if values else None)
            out[f"{s.field}_iso"] = dates if s.many else (dates[0] if dates else None)
            continue
        out[s.field] = values if s.many else (values[0] if values else None)
    return out


def without_prefix(text: str, prefix: str) -> str:
    """`text` less the slot's label before its value ("SKU: AB-12" -> "AB-12"), where it starts so."""
    if prefix and text.casefold().startswith(prefix.casefold()):
        return text[len(prefix):].strip()
    return text


def page_links(root) -> list[Link]:
    """Every ``<a href>`` and ``<img src>`` of the page in document order, with its block's path and its text."""
    out = []
    for el in root.iter("a", "img"):
        url = el.get("href") if el.tag == "a" else el.get("src")
        if not url or not url.strip():
            continue
        path = tuple(encode(a.tag, a.get("class"), a.get("id"))
                     for a in reversed(list(el.iterancestors())) if a.tag in BLOCK_TAGS)
        out.append((path, " ".join("".join(el.itertext()).split()), url.strip()))
    return out


def block_urls(blocks: Sequence[Block], links: list[Link]) -> list[str]:
    """The address of the link or image in each block: one in the block itself (its text in the block's),
    else one beside it, in the element that holds the block (an image above its caption)."""
    taken: set[int] = set()
    out = []
    for b in blocks:
        hit = next((i for i, (path, text, _) in enumerate(links)
                    if i not in taken and path == b.path and text and text in b.text), None)
        if hit is None:
            hit = next((i for i, (path, _, _) in enumerate(links)
                        if i not in taken and path == b.path[:-1]), None)
        if hit is not None:
            taken.add(hit)
            out.append(links[hit][2])
    return out
