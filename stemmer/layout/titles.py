"""Title slots: the texts that name a page, and the slot of a layout whose text agrees with them.

As in Webstemmer, the link texts that point to a page name it; so do its
`<title>` less the site's name and the titles it states for itself (og:title,
JSON-LD headline).  Each page votes for the slot that agrees best.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter

from rapidfuzz.distance import Indel, LCSseq

from stemmer.blocks import sig
from stemmer.layout.model import AnalyzeParams, SitePage
from stemmer.layout.roles import DIFF_MAX_LETTERS, HEADING_LEVEL, slot_tag
from stemmer.urls import LinkResolver, last_name

# A title slot varies at least this much (dates in titles keep DiffScore low).
TITLE_MIN_DIFF = 0.2

# Letters in a row that a title shares with the body before they count (shorter
# runs are what any two texts of one language share).
MIN_TITLE_RUN = 4

# JSON-LD scripts longer than this are not read for a headline.
MAX_JSON_LD = 100_000

# Parts of `<title>` (split at these) on this share of a site's pages, and on
# MIN_NAME_PAGES of them, name the site, not the page.  A colon needs no space
# before it ("Site.com: Storm hits coast").
_TITLE_PARTS = re.compile(r"\s+[|\-–—:·»/]+\s+|\s*[|·»]\s*|:\s+")
SITE_NAME_SHARE = 0.2
MIN_NAME_PAGES = 3
# A part of `<title>` on more than this share of a layout's pages, and on at
# least two, is constant there ("Online Edition: Breaking News"): no page's title.
LAYOUT_NAME_SHARE = 0.5

# A headline agrees at least this much with the texts that name its page (the least of a title slot's link-text match).
HEADLINE_AGREES = 0.6

# A title candidate's agreement with its page's titles gains this much by its heading level:
# of two slots that agree alike (a menu's entry and the headline), the headline.
HEADING_BONUS = {"h1": 0.1, "h2": 0.06, "h3": 0.03}

# ... and a slot in a box of noise (a menu, a sidebar) keeps this share of its agreement.
BOXED_TITLE = 0.8

# Class or id words of an element that holds a headline, where no heading does.
_HEADLINE_WORDS = frozenset({"title", "headline"})
_WORDS = re.compile(r"[a-z]+")
_NAMED_LEVEL = 7  # such an element ranks below h6


def own_titles(root) -> tuple[str, ...]:
    """The titles a parsed page states for itself: ``og:title``, ``twitter:title``, JSON-LD ``headline``."""
    if root is None:
        return ()
    found, headlines = [], []
    for el in root.iter("meta", "script"):  # one pass over the tree; metas' titles come first
        if el.tag == "meta":
            if (el.get("property") or el.get("name") or "").lower() in ("og:title", "twitter:title"):
                found.append(" ".join((el.get("content") or "").split()))
        elif (el.get("type") or "").lower() == "application/ld+json" and len(el.text or "") < MAX_JSON_LD:
            try:
                headlines.extend(_headlines(json.loads(el.text)))
            except (ValueError, RecursionError):
                pass
    return tuple(dict.fromkeys(t for t in found + headlines if t))


def _headlines(doc) -> list[str]:
    if isinstance(doc, list):
        return [h for d in doc for h in _headlines(d)]
    if not isinstance(doc, dict):
        return []
    own = doc.get("headline")
    return ([" ".join(own.split())] if isinstance(own, str) else []) + _headlines(doc.get("@graph"))


def away_texts(url: str | None, links, resolver: LinkResolver | None = None) -> frozenset[str]:
    """The letters of a page's link texts that point to other pages.

    Not to a fragment, and not to the page itself: a link whose path ends in the
    page's own last name counts as its own (a headline's permalink, even one
    whose relative href a mirror broke).  `resolver`: the site's, shared by its pages.
    """
    if not url:
        return frozenset()
    own = last_name(url)
    resolve = (resolver or LinkResolver()).resolve
    return frozenset(sig(text) for href, text in links
                     if text and not href.startswith(("#", "javascript:")) and resolve(url, href).name != own)


def site_name_parts(titles) -> frozenset[str]:
    """The parts of a site's `<title>`s (split at separators) that name the site: they recur on many pages."""
    counts: Counter[str] = Counter()
    n = 0
    for title in titles:
        n += 1
        counts.update({sig(part) for part in _TITLE_PARTS.split(title)} - {""})
    least = max(MIN_NAME_PAGES, SITE_NAME_SHARE * n)
    return frozenset(part for part, c in counts.items() if c >= least)


