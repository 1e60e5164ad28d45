"""Date and byline slots: the slots of a layout that say when a page was published and who wrote it.

Found as Webstemmer finds the title slot, by agreement: on the pages that
state their date or author for machines (JSON-LD, meta tags, `<time
datetime>`, a date in the URL; `stemmer.metadata.page_signals`), the slot
whose visible text, read as a date (`parse_date`) or a byline
(`byline_author`), says the same on most of them is the layout's date or
author slot; one slot can be both (a byline).  At extract the slot's text is
read the same way, on pages that no longer state anything.
"""
from __future__ import annotations

import re

from stemmer.layout.model import SitePage
from stemmer.metadata import clean_author, parse_date

# A slot's text longer than this is body text that may mention a date, not a dateline.
MAX_BYLINE = 200
# Of the layout's pages that state a date (an author), the slot must say the same on
# at least this share, and on at least MIN_AGREEING of them.
AGREES = 0.5
MIN_AGREEING = 2
# Where a number starts: where a second date of a text may.
_NUMBER = re.compile(r"(?<!\d)\d")
# Where a byline names its author after other words ("Posted 31-12-2022 by Jane Doe").
_BY = re.compile(r"(?:^|\s)(?:by|par|von|por|di|door|oleh|av|af|от)\s", re.I)


def byline_author(text: str) -> str | None:
    """The author a byline names ("By Jane Doe", "Posted 31-12-2022 by Jane Doe"), or None."""
    if len(text) > MAX_BYLINE:
        return None
    for m in _BY.finditer(text):  # the name after "by" ("Publié le 5 mars 2024 par Marie Curie")
        if name := clean_author(text[m.start():]):
            return name
    name = clean_author(text)
    return name if name and not any(c.isdigit() for c in name) else None


def slot_date(text: str, day_first: bool | None = None) -> str | None:
    """The date a slot's text shows, ISO 8601, or None (`day_first` None: day first, as most of our languages).

    Of several ("2025-01-10に更新2024-11-04に投稿": updated, posted), the earliest:
    a page is changed after it is published, never before.
    """
    if len(text) > MAX_BYLINE:
        return None
    order = True if day_first is None else day_first
    if (first := parse_date(text, day_first=order)) is None:
        return None
    found = [first]  # the dates that start at each later number
    for m in _NUMBER.finditer(text, 1):
        if (later := parse_date(text[m.start():], day_first=order)) is not None:
            found.append(later)
    return min(found, key=lambda d: d[:10])


def metadata_roles(pages: list[SitePage], groups, keys: list[str], roles: list[str]
                   ) -> tuple[list[str], dict[str, bool | None]]:
    """`roles` with the layout's date slot and author slot, and how the date slot writes numeric dates.

    Args:
        pages: the layout's pages; `groups`: each one's blocks by slot key.
        keys: the slots in page order; `roles`: their roles so far (`label_slots`):
            only a sub or static slot may become a date or author slot.

    Returns:
        The roles, and for the date slot whether it writes the day first (None:
        its dates never said).  A slot that is both date and author slot is a
        ``byline``.
    """
    dated = [(p, g) for p, g in zip(pages, groups) if p.date]
    authored = [(p, g) for p, g in zip(pages, groups) if p.author]
    date_key, day_first = _date_slot(dated, keys, roles)
    author_key = _author_slot(authored, keys, roles)
    roles = list(roles)
    for i, key in enumerate(keys):
        if key == date_key:
            roles[i] = "byline" if key == author_key else "date"
        elif key == author_key:
            roles[i] = "author"
    return roles, ({date_key: day_first} if date_key else {})


def _first_text(g, key: str) -> str:
    blocks = g.get(key)
    return blocks[0].text if blocks else ""


def _open(roles: list[str], i: int) -> bool:
    """Whether slot `i` may be a date or author slot: not the title, not main text (whose text it would take)."""
    return roles[i] in ("sub", "static")


def _date_slot(dated, keys: list[str], roles: list[str]) -> tuple[str | None, bool | None]:
    """The slot whose text gives the date most of the dated pages state, and its order of day and month."""
    best, best_hits, best_order = None, 0, None
    least = max(MIN_AGREEING, AGREES * len(dated))
    read: dict[tuple[str, bool], str | None] = {}  # a static slot's text is the same on every page
    for i, key in enumerate(keys):
        if not _open(roles, i):
            continue
        hits = {True: 0, False: 0}
        for k, (p, g) in enumerate(dated):
            if max(hits.values()) + len(dated) - k < max(least, best_hits + 1):
                break  # the pages left cannot make this slot the best
            text = _first_text(g, key)
            if not text or len(text) > MAX_BYLINE:
                continue
            for order in (True, False):
                if (text, order) not in read:
                    read[text, order] = slot_date(text, order)
                if (found := read[text, order]) and found[:10] == p.date[:10]:
                    hits[order] += 1
        n = max(hits.values())
        if n >= least and n > best_hits:
            best, best_hits = key, n
            best_order = None if hits[True] == hits[False] else hits[True] > hits[False]
    return best, best_order


def _author_slot(authored, keys: list[str], roles: list[str]) -> str | None:
    """The slot whose text names the author most of the pages that state one name."""
    best, best_hits = None, 0
    least = max(MIN_AGREEING, AGREES * len(authored))
    named: dict[str, str | None] = {}  # a static slot's text is the same on every page
    for i, key in enumerate(keys):
        if not _open(roles, i):
            continue
        hits = 0
        for k, (p, g) in enumerate(authored):
            if hits + len(authored) - k < max(least, best_hits + 1):
                break  # the pages left cannot make this slot the best
            if not (text := _first_text(g, key)):
                continue
            if text not in named:
                named[text] = byline_author(text)
            if (name := named[text]) and name.casefold() == p.author.casefold():
                hits += 1
        if hits >= least and hits > best_hits:
            best, best_hits = key, hits
    return best
