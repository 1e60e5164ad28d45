"""Parse HTML text with lxml, never raising on broken or empty input."""
from __future__ import annotations

import logging
import re

from lxml import etree

import stemmer.blocks.segment as _walkers  # the module, whose WALKER benchmarks may switch
from stemmer.blocks.block import letters

log = logging.getLogger("stemmer")

# Elements nested deeper than this become siblings at this depth, as Chromium's parser does at
# 512. Real pages nest a few dozen deep; libxml2 without huge_tree stops at 256. Block paths,
# and so keys and container tests, stay this short on a page of 20,000 nested divs.
MAX_DEPTH = 256
_DEEP = "/".join(["*"] * MAX_DEPTH)  # the elements MAX_DEPTH levels below the root

_PARSER = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                           no_network=True, recover=True, huge_tree=True,
                           collect_ids=False)  # no lookups by id; not indexing them parses ~8% faster
_TITLE_OPEN = re.compile(rb"<title\b[^>]*>", re.IGNORECASE)
_MARKUP = re.compile(r"<[a-zA-Z/!]")
# A page whose <noscript> elements hold at least this many letters, and more than the rest
# of the page shows, is read as a browser without scripts shows it (Discourse's threads).
NOSCRIPT_LETTERS = 100


def parse_html(html: str | bytes, *, name: str | None = None):
    """Return the root element of `html`, or None when nothing parses.

    Text is parsed as UTF-8 bytes so that an XML encoding declaration inside
    the text cannot conflict with it. Elements nested deeper than `MAX_DEPTH`
    become siblings, with a warning naming the page (`name`). A title never
    closed is closed at its first tag, and `<noscript>` is read where only it
    holds the page's text, so that such pages do not come out empty.
    """
    data = html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html
    if not data.strip():
        return None
    root = _parse(data)
    if root is None:
        return None
    if root.find("body") is None and (repaired := _close_runaway_title(root, data)) is not None:
        root = repaired
    if _nests_too_deep(root):
        for el in root.xpath(_DEEP):
            _flatten(el)
        log.warning("%s: elements nested deeper than %d made siblings", name or "a page", MAX_DEPTH)
    _show_noscript(root)
    _hide_by_stylesheet(root)
    return root


def _parse(data: bytes):
    try:
        return etree.fromstring(data, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None


def _close_runaway_title(root, data: bytes):
    """The page parsed again with its `<title>` closed at its first tag, where it was never closed.

    A `<title>` without its end tag (a damaged page) swallows the whole document as
    its text: the tree has no body and the title's text holds markup.  Browsers of
    the time showed the page; None where that is not the case.
    """
    title = root.find("head/title")
    if title is None or not title.text or not _MARKUP.search(title.text):
        return None
    opened = _TITLE_OPEN.search(data)
    end = data.find(b"<", opened.end()) if opened else -1
    if end < 0:
        return None
    return _parse(data[:end] + b"</title>" + data[end:])


def _show_noscript(root) -> None:
    """Read the body's `<noscript>` elements as plain elements where they hold the page's text.

    Scripts fill some pages in a browser, and the server puts the text a crawler
    should read in `<noscript>` (a Discourse thread: a splash screen outside it).
    Where the noscript elements hold `NOSCRIPT_LETTERS` letters or more, and more
    than the blocks outside them, they become ``div`` elements.
    """
    body = root.find("body")
    if body is None:
        return
    boxes = list(body.iter("noscript"))
    if not boxes:
        return
    inside = sum(letters(" ".join(box.itertext())) for box in boxes)
    if inside < NOSCRIPT_LETTERS:
        return
    shown = _walkers.segment(root, walker=_walkers.WALKER).blocks  # the walker named: never a SettingError here
    if inside > sum(b.weight for b in shown):
        for box in boxes:
            box.tag = "div"


# A rule of the page's own stylesheet that hides what it selects, and one that shows it.
_HIDES = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_SHOWS = re.compile(r"display\s*:\s*(?!none)[a-z]|visibility\s*:\s*visible", re.IGNORECASE)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_BRACE = re.compile(r"[{}]")
_SIMPLE_SELECTOR = re.compile(r"\s*([.#])(-?[_a-zA-Z][\w-]*)\s*")
_NAMED = re.compile(r"([.#])(-?[_a-zA-Z][\w-]*)")
# Only a hidden element named as something that pops up over the page counts: a collapsed
# accordion, a tab or a menu for small screens is also hidden by its stylesheet, and is
# often the page's text (mceb's FAQ and service pages).
_POP_UP_WORDS = (r"modal|dialog|popup|pop-up|overlay|lightbox|cookie|consent|gdpr|login|signin|sign-in"
                 r"|register|newsletter|subscribe|paywall|interstitial")
_POPS_UP = re.compile(_POP_UP_WORDS, re.IGNORECASE)
# A rule that may hide one (a class or id with such a word, then a declaration block that hides).
_MAY_HIDE_POP_UP = re.compile(rf"[.#][\w-]*(?:{_POP_UP_WORDS})[\w-]*[^{{}}]*{{[^{{}}]*"
                              r"(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.IGNORECASE)


def _hide_by_stylesheet(root) -> None:
    """Mark ``hidden`` the elements the page's own ``<style>`` hides by a class or id selector alone.

    A login or cookie dialog, a newsletter pop-up or a legal notice is often in
    the page as text and hidden by a stylesheet rule (``.modal {display: none}``),
    not by an inline style: no reader sees it until a script shows it.  Only
    top-level rules whose selector is one class or one id count, only names that
    say such a thing (`_POPS_UP`), and a name that any rule shows again
    (``.modal.open {display: block}``, a ``@media`` rule) is left alone.  The walkers then skip these elements as they skip inline
    ``display:none`` (`stemmer.blocks.block.is_hidden`).
    """
    css = [s.text for s in root.iter("style") if s.text]
    if not any(_MAY_HIDE_POP_UP.search(text) for text in css):  # one regex pass on most pages
        return
    hidden, shown = _stylesheet_names(_CSS_COMMENT.sub("", "\n".join(css)))
    hidden = {name for name in hidden - shown if _POPS_UP.search(name)}
    if not hidden:
        return
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        ident, cls = el.get("id"), el.get("class")
        if (ident and "#" + ident in hidden) or (cls and any("." + c in hidden for c in cls.split())):
            el.set("hidden", "hidden")


def _stylesheet_names(css: str) -> tuple[set[str], set[str]]:
    """(``.class``/``#id`` names that a top-level rule of one simple selector hides,
    names that any rule, nested or compound, shows)."""
    hidden: set[str] = set()
    shown: set[str] = set()
    open_rules: list[tuple[str, int]] = []  # (selector, where its body starts) of each rule open
    at = 0
    for m in _BRACE.finditer(css):
        if m.group() == "{":
            open_rules.append((css[at:m.start()], m.end()))
        elif open_rules:
            selector, body_at = open_rules.pop()
            body = css[body_at:m.start()]
            if "{" not in body:  # a rule of declarations, not an at-rule around others
                if _SHOWS.search(body):
                    shown.update(a + b for a, b in _NAMED.findall(selector))
                elif not open_rules and _HIDES.search(body):
                    for part in selector.split(","):
                        if sm := _SIMPLE_SELECTOR.fullmatch(part):
                            hidden.add(sm.group(1) + sm.group(2))
        at = m.end()
    return hidden, shown


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
