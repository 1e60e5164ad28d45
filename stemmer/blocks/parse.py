"""Parse HTML text with lxml, never raising on broken or empty input."""
from __future__ import annotations

import logging

from lxml import etree

import stemmer.blocks.segment as _walkers  # the module, whose WALKER benchmarks may switch

log = logging.getLogger("stemmer")

# Elements nested deeper than this become siblings at this depth, as Chromium's parser does at
# 512. Real pages nest a few dozen deep; libxml2 without huge_tree stops at 256. Block paths,
# and so keys and container tests, stay this short on a page of 20,000 nested divs.
MAX_DEPTH = 256
_DEEP = "/".join(["*"] * MAX_DEPTH)  # the elements MAX_DEPTH levels below the root

_PARSER = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                           no_network=True, recover=True, huge_tree=True,
                           collect_ids=False)  # no lookups by id; not indexing them parses ~8% faster


def parse_html(html: str | bytes, *, name: str | None = None):
    """Return the root element of `html`, or None when nothing parses.

    Text is parsed as UTF-8 bytes so that an XML encoding declaration inside
    the text cannot conflict with it. Elements nested deeper than `MAX_DEPTH`
    become siblings, with a warning naming the page (`name`).
    """
    data = html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html
    if not data.strip():
        return None
    try:
        root = etree.fromstring(data, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    if root is not None and _nests_too_deep(root):
        for el in root.xpath(_DEEP):
            _flatten(el)
        log.warning("%s: elements nested deeper than %d made siblings", name or "a page", MAX_DEPTH)
    return root


def _nests_too_deep(root) -> bool:
    """Whether an element lies `MAX_DEPTH` levels below the root: in C with the compiled walker (the XPath costs a quarter of a parse)."""
    if _walkers.WALKER == "compiled":
        return _walkers.nests_deeper(root, MAX_DEPTH)
    return bool(root.xpath(_DEEP))


def _flatten(el) -> None:
    """Move the elements below `el` up beside it, in document order, each with its own text."""
    after = el
    for sub in list(el.iterdescendants()):
        after.addnext(sub)  # takes its tail along; its children follow it in the next steps
        after = sub
