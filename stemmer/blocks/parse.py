"""Parse HTML text with lxml, never raising on broken or empty input."""
from __future__ import annotations

import functools
import logging
import re

import numpy as np
from lxml import etree

import stemmer.blocks.segment as _walkers  # the module, whose WALKER benchmarks may switch
from stemmer.blocks.block import CASE_TRAPS, letters

try:  # compiled where the install built it, else the Python twins below (as the walker chosen says: `_compiled_scan`)
    from stemmer.blocks import _stylesheet
except ImportError:
    _stylesheet = None

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
# A soft hyphen (U+00AD) marks where a word may break: readers drop it, and kept it splits the word for
# the scorer and the title match.  Dropped as UTF-8 bytes, found by one memchr of the page for its second
# byte; the entity forms (`&shy;`, `&#173;`: 2 pages of the 3,800 of mceb, wcxb, dragnet, cleaneval and
# l3s_gn1, against 16 with the character itself) would cost a scan each of every page, and stay.
_SOFT_HYPHEN = b"\xc2\xad"
# A page whose <noscript> elements hold at least this many letters, and more than the rest
# of the page shows, is read as a browser without scripts shows it (Discourse's threads).
NOSCRIPT_LETTERS = 100


def parse_html(html: str | bytes, *, name: str | None = None):
    """Return the root element of `html`, or None when nothing parses.

    Text is parsed as UTF-8 bytes so that an XML encoding declaration inside
    the text cannot conflict with it. Elements nested deeper than `MAX_DEPTH`
    become siblings, with a warning naming the page (`name`). A title never
    closed is closed at its first tag, a button that swallowed the page is opened,
    and `<noscript>` is read where only it
    holds the page's text, so that such pages do not come out empty.  Soft hyphens go.
    """
    data = html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html
    if not data or data.isspace():  # `not data.strip()`, without a copy of the page
        return None
    if b"\xad" in data:  # a copy only on the rare page that has one
        data = data.replace(_SOFT_HYPHEN, b"")
    root = _parse(data)
    if root is None:
        return None
    if _body(root) is None and (repaired := _close_runaway_title(root, data)) is not None:
        root = repaired
    too_deep, styles, noscripts, buttons = _checks(root)
    if too_deep:
        for button in _swallowing_buttons(root):  # before the flattening moves what they hold
            button.tag = "div"
        for el in root.xpath(_DEEP):
            _flatten(el)
        log.warning("%s: elements nested deeper than %d made siblings", name or "a page", MAX_DEPTH)
        styles, noscripts = _styles_and_noscripts(root)
    else:
        for button in buttons:
            button.tag = "div"
    _show_noscript(root, noscripts)
    _hide_by_stylesheet(root, styles)
    if _has_hide_class(data):
        _hide_named(root, _HIDDEN_BY_CLASS)
    return root


