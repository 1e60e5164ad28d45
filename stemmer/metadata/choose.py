"""The date and author of a page no layout slot gave them to: its own statements and what its headline shows.

One finishing step, `add_metadata`, that extract applies to every result: it
fills `Extraction.date` / `author` (and where each came from) only where they
are still empty, so a layout's date slot (`stemmer.layout`) keeps its value.

Which value wins:
  date    the date shown by the headline (`visible_metadata`): it is what the
          reader is told; one labelled as an update only where no other is
          shown.  Where the page's markup states the same day (either reading of
          a numeric date such as 02-12-2025), that statement is taken, for its
          time and its source (``json-ld``, ``meta``, ...); a stated date that
          disagrees with the shown one is a template's or a draft's.  A date
          shown above the headline (a kicker, a podcast's recording date) yields
          to a stated one.  Without a shown date, the most reliable stated one
          (`page_signals`), the URL's last.  The `<time>`s of a page that has
          `TEASER_TIMES` different days in them are its teasers' dates, not its
          own, and so is a shown date on one of those days.
  author  a person the page's JSON-LD, meta tags or microdata name, else the
          byline by the headline, else an organization named as author or a
          ``rel=author`` link.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date

from stemmer.metadata.dates import parse_date
from stemmer.metadata.signals import PageSignals, page_signals
from stemmer.metadata.visible import Visible, visible_metadata

# Sources of author statements a visible byline by the headline outranks (besides an organization
# named as author): author links anywhere on the page (comment authors, author boxes).
_WEAK_AUTHOR = frozenset({"rel-author"})
# A page whose `<time>` elements fall on this many different days lists teasers (a
# listing, a news front, a list of threads): none of them is its own date.  mceb:
# the 4 pages dated by their `<time>`s alone with 11 to 25 days have no gold date;
# the one with 5 days has its first `<time>`'s.  A thread whose JSON-LD or meta
# tags state its date keeps it (mceb's forum threads of 7 to 29 days).
TEASER_TIMES = 6


@dataclass(frozen=True, slots=True)
class PageMetadata:
    """A page's date and author, and where each came from (None where it has none)."""

    date: str | None = None
    date_from: str | None = None
    author: str | None = None
    author_from: str | None = None


def page_metadata(root, url: str | None = None, title: str | None = None, *, lang: str | None = None,
                  reference: date | None = None, signals: PageSignals | None = None,
                  find_date: bool = True, find_author: bool = True) -> PageMetadata:
    """The date and author of a parsed page (`stemmer.blocks.parse_html`) by its statements and its headline.

    `signals`: the page's `page_signals`, where the caller has read them already.
    `find_date` / `find_author` False: that one is left None (a caller that has it), and the
    headline's surroundings are read only for what can still change the result.
    """
    if root is None:
        signals = signals or page_signals(None, url)
        return PageMetadata(*(_date(signals, Visible())))
    if lang is None:
        lang = (root.get("lang") or "")[:2].lower() or None
    signals = signals or page_signals(root, url, lang=lang)
    shown = visible_metadata(root, title, lang=lang, reference=reference, find_date=find_date,
                             find_author=find_author and not _stated_authors(signals), h1s=signals.h1s)
    return PageMetadata(*(_date(signals, shown) if find_date else (None, None)),
                        *(_author(signals, shown) if find_author else (None, None)))


def _date(signals: PageSignals, shown: Visible) -> tuple[str | None, str | None]:
    teaser_days = {s.value[:10] for s in signals.dates if s.source == "time"}
    if len(teaser_days) < TEASER_TIMES:
        teaser_days = set()
    seen = shown.date or shown.updated
    if seen and not (shown.above and signals.date):
        stated = signals.dates + signals.modified
        if not stated:
            return seen, "visible"  # no statement to confirm it (nor a teaser's `<time>`)
        # Both readings of a numeric date (02-12-2025): the one a statement confirms.
        readings = {seen[:10], (parse_date(shown.date_text, day_first=False) or "")[:10],
                    (parse_date(shown.date_text, day_first=True) or "")[:10]} - {""}
        if not readings & teaser_days:  # else the date one of the teasers shows
            for s in stated:
                if s.value[:10] in readings:
                    return s.value, s.source
            return seen, "visible"
    stated = next((s for s in signals.dates if not (teaser_days and s.source == "time")), None)
    if stated:
        return stated.value, stated.source
    return None, None


def _stated_authors(signals: PageSignals) -> list:
    """The persons the page's statements name as its author (they outrank its byline)."""
    return [s for s in signals.authors if s.source not in _WEAK_AUTHOR and "Organization" not in s.key]


def _author(signals: PageSignals, shown: Visible) -> tuple[str | None, str | None]:
    strong = _stated_authors(signals)
    if strong:
        return strong[0].value, strong[0].source
    if shown.author:
        return shown.author, "byline"
    if signals.author:
        return signals.author.value, signals.author.source
    return None, None


def add_metadata(result, root, *, lang: str | None = None, reference: date | None = None,
                 signals: Callable[[], PageSignals] | None = None):
    """`result` (an `Extraction`) with its empty date and author filled from the page; set ones stay.

    `signals`: a function giving the page's `page_signals` (read once per page by extract).
    """
    if result.date is not None and result.author is not None:
        return result
    meta = page_metadata(root, result.url, result.title, lang=lang, reference=reference,
                         signals=signals() if signals is not None else None,
                         find_date=result.date is None, find_author=result.author is None)
    changes = {}
    if result.date is None and meta.date is not None:
        changes.update(date=meta.date, date_from=meta.date_from)
    if result.author is None and meta.author is not None:
        changes.update(author=meta.author, author_from=meta.author_from)
    return replace(result, **changes) if changes else result
