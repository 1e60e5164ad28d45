"""The date and byline a reader sees next to a page's headline, for pages that say nothing machine-readable.

News and blog themes put the date and the byline in a line just under the
headline (sometimes just above it): "By Jane Doe · March 5, 2024 · 4 min
read".  So the texts around the page's `<h1>` are read in page order, a few
dozen pieces after it and fewer before; the nearest date wins, a date
labelled as an update ("Updated ...", "Last modified ...") only when no other
is there, and a date inside a sentence of prose never.  Only the elements near
the headline are visited: no walk of the whole page.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date

from lxml import etree

from stemmer.blocks.segment import walker_in_use
from stemmer.metadata.authors import BYLINE_LEAD, clean_author
from stemmer.metadata.dates import MONTHS, may_hold_date, parse_date

try:  # the same pieces and elements, found in C (no lxml proxy, no Python step per element passed)
    from stemmer.blocks._walker import (pieces_after as _compiled_after, pieces_before as _compiled_before,
                                        title_like as _compiled_title_like)
except ImportError:  # no compiler at install time: the walks below in Python
    _compiled_after = _compiled_before = _compiled_title_like = None

AFTER = 30   # text pieces read after the headline (a header's date, byline, reading time, share links)
BEFORE = 8   # and before it (a kicker line: category and date)
BYLINE_BEFORE = 2  # of which a byline may be in the nearest two ("By Jane Doe" above the headline)
PROSE = 80   # characters: a longer piece is prose, unless its date opens it
_SKIP = frozenset({"script", "style", "noscript", "template", "button", "select", "option", "svg", "head",
                   "textarea", "iframe"})
_UPDATED = re.compile(r"updat|modif|edited|revised|aktualisiert|mis à jour|actualizado|aggiornat|atualizad|"
                      r"bijgewerkt|zaktualizowan|güncellen|обновлен|更新|업데이트", re.I)
_LABEL_AFTER = re.compile(r"^\s*(?:に|에|에서)")
# Where a page without <h1> puts its headline: another heading, or an element whose class names a title.
_OTHER_HEADINGS = frozenset({"h2", "h3", "h4"})
_NEVER_HEADLINE = frozenset({"a", "meta", "img"})
_NOT_ALNUM = re.compile(r"[^0-9A-Za-z]+")
_TEXT_NODES = etree.XPath("descendant::text()")  # an element's text, but not the names of entity references
_BYLINE_CLASS = re.compile(r"author|byline|writer|posted-?by", re.I)
_NOT_BYLINE_CLASS = re.compile(r"comment|avatar|bio|description|about|follow|social|share|image|photo|img", re.I)


@dataclass(slots=True)  # not frozen: a frozen one costs a microsecond to make, and a page reads dozens
class Piece:
    """A piece of text near the headline: its text, the element holding it, its distance (negative: before)."""

    text: str
    owner: object
    distance: int
    classes: str | None = None  # `_classes` of its owner, once read


@dataclass(frozen=True, slots=True)
class Visible:
    """What the headline's surroundings show: a date, a date labelled as an update, a byline."""

    date: str | None = None
    updated: str | None = None
    author: str | None = None
    date_text: str | None = None  # the text the date was read from (`date`'s, else `updated`'s)
    above: bool = False           # that date stands above the headline, not in the byline below it
    distance: int = 0             # pieces of text between the headline and that date (negative: above)


def headline_element(root, title: str | None, h1s: tuple | None = None):
    """The element of the page's headline: the `<h1>` that reads as `title`, else the first `<h1>`.

    A page without `<h1>` takes the other heading, or the element whose class names a
    title, that reads as `title`; None without either.  `h1s`: the page's `<h1>`s where
    the caller has them (`PageSignals.h1s`); None: found here.
    """
    if root is None:
        return None
    if h1s is None:
        h1s = list(root.iter("h1"))
    if title and (len(h1s) != 1):
        wanted = " ".join(title.split()).casefold()
        for h in h1s or _title_like(root, len(wanted)):
            if " ".join(" ".join(h.itertext()).split()).casefold() == wanted:
                return h
    return h1s[0] if h1s else None


def _title_like(root, limit: int):
    """The elements in a `<body>` of the page's document that are h2-h4 or have "title" or "headline"
    in their class (but links, metas and images), in page order; a body at a time, as the first
    that reads as the title ends the search (what an XPath would select, without an XPath's cost).
    Only those whose text may read as a title of `limit` characters: with at most `limit` ASCII
    letters and digits (case folding never makes a text shorter), so a page's many others are not read.

    The whole document: a page may parse into more than one `<html>` (`root` and its siblings).
    """
    top = root.getroottree().getroot()
    tops = [*reversed(list(top.itersiblings(preceding=True))), top, *top.itersiblings()]
    in_c = _compiled_title_like is not None and walker_in_use() == "compiled"
    for t in tops:
        if isinstance(t.tag, str):
            yield from _compiled_title_like(t, limit) if in_c else _title_like_elements(t, limit)