def _parse(data: bytes):
    try:
        return etree.fromstring(data, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None


def _body(root):
    """``root.find("body")``, without ElementPath's parse of the path (a third of the time)."""
    return next(root.iterchildren("body"), None)


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


# What a button never holds: a button that holds one swallowed the page when the parser lost its end tag.
_LANDMARKS = ("main", "article", "section", "header", "footer", "nav", "aside")


def _swallowing_buttons(root) -> list:
    """The `<button>` elements that hold the page's landmarks: `parse_html` reads them as a plain ``div``.

    libxml2 ignores ``</button>`` while an element opened inside the button is
    still open (``<button><div></button>``), so the rest of the page lands in the
    button, which the walkers skip as a control, and the page came out empty.
    A browser closes the button there (mceb 0044, wcxb dev-4708 and test-5613).
    """
    return [button for button in root.iter("button") if next(button.iter(*_LANDMARKS), None) is not None]


def _checks(root) -> tuple[bool, list | None, list | None, list | None]:
    """Whether an element lies `MAX_DEPTH` levels below the root, the `<style>` elements, the
    `<noscript>` elements of the body and the `_swallowing_buttons` (None, None, None where the
    first is True): in one walk in C with the compiled walker (the XPath alone costs a quarter of a parse)."""
    if _walkers.WALKER == "compiled":
        return _walkers.parse_checks(root, MAX_DEPTH)
    if root.xpath(_DEEP):
        return True, None, None, None
    return False, *_styles_and_noscripts(root), _swallowing_buttons(root)


def _styles_and_noscripts(root) -> tuple[list, list]:
    body = _body(root)
    return list(root.iter("style")), list(body.iter("noscript")) if body is not None else []


def _show_noscript(root, boxes: list) -> None:
    """Read the body's `<noscript>` elements as plain elements where they hold the page's text.

    Scripts fill some pages in a browser, and the server puts the text a crawler
    should read in `<noscript>` (a Discourse thread: a splash screen outside it).
    Where the noscript elements hold `NOSCRIPT_LETTERS` letters or more, and more
    than the blocks outside them, they become ``div`` elements.
    """
    if not boxes:
        return
    # the text of each, as "".join(box.itertext()) gives it, in one call to libxml2 (a seventh of the time)
    inside = sum(letters(etree.tostring(box, method="text", encoding=str, with_tail=False)) for box in boxes)
    if inside < NOSCRIPT_LETTERS:
        return
    shown = _walkers.segment(root, walker=_walkers.WALKER).blocks  # the walker named: never a SettingError here
    if inside > sum(b.weight for b in shown):
        for box in boxes:
            box.tag = "div"


# A declaration of the page's own stylesheet that hides what its rule selects, and one that shows it.
_HIDE = (r"display\s*:\s*none", r"visibility\s*:\s*hidden")
_SHOW = (r"display\s*:\s*(?!none)[a-z]", r"visibility\s*:\s*visible")
_HIDES, _SHOWS = re.compile("|".join(_HIDE), re.IGNORECASE), re.compile("|".join(_SHOW), re.IGNORECASE)
# Both at once, a form for each property (group 1: it hides), in a stylesheet's lower-case copy
# and case-blind: a regex that starts with a word scans many times faster than one case-blind
# or with alternatives (`_lower_case`).
_DECLARE = (r"display\s*:\s*(?:(none)|[a-z])", r"visibility\s*:\s*(?:(hidden)|visible)")
_DECLARES_LOWER, _DECLARES = tuple(map(re.compile, _DECLARE)), tuple(re.compile(d, re.IGNORECASE) for d in _DECLARE)
_SIMPLE_SELECTOR = re.compile(r"\s*([.#])(-?[_a-zA-Z][\w-]*)\s*")
_NAMED = re.compile(r"([.#])(-?[_a-zA-Z][\w-]*)")
# Only a hidden element named as something that pops up over the page counts: a collapsed
# accordion, a tab or a menu for small screens is also hidden by its stylesheet, and is
# often the page's text (mceb's FAQ and service pages).
_POP_UP_WORDS = (r"modal|dialog|popup|pop-up|overlay|lightbox|cookie|consent|gdpr|login|signin|sign-in"
                 r"|register|newsletter|subscribe|paywall|interstitial")
_POPS_UP = re.compile(_POP_UP_WORDS, re.IGNORECASE)
# A class or id holding such a word, in a rule's selector (and in its lower-case copy).
_POP_UP_NAME = re.compile(rf"[.#][\w-]*(?:{_POP_UP_WORDS})", re.IGNORECASE)
_POP_UP_NAME_LOWER = re.compile(rf"[.#][\w-]*(?:{_POP_UP_WORDS})")


def _hide_by_stylesheet(root, styles: list) -> None:
    """Mark ``hidden`` the elements the page's own ``<style>`` hides by a class or id selector alone.

    A login or cookie dialog, a newsletter pop-up or a legal notice is often in
    the page as text and hidden by a stylesheet rule (``.modal {display: none}``),
    not by an inline style: no reader sees it until a script shows it.  Only
    top-level rules whose selector is one class or one id count, only names that
    say such a thing (`_POPS_UP`), and a name that any rule shows again
    (``.modal.open {display: block}``, a ``@media`` rule) is left alone.  The walkers then skip these elements as they skip inline
    ``display:none`` (`stemmer.blocks.block.is_hidden`).
    """
    hidden = _stylesheet_pop_ups([s.text for s in styles if s.text])
    if hidden:
        _hide_named(root, hidden)


def _hide_named(root, hidden: frozenset[str]) -> None:
    """Mark ``hidden`` the elements whose id is a ``#name`` of `hidden` or a class word a ``.name`` of it."""
    if _walkers.WALKER == "compiled":
        _walkers.hide_named(root, hidden)  # the loop below, in C: it reads few attributes as text
        return
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        ident, cls = el.get("id"), el.get("class")
        if (ident and "#" + ident in hidden) or (cls and any("." + c in hidden for c in cls.split())):
            el.set("hidden", "hidden")


# The utility class of Bootstrap and Foundation that hides an element (`.hide {display: none !important}`),
# beside the `hidden` class the walkers read (`stemmer.blocks.block.is_hidden`): a slideshow or a second
# headline slider in a `hide` box is text no reader sees, and can outweigh a short article.
_HIDDEN_BY_CLASS = frozenset({".hide"})
_WORD_EDGES = (b'"', b"'", b" ", b"\t", b"\n")


def _has_hide_class(data: bytes) -> bool:
    """Whether a class attribute of the page's bytes holds the word ``hide``: one scan of the page for
    the word (a regex for the attribute costs 10 ms on a page of 400 kB), most pages none."""
    k = data.find(b"hide")
    while k >= 0:
        end = k + 4
        if data[k - 1:k] in _WORD_EDGES and data[end:end + 1] in _WORD_EDGES:
            quote = max(data.rfind(b'"', 0, k), data.rfind(b"'", 0, k))  # the value's opening quote
            if quote > 0 and data[max(0, quote - 12):quote].replace(b" ", b"").lower().endswith(b"class="):
                return True
        k = data.find(b"hide", end)
    return False


# Stylesheets whose scans are kept: a site's pages repeat the same inline `<style>` elements (nine
# in ten of those on the pattern sets' test pages, two in three on dragnet's), and a scan is a
# pass over the stylesheet; one that was not seen costs a hash more (mceb's pages share few).
STYLESHEETS_KEPT = 64


def _stylesheet_pop_ups(css: list[str]) -> frozenset[str] | None:
    """`_hidden_pop_ups` of the page's stylesheets `css` together; None where a quick look at
    each (`_may_hide_pop_up`) finds none that may hide a pop-up (most pages)."""
    if not any(map(_may_hide, css)):
        return None
    return _joined_pop_ups(tuple(css))


@functools.lru_cache(maxsize=STYLESHEETS_KEPT)
def _may_hide(css: str) -> bool:
    """`_may_hide_pop_up` of one stylesheet, kept for the next page that holds it."""
    if _compiled_scan(css):
        return _stylesheet.may_hide_pop_up(css)
    return _may_hide_pop_up(css, _lower_case_kept(css))


@functools.lru_cache(maxsize=STYLESHEETS_KEPT)
def _lower_case_kept(css: str) -> str | None:
    """`_lower_case` of one stylesheet, kept for `_joined_pop_ups` of the page that `_may_hide` just read."""
    return _lower_case(css)


@functools.lru_cache(maxsize=STYLESHEETS_KEPT)
def _joined_pop_ups(css: tuple[str, ...]) -> frozenset[str]:
    """`_hidden_pop_ups` of stylesheets together, kept for the next page that holds the same."""
    if _compiled_scan(joined := "\n".join(css)):
        return frozenset(_hidden_pop_ups(_without_comments(joined, None)[0], compiled=True))
    lows = [_lower_case_kept(text) for text in css]
    # `_lower_case` lowers letter by letter: the stylesheets' lowered copies joined are their join's
    return frozenset(_hidden_pop_ups(*_without_comments(joined, "\n".join(lows) if None not in lows else None)))


def _compiled_scan(css: str) -> bool:
    """Whether the compiled scans (`stemmer.blocks._stylesheet`) read `css`: where they are built and the
    compiled walker is chosen, for a text whose case-blind scan in ASCII finds what the Python twins find
    in its `_lower_case` (no CASE_TRAPS); they need no lower-case copy."""
    return (_stylesheet is not None and _walkers.WALKER == "compiled"
            and (css.isascii() or not any(trap in css for trap in CASE_TRAPS)))


def _without_comments(css: str, low: str | None) -> tuple[str, str | None]:
    """`css` and its lower case `low` (or None) without their ``/* comments */``, as the regex
    ``/\\*.*?\\*/`` (dot matching all) removes them; found once, by `str.find`, which scans
    many times faster than the regex."""
    kept, at = [], 0
    while (start := css.find("/*", at)) >= 0 and (end := css.find("*/", start + 2)) >= 0:
        kept.append((at, start))
        at = end + 2
    if not kept:
        return css, low
    kept.append((at, len(css)))
    return "".join(css[a:b] for a, b in kept), "".join(low[a:b] for a, b in kept) if low is not None else None


def _lower_case(css: str) -> str | None:
    """`css` with its ASCII letters lowered where a case-sensitive scan of it finds what a case-blind
    scan of `css` finds, at the same places (no letter there lowers to two or matches beyond its
    cases); else None.  The scans' patterns spell their letters in ASCII, and no other character
    changes class (``\\w``, ``\\s``) as it lowers, so its other letters can stay: lowering those is
    six times slower (`str.lower` of a str not all ASCII) than the bytes' ASCII-only `bytes.lower`."""
    if css.isascii():
        return css.lower()
    if any(trap in css for trap in CASE_TRAPS):
        return None
    return css.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def _declarations(css: str, low: str | None) -> tuple[list[int], list[int]]:
    """Where the declarations that hide (`_HIDES`) and those that show (`_SHOWS`) start in `css`,
    found in one scan for each property."""
    hides, shows = [], []
    for form in (_DECLARES_LOWER if low is not None else _DECLARES):
        for m in form.finditer(css if low is None else low):
            (hides if m.group(1) else shows).append(m.start())
    return hides, shows


def _may_hide_pop_up(css: str, low: str | None) -> bool:
    """Whether a declaration that hides (`_HIDES`) follows a ``{`` whose selector names a pop-up (`_POP_UP_NAME`).

    The regex ``[.#][\\w-]*(?:POP-UP WORDS)[^{}]*{[^{}]*(?:HIDES)`` says the same, but
    backtracks over every class of a big stylesheet; this looks only behind its few hiding declarations.
    `low`: `_lower_case(css)`.
    """
    for at in _declarations(css, low)[0]:
        opened = max(css.rfind("{", 0, at), css.rfind("}", 0, at))
        if opened >= 0 and css[opened] == "{":
            selector_at = max(css.rfind("{", 0, opened), css.rfind("}", 0, opened)) + 1
            if (_POP_UP_NAME_LOWER.search(low, selector_at, opened) if low is not None
                    else _POP_UP_NAME.search(css, selector_at, opened)):
                return True
    return False


def _hidden_pop_ups(css: str, low: str | None = None, *, compiled: bool = False) -> set[str]:
    """The ``.class``/``#id`` names that say pop-up (`_POPS_UP`), that a top-level rule of one
    simple selector hides, and that no rule, nested or compound, shows.

    `low`: `_lower_case(css)` where the caller has it; `compiled`: the rules read by
    `stemmer.blocks._stylesheet` (`css` has no CASE_TRAPS), else by `_declaration_rules`.
    """
    rules = _stylesheet.declaration_rules(css) if compiled else _declaration_rules(css, low)
    hidden = set()
    for start, opened, closed, top, hides, _ in rules:
        if hides and top and not _SHOWS.search(css, opened + 1, closed):
            for part in css[start:opened].split(","):
                if (sm := _SIMPLE_SELECTOR.fullmatch(part)) and _POPS_UP.search(name := sm.group(1) + sm.group(2)):
                    hidden.add(name)
    if hidden:  # a selector holding no hidden name within it shows none (most: skip their regex)
        hidden -= {a + b for start, opened, _, _, _, shows in rules
                   if shows and any(name in (sel := css[start:opened]) for name in hidden)
                   for a, b in _NAMED.findall(sel)}
    return hidden


def _declaration_rules(css: str, low: str | None = None) -> list[tuple[int, int, int, bool, bool, bool]]:
    """The rules of declarations that hold a declaration that hides or one that shows, in order: (where
    the selector starts, its ``{``, its ``}``, whether it is top-level, whether it hides, whether it shows).

    A rule of declarations is a ``{`` whose next brace is ``}``; its selector runs from the
    brace before.  Rules are found from their hiding and showing declarations, and the
    nesting depth of all braces at once (a ``}`` with no rule open closes nothing).
    `low`: `_lower_case(css)` where the caller has it.  The Python twin of
    `stemmer.blocks._stylesheet.declaration_rules`.
    """
    code = np.frombuffer(css.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    braces = np.flatnonzero((code == 123) | (code == 125))
    opens = code[braces] == 123
    depth = np.cumsum(np.where(opens, 1, -1))
    depth -= np.minimum(np.minimum.accumulate(depth), 0)  # after each brace
    hides, shows = _declarations(css, _lower_case(css) if low is None else low)

    def rules(declarations: list[int]) -> set[int]:
        """The rules of declarations (their ``{``'s index in `braces`) holding one of `declarations`."""
        at = np.searchsorted(braces, declarations, side="right") - 1
        return {int(k) for k in at if k >= 0 and opens[k] and k + 1 < len(braces) and not opens[k + 1]}

    hiding, showing = rules(hides), rules(shows)
    return [(int(braces[k - 1]) + 1 if k else 0, int(braces[k]), int(braces[k + 1]), bool(k == 0 or depth[k - 1] == 0),
             k in hiding, k in showing) for k in sorted(hiding | showing)]


def _flatten(el) -> None:
    """Move the elements below `el` up beside it, in document order, each with its own text."""
    after = el
    for sub in list(el.iterdescendants()):
        after.addnext(sub)  # takes its tail along; its children follow it in the next steps
        after = sub
