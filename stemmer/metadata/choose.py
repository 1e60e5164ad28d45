"""The date and author of a page no layout slot gave them to: its own statements and what its headline shows.

One finishing step, `add_metadata`, that extract applies to every result: it
fills `Extraction.date` / `author` (and where each came from) only where they
are still empty, so a layout's date slot (`stemmer.layout`) keeps its value.

Which value wins:
  date    the day the page's statements (`page_signals`) and the date shown by
          its headline (`visible_metadata`) say most strongly, weighed together
          (`date_scores`): each statement by its source, a source's first date
          most (a thread's opening post, not its replies); the shown date adds
          its own weight and that of the statements that confirm it (a date of
          the last change among them: the page shows when it changed).  So a
          shown date nothing confirms (an embed's, a caption's, an "Updated"
          one) yields to the stated publication.  The `<time>`s
          of a page that has `TEASER_TIMES` different days in them are its
          teasers' dates and weigh nothing.  Where nothing dates the page, the
          first date in an element whose class names a date (`marked_date`).
  author  a person the page's JSON-LD, meta tags or microdata name, else the
          byline by the headline, else an organization named as author or a
          ``rel=author`` link.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone

from stemmer.metadata.dates import parse_date
from stemmer.metadata.signals import PageSignals, page_signals
from stemmer.metadata.visible import Visible, marked_date, visible_metadata

# Sources of author statements a visible byline by the headline outranks (besides an organization
# named as author): author links anywhere on the page (comment authors, author boxes).
_WEAK_AUTHOR = frozenset({"rel-author"})
# A page whose `<time>` elements fall on this many different days lists teasers (a
# listing, a news front, a list of threads): none of them is its own date.  mceb:
# the 4 pages dated by their `<time>`s alone with 11 to 25 days have no gold date;
# the one with 5 days has its first `<time>`'s.  A thread whose JSON-LD or meta
# tags state its date keeps it (mceb's forum threads of 7 to 29 days).
TEASER_TIMES = 6
# What each kind of statement weighs for the day it states (`date_scores`): the site's software
# writes JSON-LD and meta tags for the page; microdata and `<time>` may be a post's or a teaser's;
# the URL says when the address was made.
WEIGHT = {"json-ld": 3.0, "meta": 3.0, "itemprop": 2.0, "time": 1.5, "url": 2.0}
LATER = 0.5        # a source's next date weighs this share of the one before
SHOWN = 1.5        # the date shown by the headline
SHOWN_ABOVE = 1.0  # one shown above it (a kicker, a recording date)
SHOWN_UPDATE = 1.0  # one the page labels as an update ("Updated ...")
CHANGED = 3.0      # a date of the last change confirming the shown one


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
    dated = _date(signals, shown) if find_date else (None, None)
    if find_date and dated[0] is None and (marked := marked_date(root, lang)):
        dated = marked[0], "marked"
    return PageMetadata(*dated, *(_author(signals, shown) if find_author else (None, None)))


def _date(signals: PageSignals, shown: Visible) -> tuple[str | None, str | None]:
    """The page's publication date and its source: the day its statements and its headline's date,
    weighed together (`date_scores`), say most strongly; a date shown as an update only where
    nothing else dates the page."""
    scores = date_scores(signals, shown)
    if scores:
        day = max(scores, key=scores.get)  # the first of equals: the best source's
        if scores[day] > 0:
            seen = shown.date or shown.updated
            return next(((s.value, s.source) for s in signals.dates if s.value[:10] == day),
                        (seen if seen and seen[:10] == day else day, "visible"))
    return None, None


def date_scores(signals: PageSignals, shown: Visible) -> dict[str, float]:
    """Each day the page states or shows as its publication date, with the weight of what says so.

    Every statement adds its source's `WEIGHT`; a source's further dates (a forum's replies,
    a page's teasers) weigh `LATER` times the one before, so its first counts most (a thread's
    opening post), and the `<time>`s of a page with `TEASER_TIMES` days weigh nothing.  The date
    shown by the headline (else the one it shows as an update) adds `SHOWN` (`SHOWN_ABOVE` above
    it, `SHOWN_UPDATE` an update), on each reading of a numeric date that a statement confirms,
    and what confirms it adds its weight again: a statement of its day, or of a moment that is
    that day in another time zone (`_same_moment`: a page shows its local day, its markup often
    UTC's); a statement of the last change adds `CHANGED` to a day no publication is stated on:
    the page shows when it was changed as its date, and mceb's readers took that date (on 7 of
    its 11 pages that show an update their markup confirms; the stated publication on 4).  An
    "Updated ..." date nothing confirms yields to a stated publication.
    """
    scores: dict[str, float] = {}
    times = {s.value[:10] for s in signals.dates if s.source == "time"}
    nth: dict[str, int] = {}
    weighed = []
    for s in signals.dates:
        k = nth[s.source] = nth.get(s.source, -1) + 1
        weight = 0.0 if s.source == "time" and len(times) >= TEASER_TIMES else WEIGHT[s.source] * LATER ** k
        scores[s.value[:10]] = scores.get(s.value[:10], 0.0) + weight
        weighed.append((s, weight))
    seen = shown.date or shown.updated
    if not seen:
        return scores
    readings = {seen[:10]}
    if shown.date_text:
        readings |= {d[:10] for o in (True, False) if (d := parse_date(shown.date_text, day_first=o))} & set(scores)
    changed = [(s, CHANGED) for s in signals.modified]
    for day in readings:
        score = scores.get(day, 0.0) + (SHOWN_ABOVE if shown.above else SHOWN if shown.date else SHOWN_UPDATE)
        for s, weight in weighed + changed:
            if s.value[:10] != day and _same_moment(s.value, day):
                score += weight
        score += max((w for s, w in changed if s.value[:10] == day), default=0.0) if day not in scores else 0.0
        scores[day] = score
    return scores


def _same_moment(stated: str, day: str) -> bool:
    """Whether a date stated at a time of day in UTC is `day` in another zone (UTC-10 to UTC+13).

    Only a UTC time: one stated with another offset is in the page's own zone, and its day is the local one.
    """
    if len(stated) < 17 or not stated.endswith("+00:00"):
        return False
    try:
        moment = datetime.fromisoformat(stated).astimezone(timezone.utc)
        shown = date.fromisoformat(day)
    except ValueError:
        return False
    return shown in ((moment + timedelta(hours=13)).date(), (moment - timedelta(hours=10)).date())


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