def layout_title_names(titles: list[str], site_names: frozenset[str]) -> tuple[str, ...]:
    """The parts of a layout's `<title>`s that name no page: the site's name, and what is the same on its pages.

    `titles`: the `<title>` of each of the layout's pages; `site_names`: the
    site's (`site_name_parts`).  Returns each such part as first written, sorted.
    """
    counts: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    for title in titles:
        here = set()
        for part in _TITLE_PARTS.split(title):
            if s := sig(part):
                spelled.setdefault(s, part.strip())
                here.add(s)
        counts.update(here)
    least = max(2, math.floor(LAYOUT_NAME_SHARE * len(titles)) + 1)
    return tuple(sorted(spelled[s] for s, c in counts.items() if s in site_names or c >= least))


def title_less_names(title: str, names) -> str:
    """`<title>` less the parts at its start and end that name the site or section (their letters in `names`).

    "Storm hits coast | Daily News" -> "Storm hits coast"; a title of nothing
    but such parts -> "".  The part between is kept as written.
    """
    if not names:
        return title.strip()
    bounds = [0]
    for m in _TITLE_PARTS.finditer(title):
        bounds += [m.start(), m.end()]
    bounds.append(len(title))
    parts = [(bounds[k], bounds[k + 1]) for k in range(0, len(bounds), 2)]  # (start, end) of each part
    keep = [k for k, (a, b) in enumerate(parts) if sig(title[a:b]) and sig(title[a:b]) not in names]
    if not keep:
        return ""
    return title[parts[keep[0]][0]:parts[keep[-1]][1]].strip()


def references(page: SitePage, names: frozenset[str]) -> tuple[str, ...]:
    """The letters of the texts that name a page: link texts to it, its `<title>` less the site's name, its own titles."""
    texts = [*page.anchors, title_less_names(page.blocks.title, names), *page.titles]
    return tuple(dict.fromkeys(s for s in map(sig, texts) if s))


def agreement(text: str, refs, head: str = "") -> float:
    """How well a slot's letters `text` agree with a page's references (1: one of them exactly).

    `head`, the letters of the whole `<title>`, may hold the text and as much again.
    """
    match = max((Indel.normalized_similarity(a, text) for a in refs), default=0.0)
    if head:
        match = max(match, LCSseq.similarity(text, head) / max(len(text), len(head) / 2))
    return match


def headline_wins(part: str, headline: str, refs) -> bool:
    """Whether the page's headline (`<h1>`) names it rather than a heading that repeats part of it.

    "1351 Name" over a body heading "Name", "Name (Gloss)" over "Name": the
    headline's letters hold the other's, and it agrees better with the texts
    that name the page (`refs`: their letters, og:title, the `<title>` less its
    names), which the whole `<title>` cannot tell apart (`agreement` lets it hold
    a text and as much again).
    """
    part, whole = sig(part), sig(headline)
    if not part or part == whole or part not in whole:
        return False
    score = agreement(whole, refs)
    return score >= HEADLINE_AGREES and score > agreement(part, refs)