def _title_like_elements(top, limit: int = -1):
    """`_title_like`'s elements in the bodies at or below the top-level element `top`, lazily
    (`stemmer.blocks._walker.title_like` finds them in one walk in C); `limit` (not negative): those
    with at most `limit` ASCII letters and digits."""
    for body in top.iter("body"):
        if any(a.tag == "body" for a in body.iterancestors()):
            continue  # inside a body already walked
        for el in body.iterdescendants():
            tag = el.tag
            if tag in _OTHER_HEADINGS or (type(tag) is str and tag not in _NEVER_HEADLINE
                                          and (cls := el.get("class")) and ("title" in cls or "headline" in cls)):
                if limit < 0 or sum(len(_NOT_ALNUM.sub("", t)) for t in _TEXT_NODES(el)) <= limit:
                    yield el


def visible_metadata(root, title: str | None = None, *, lang: str | None = None,
                     reference: date | None = None, find_date: bool = True, find_author: bool = True,
                     h1s: tuple | None = None) -> Visible:
    """The date and byline shown around the page's headline (`headline_element`); empty without one.

    `find_date` / `find_author` False: that one is not looked for (a caller that has it already),
    and its fields stay None; without `find_author`, `updated` is looked for only until a date is found.
    `h1s`: the page's `<h1>`s where the caller has them (`PageSignals.h1s`).
    """
    if not (find_date or find_author):
        return Visible()
    head = headline_element(root, title, h1s)
    if head is None:
        return Visible()
    pieces = _Around(head, BEFORE if find_date else BYLINE_BEFORE, with_classes=find_author)
    found_date = updated = author = date_text = None
    distance = 0
    for p in pieces:  # after the headline first, nearest first
        text = p.text
        if find_date:
            # A long piece is prose unless a date opens it (`_prose`): read whole only if one does.
            # A short one is read where it may hold a date (most pieces do not).
            if len(text) <= PROSE:
                opened = reference is not None or may_hold_date(text)
            else:
                opened = parse_date(text[:PROSE // 2]) is not None
            iso = parse_date(text, lang=lang, reference=reference) if opened else None
            if iso is None and len(text) < 20 and _date_part(text) \
                    and (after := pieces.at(p.distance + 1)) is not None:
                text = f"{text} {after.text}"  # a date cut in two: "Dec" "4, 2025"
                iso = parse_date(text, lang=lang, reference=reference)
            if iso and not _prose(text, iso):
                label = f"{text} {pieces.classes(p)}"
                before = pieces.at(p.distance - 1)
                if before is not None and len(before.text) < 30 and not _LABEL_AFTER.match(before.text):
                    label += " " + before.text  # "Updated:" "March 2, 2024"
                if (after := pieces.at(p.distance + 1)) is not None and _LABEL_AFTER.match(after.text):
                    label += " " + after.text   # "2025-01-08" "に更新" (Japanese and Korean label after the date)
                labelled = _UPDATED.search(label) is not None
                if found_date is None and (updated is None or not labelled):
                    date_text, distance = text, p.distance
                if labelled:
                    updated = updated or iso
                else:
                    found_date = found_date or iso
        if find_author and author is None and p.distance >= -BYLINE_BEFORE and len(p.text) < 120:
            author = _byline(p, pieces)
        if (found_date or not find_date) and (author or not find_author):
            break
    return Visible(found_date, updated, author, date_text, distance < 0, distance)


# What marks an element as a date by its class or id ("post-date", "fbdatum", "Post-pub-time", "fecha"),
# and a text as one by its label ("Published", "Publié le", "veröffentlicht", "Posted", "Updated").
_DATE_CLASS = re.compile(r"date|datum|time|fecha|publi|posted", re.I)
_DATE_LABEL = re.compile(r"publi|ffentlicht|posted|updated", re.I)
MARKED_READ = 40  # marked texts read at most (a listing has one per teaser)
MARKED_TEXT = 2 * PROSE  # characters: a longer marked text is not a date line


def marked_date(root, lang: str | None = None) -> tuple[str, str] | None:
    """The first date (ISO, and its text) in the page's body that an element's class or id, or
    its text's label, marks as a date, or None.

    For a page whose statements and headline say nothing of its date (a wrong headline, a
    date at the foot of its post): its template still marks where it shows one
    ("news-list-date", "Post-pub-time", "Dieser Beitrag wurde am 3. Dezember 2011 veröffentlicht").
    """
    body = next(root.iter("body"), root)
    read = 0
    for el in body.iter():
        tag = el.tag
        if type(tag) is not str or tag in _SKIP:
            continue
        words = el.get("class"), el.get("id")
        if (words[0] and _DATE_CLASS.search(words[0])) or (words[1] and _DATE_CLASS.search(words[1])):
            texts = [" ".join(" ".join(_TEXT_NODES(el)).split())]
        else:
            texts = [t for t in (el.text, el.tail) if t and len(t) <= 4 * MARKED_TEXT and _DATE_LABEL.search(t)]
        for text in texts:
            text = " ".join(text.split())
            if text and len(text) <= MARKED_TEXT and may_hold_date(text):
                if iso := parse_date(text, lang=lang):
                    return iso, text
                read += 1
                if read >= MARKED_READ:
                    return None
    return None


@functools.lru_cache(maxsize=4096)  # a site's pages share their labels ("Share", "Posted in")
def _date_part(text: str) -> bool:
    """Whether a short piece may be the start of a date: it has a digit or a month's name."""
    return any(map(str.isdigit, text)) or any(w.lower().rstrip(".,") in MONTHS for w in text.split())


def _prose(text: str, iso: str) -> bool:
    """Whether the date sits inside a sentence rather than a date line."""
    if len(text) <= PROSE:
        return False
    return parse_date(text[:PROSE // 2]) != iso


def _byline(p: Piece, pieces: _Around) -> str | None:
    """The name a piece gives as a byline: "By Jane Doe", a bare "By" before a name, or a byline element's text."""
    text = p.text
    if BYLINE_LEAD.match(text):
        if clean_author(text) is None and (following := pieces.at(p.distance + 1)) is not None \
                and following.distance == p.distance + 1:
            text = f"{text} {following.text}"  # "By" <a>Jane Doe</a>
        return clean_author(text)
    if _byline_class(pieces.classes(p)):
        return clean_author(text)
    return None


def _classes(el, words: dict) -> str:
    """The class, id, itemprop and rel of an element, its parent and grandparent; `words`: those
    of the elements read before (pieces share their parents)."""
    out = []
    for _ in range(3):
        if el is None:
            break
        own = words.get(el)
        if own is None:
            own = words[el] = (f'{el.get("class") or ""} {el.get("id") or ""} '
                               f'{el.get("itemprop") or ""} {el.get("rel") or ""}')
        out.append(own)
        el = el.getparent()
    return " ".join(out)


@functools.lru_cache(maxsize=4096)  # a site's pages share their classes
def _byline_class(classes: str) -> bool:
    """Whether an element's classes (`_Around.classes`) name a byline, and nothing that is not one."""
    return bool(_BYLINE_CLASS.search(classes) and not _NOT_BYLINE_CLASS.search(classes))


class _Around:
    """The text pieces around a headline, walked only as far as they are read: most pages show
    their date in the first pieces after it, and the search ends there.

    Iterates the `AFTER` pieces after the headline, nearest first, then `before` pieces before it;
    `at(distance)` is the piece at that distance (negative: before), None where there is none.
    `with_classes`: the compiled walk reads each piece's `classes` as it goes (for a byline search,
    which asks most of them); else they are read where asked.
    """

    FIRST = 8  # pieces after the headline walked at first; all `AFTER` once one past them is asked

    def __init__(self, head, before: int, with_classes: bool = True):
        self.head, self.before_limit, self.with_classes = head, before, with_classes
        self.in_c = _compiled_after is not None and walker_in_use() == "compiled"
        self.after = _AfterInC(head, with_classes) if self.in_c else _After(head)
        self.before: list[Piece] | None = None
        self._words: dict = {}  # element -> its class, id, itemprop and rel (`_classes`)

    def classes(self, p: Piece) -> str:
        """`_classes` of a piece's element (a byline's name sits in an inner span), once."""
        if p.classes is None:
            p.classes = _classes(p.owner, self._words)
        return p.classes

    def at(self, distance: int) -> Piece | None:
        if distance > 0:
            if len(self.after.pieces) < distance <= AFTER:  # the first few, then all
                self.after.walk(self.FIRST if distance <= self.FIRST else AFTER)
            after = self.after.pieces
            return after[distance - 1] if distance <= len(after) else None
        if distance < 0:
            if self.before is None:
                self.before = (_compiled_before(self.head, self.before_limit, Piece, _SKIP, self.with_classes)
                               if self.in_c
                               else _pieces_before(self.head, self.before_limit))
            return self.before[-distance - 1] if -distance <= len(self.before) else None
        return None

    def __iter__(self):
        after, distance = self.after, 1
        while True:  # `at(distance)` for distance 1, 2, ..., its walk only where it is due
            if len(after.pieces) < distance <= AFTER:
                after.walk(self.FIRST if distance <= self.FIRST else AFTER)
            if distance > len(after.pieces):
                break
            yield after.pieces[distance - 1]
            distance += 1
        distance = -1
        while (p := self.at(distance)) is not None:
            yield p
            distance -= 1


class _After:
    """The text pieces after the headline element in page order, walked as far as asked and no further.

    The headline's tail, then the elements after it within its parent, then after the parent
    within its own, up to the `<body>`: of each element (but `_SKIP`'s) its text, its children's
    pieces, then its tail; not the tails of the headline's ancestors.  The walk keeps its place
    (a stack of children iterators), so one stopped at a limit goes on from there when more is asked.
    """

    def __init__(self, head):
        self.pieces: list[Piece] = []
        if (text := head.tail) and not text.isspace():
            self.pieces.append(Piece(" ".join(text.split()), head.getparent(), 1))
        self._node = head  # whose following siblings come next, once the stack is empty
        # (children iterator, the element whose tail follows them or None, the owner of their tails)
        self._stack: list[tuple] = []

    def walk(self, limit: int) -> None:
        """Walk on until `limit` pieces are found or the walk ends."""
        pieces, stack = self.pieces, self._stack
        while len(pieces) < limit:
            if not stack:
                node = self._node
                if node is None or node.tag == "body":
                    return
                self._node = node.getparent()
                stack.append((node.itersiblings(), None, self._node))
                continue
            children, el, owner = stack[-1]
            child = next(children, None)
            if child is None:  # the element's children are done: its tail
                stack.pop()
                if el is not None and (text := el.tail) and not text.isspace():
                    pieces.append(Piece(" ".join(text.split()), stack[-1][2] if stack else el.getparent(),
                                        len(pieces) + 1))
                continue
            tag = child.tag
            if isinstance(tag, str) and tag not in _SKIP:
                if (text := child.text) and not text.isspace():
                    pieces.append(Piece(" ".join(text.split()), child, len(pieces) + 1))
                stack.append((iter(child), child, child))
            elif (text := child.tail) and not text.isspace():
                pieces.append(Piece(" ".join(text.split()), owner, len(pieces) + 1))


class _AfterInC:
    """`_After`'s pieces from the compiled walk (`stemmer.blocks._walker.pieces_after`): asked for
    more, it walks again from the headline, keeping the pieces it made (in C, a fraction of the cost
    of the Python walk)."""

    def __init__(self, head, with_classes: bool):
        self.head, self.with_classes = head, with_classes
        self.pieces: list[Piece] = []
        self._asked = 0

    def walk(self, limit: int) -> None:
        if limit > self._asked == len(self.pieces):  # else it found as many already, or it has ended
            self._asked = limit
            self.pieces = _compiled_after(self.head, limit, Piece, _SKIP, self.pieces, self.with_classes)


def _pieces_before(head, limit: int) -> list[Piece]:
    """The text pieces before the headline element, nearest first, `limit` at most."""
    out: list[Piece] = []
    node = head
    while node is not None and node.tag != "body" and len(out) < limit:
        for sib in node.itersiblings(preceding=True):
            _walk_back(sib, out, limit)
            if len(out) >= limit:
                break
        node = node.getparent()
        if node is not None:
            _add_before(node.text, node, out)
    return out[:limit]


def _walk_back(el, out: list[Piece], limit: int) -> None:
    """The pieces of `el` backwards (its tail, its children's from the last, its text) into `out`, to `limit`.

    A module function, not one nested in `_pieces_before`: a nested one that calls itself is a
    reference cycle, which would keep the page's tree alive (its pieces hold elements) until a
    collection of cycles.
    """
    if len(out) >= limit:
        return
    _add_before(el.tail, el.getparent(), out)
    if isinstance(el.tag, str) and el.tag not in _SKIP:
        for child in reversed(el):
            _walk_back(child, out, limit)
            if len(out) >= limit:
                return
        _add_before(el.text, el, out)


def _add_before(text, owner, out: list[Piece]) -> None:
    if text and not text.isspace():
        out.append(Piece(" ".join(text.split()), owner, -(len(out) + 1)))