def title_slot(pages: list[SitePage], groups, candidates, body_key: str,
               params: AnalyzeParams, in_box, *, few: bool = False) -> str | None:
    """The slot most pages vote for as their title; None when most find none.

    A page votes for the slot whose text agrees best with the texts that name
    it (`agreement`), more for a heading and a varying slot, less for one in a
    box of noise; never for a link to another page.  Where the slot voted for
    repeats part of the page's headline (`headline_wins`), the headline's slot
    gets the vote.
    """
    votes: Counter[str | None] = Counter()
    repeated = _repeated_texts(groups, [st[0] for st in candidates])
    h1_keys = [st[0] for st in candidates if slot_tag(st[0]) == "h1"]
    for p, g in zip(pages, groups):
        best, best_score = None, params.title_threshold
        refs, head = p.refs, sig(p.blocks.title)
        for key, diff, *_ in candidates:
            static = diff < TITLE_MIN_DIFF
            if key not in g or (static and (not few or in_box(key) or slot_tag(key) not in HEADING_LEVEL)):
                continue
            text = sig(g[key][0].text)
            if not text or text in p.away:
                continue
            # Varying slots are likelier titles; dates in titles keep DiffScore
            # low, so it only halves the score at worst.  A slot that barely varies
            # among a few pages, outside boxes of noise (a menu's entry for the page),
            # does so by chance (a page and its translation, both titled by a
            # command's name): if a heading, it may still be the title, by the texts
            # that name the page alone (not the whole `<title>`, which names the site
            # too); a masthead's site name, which a few pages' `<title>`s all hold, is none.
            match = agreement(text, refs, "" if static else head) * (1.0 if static else 0.5 + 0.5 * diff)
            match = match * (BOXED_TITLE if in_box(key) else 1.0) + HEADING_BONUS.get(slot_tag(key), 0.0)
            if match > best_score:
                best, best_score = key, match
        if best is not None and best not in h1_keys:
            part = g[best][0].text
            best = next((key for key in h1_keys if key in g and headline_wins(part, g[key][0].text, refs)), best)
        if best is None:
            mine = [st for st in candidates
                    if st[0] in g and st[0] != body_key and sig(g[st[0]][0].text) not in p.away]
            best = _titlability_vote(g, mine, body_key) or _headline_vote(g, mine, repeated)
        votes[best] += 1
    if not votes:
        return None
    key, _ = max(votes.items(), key=lambda kv: (kv[1], kv[0] is not None))
    return key


def _titlability_vote(g, candidates, body_key: str) -> str | None:
    """Webstemmer's fallback: the slot whose text runs longest inside the main text."""
    body = sig("".join(b.text for b in g.get(body_key, ())))[:DIFF_MAX_LETTERS]
    if not body:
        return None
    best, best_score = None, 1.0
    for key, diff, *_ in candidates:
        if key not in g:
            continue
        text = sig(g[key][0].text)
        if not text:
            continue
        runs = (op.src_end - op.src_start for op in LCSseq.opcodes(text, body) if op.tag == "equal")
        score = sum(n * n for n in runs if n >= MIN_TITLE_RUN) / len(text) * diff
        if score > best_score:
            best, best_score = key, score
    return best


def _headline_vote(g, candidates, repeated: dict[str, set[str]]) -> str | None:
    """The last resort: the page's highest varying heading above the body (its h1, else h2, ...).

    Where the `<title>` is written for search engines (or is the same on every
    page) and the body never repeats the headline, the markup still says which
    text heads the page: a heading, else an element whose class or id says
    title or headline (`_HEADLINE_WORDS`) and whose text no other page of the
    layout has (`repeated`: such texts by slot; a menu's title repeats).
    """
    best, best_level = None, _NAMED_LEVEL
    for key, diff, *_ in candidates:
        level = HEADING_LEVEL.get(slot_tag(key)) or (
            _NAMED_LEVEL if _names_headline(key) and key in g and sig(g[key][0].text) not in repeated[key] else None)
        if level and key in g and diff >= TITLE_MIN_DIFF and level <= best_level:
            best, best_level = key, level  # of equal headings, the one nearest the body
    return best


def _repeated_texts(groups, keys: list[str]) -> dict[str, set[str]]:
    """For each slot, the letters of the texts it has on more than one of the layout's pages."""
    out = {}
    for key in keys:
        counts = Counter(sig(g[key][0].text) for g in groups if key in g)
        out[key] = {text for text, c in counts.items() if c > 1}
    return out


def _names_headline(key: str) -> bool:
    """Whether the class or id of a slot's element says it holds a title or headline (``post-title``)."""
    element = key.rsplit("/", 1)[-1]
    attrs = element[len(slot_tag(key)):]
    return not _HEADLINE_WORDS.isdisjoint(_WORDS.findall(attrs.lower()))
