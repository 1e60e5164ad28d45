"""Slot roles: each aligned slot of a layout scored and labelled title, main, sub or static.

DiffScore (how much a slot's text varies from page to page) separates static
from varying slots; MainScore (DiffScore times the slot's letters outside
links) finds the slots that hold the main text and the element around them;
`label_slots`, one rule for analyze and update, gives each slot its role.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from rapidfuzz.distance import Indel

from stemmer.blocks import PageBlocks
from stemmer.cluster import KeyMaker
from stemmer.cluster.keys import boxed, common_container
from stemmer.cluster.similarity import repeats
from stemmer.layout.model import AnalyzeParams
from stemmer.layout.noise import MIN_PAGES as NOISE_MIN_PAGES, MIN_SHARE as NOISE_MIN_SHARE

# DiffScore compares at most this many pages' texts, each cut to this many letters.
# With 12 pages, slots near the static threshold (dates, code line numbers) flipped
# role with the sample: a half of a crawl and all of it disagreed (benchmarks/update.py).
DIFF_SAMPLE_PAGES = 30
DIFF_MAX_LETTERS = 3000

# Elements that structure text inside a body (lists, tables, quotes) rather than
# hold it: a main-text container is never one of them.
INNER_TAGS = frozenset("p ul ol dl li dt dd table thead tbody tfoot tr td th blockquote pre "
                       "figure figcaption details summary caption h1 h2 h3 h4 h5 h6".split())

# Elements that head a part of a text.
_HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6 summary dt".split())
HEADING_LEVEL = {f"h{n}": n for n in range(1, 7)}

# A slot of DiffScore below this has the same text on every page.
SAME_TEXT = 0.05

# In a layout of fewer pages than this, a DiffScore below the threshold may be chance.
FEW_PAGES = 10

# Slots with at least this share of the top MainScore can hold the main text.
BIG_SHARE = 0.25

# A slot whose text is mostly link text (a table of contents, a "related" list
# inside the article) is navigation, not main text.
MAX_MAIN_LINKED = 0.5

# A slot is in a box of noise when one of its last elements names itself so;
# higher up, page-wide wrappers (an ASP.NET <form>) would catch everything.
BOX_DEPTH = 4


class CommonTexts:
    """The texts a site's template repeats, counted page by page (update streams its pages).

    A text is common on `MIN_SHARE` of the site's pages and `MIN_PAGES` of them.
    """

    def __init__(self) -> None:
        self.pages = 0
        self._counts: Counter[int] = Counter()

    def add(self, blocks: PageBlocks) -> None:
        self.pages += 1
        self._counts.update({hash(b.text) for b in blocks.blocks})

    def hashes(self) -> frozenset[int]:
        least = max(NOISE_MIN_PAGES, NOISE_MIN_SHARE * self.pages)
        return frozenset(h for h, c in self._counts.items() if c >= least)


def diffscore(texts: list[str]) -> float:
    """DiffScore: the share of letters that differ between pairs of the slot's texts."""
    num = den = 0
    for a, b in combinations([t for t in texts if t], 2):
        num += Indel.distance(a, b)
        den += len(a) + len(b)
    return num / den if den else 0.0


def slot_stats(groups, key: str, diff: float) -> tuple:
    """A slot's (key, DiffScore, MainScore, repeats, share of pages, share of link text) over `groups`.

    `groups`: each page's blocks by slot key.
    """
    n = len(groups)
    own = sum(b.weight - b.anchor_weight for g in groups for b in g.get(key, ()))
    weights = [sum(b.weight for b in g[key]) for g in groups if key in g]
    share = len(weights) / n
    rep = repeats(sum(weights) / len(weights)) if share >= 0.5 else 1
    linked = 1 - own / max(1, sum(weights))
    return (key, diff, diff * own / n, rep, share, linked)


def main_slots(stats: list[tuple], groups, params: AnalyzeParams,
               in_box=None) -> tuple[list[tuple], list[int], bool]:
    """The slots heavy enough to hold main text, and whether the layout is a list of links.

    A slot is big with a MainScore of `main_threshold` and `BIG_SHARE` of the
    top one, outside boxes of noise. When no slot is, the page's content is a
    list of links (a wiki's index, a table of contents): its links are its main
    text, and `stats` come back with MainScores that count link text.
    `in_box`: whether a slot lies in a box of noise (`slot_in_box`, cached by the caller).
    """
    in_box = in_box or (lambda key: slot_in_box(groups, key))
    text_slots = [i for i, st in enumerate(stats) if st[1] >= params.diff_threshold and not in_box(st[0])]
    top = max((stats[i][2] for i in text_slots), default=0.0)
    big = [i for i in text_slots if stats[i][2] >= max(params.main_threshold, BIG_SHARE * top)]
    if big:
        return stats, big, False
    n = len(groups)
    stats = [(key, diff, diff * weight, rep, share, linked)
             for key, diff, _, rep, share, linked, weight in ((*st, _weight(groups, st[0], n)) for st in stats)]
    top = max((stats[i][2] for i in text_slots), default=0.0)
    big = [i for i in text_slots if stats[i][2] >= max(params.main_threshold, BIG_SHARE * top)]
    return stats, big, bool(big)


def label_slots(stats: list[tuple], groups, page_keys: list[list[str]], title_key: str | None,
                container: tuple[str, ...], link_list: bool, keymaker: KeyMaker, params: AnalyzeParams,
                common: frozenset[int] = frozenset(), keep: dict[str, str] | None = None,
                size: int = 0) -> list[str]:
    """Each slot's role (title, static, main or sub): the one rule of analyze and update.

    Args:
        stats: the slots in page order, as `slot_stats` gives them.
        groups: each page's blocks by slot key; `page_keys`: each page's block keys.
        title_key: the title slot; `container`: the main text's element.
        link_list: the main text is link text (`main_slots`).
        common: the hashes of the texts the site's template repeats (`CommonTexts`).
        keep: roles that stay whatever the rule says (update's pinned slots).
        size: the layout's pages when `groups` holds a sample of them.
    """
    keep = keep or {}
    title_pos = next((i for i, st in enumerate(stats) if st[0] == title_key), -1)
    head = _title_box(groups, title_key, container, stats[title_pos + 1:], keymaker) if container else ()
    roles = []
    for i, (key, diff, main, rep, share, linked) in enumerate(stats):
        if key in keep:
            role = keep[key]
        elif key == title_key:
            role = "title"
        elif diff < params.diff_threshold:
            role = "static"
        elif (container and i > title_pos and (link_list or linked <= MAX_MAIN_LINKED)
              and _inside(groups, key, container, keymaker) and not (head and _inside(groups, key, head, keymaker))):
            role = "main"
        else:
            role = "sub"
        roles.append(role)
    # A heading inside the container amid main text is the body's own even when
    # its text repeats from page to page ("Introduction", "Links", a date);
    # "Related stories" over a list of links at the end of the body is not.  So
    # is any text there that the rest of the site does not repeat: in a layout
    # of a few pages (a page and its translation) the code they share is the same by
    # chance, and so, more or less, is unlinked text they write on one grid (a
    # review's scores, install steps); a near-static box with links (related
    # stories, photo credits) is the template's.
    main_keys = {st[0] for st, role in zip(stats, roles) if role == "main"}
    few = max(len(groups), size) < FEW_PAGES
    own = {st[0] for st, role in zip(stats, roles) if role == "static"
           and (st[1] < SAME_TEXT or (few and st[5] == 0))
           and not _is_heading(st[0]) and not _recurs(groups, st[0], common)}
    for i, (key, diff, main, rep, share, linked) in enumerate(stats):
        if (roles[i] == "static" and key not in keep and container and i > title_pos
                and (_is_heading(key) or key in own)
                and linked <= MAX_MAIN_LINKED and _inside(groups, key, container, keymaker)
                and _heads_body(page_keys, key, main_keys, title_key, own)):
            roles[i] = "main"
    if "main" not in roles:
        # Still nothing (no container found): keep every varying slot outside boxes of
        # noise, or the layout would match such pages only to extract nothing.
        roles = [role if role != "sub" or st[0] in keep or slot_in_box(groups, st[0]) else "main"
                 for st, role in zip(stats, roles)]
    return roles


def _title_box(groups, title_key: str | None, container: tuple[str, ...], later: list[tuple],
               keymaker: KeyMaker) -> tuple[str, ...]:
    """The element of the container that holds the title apart from the body (an article's ``<header>``), or ().

    What shares it with the title (a subtitle, the date, the tags) is the
    headline's furniture, not main text.  `later`: the slots after the title;
    an element that holds most of their text holds the body too, and is no box.
    """
    if title_key is None or not _inside(groups, title_key, container, keymaker):
        return ()
    chain = slot_container(groups, title_key, keymaker)
    if len(chain) <= len(container):
        return ()
    box = chain[:len(container) + 1]
    body = sum(st[2] for st in later)
    held = sum(st[2] for st in later if _inside(groups, st[0], box, keymaker))
    return () if held * 2 > body else box


def _is_heading(key: str) -> bool:
    """Whether a slot's element heads a part of a text (`_HEADING_TAGS`)."""
    return slot_tag(key) in _HEADING_TAGS


def _heads_body(page_keys: list[list[str]], key: str, main_keys: set[str], title_key: str | None,
               skip: set[str] = frozenset()) -> bool:
    """Whether the blocks of slot `key` mostly stand between main text (headings and `skip` skipped).

    A heading between the title or paragraphs of the body and more of them is
    the body's; one after the template ("Latest news" over an index) or over
    what follows the body ("Related stories" over links) heads something else.
    """
    def counts(k2: str) -> bool:  # the title heads the body: a heading, but never skipped
        return k2 == title_key or not (_is_heading(k2) or k2 in skip)

    inside = total = 0
    for keys in page_keys:
        for j, k in enumerate(keys):
            if k != key:
                continue
            after = next((k2 for k2 in keys[j + 1:] if counts(k2)), None)
            before = next((k2 for k2 in reversed(keys[:j]) if counts(k2)), None)
            total += 1
            inside += after in main_keys and (before in main_keys or before == title_key)
    return inside * 2 > total


def _recurs(groups, key: str, common: frozenset[int]) -> bool:
    """Whether most blocks of slot `key` hold a text the site's template repeats."""
    inside = total = 0
    for g in groups:
        for b in g.get(key, ()):
            total += 1
            inside += hash(b.text) in common
    return inside * 2 > total


def _weight(groups, key: str, n: int) -> float:
    """The letters of slot `key` per page, link text included."""
    return sum(b.weight for g in groups for b in g.get(key, ())) / n


def slot_container(groups, key: str, keymaker: KeyMaker) -> tuple[str, ...]:
    """The deepest element holding every block of slot `key` on every page, above paragraph level."""
    chain = common_container(keymaker.full_path(b.path)[:-1] for g in groups for b in g.get(key, ()))
    while chain and element_tag(chain[-1]) in INNER_TAGS:
        chain = chain[:-1]
    return chain


def with_continuation(container: tuple[str, ...], groups, later: list[str],
                       keymaker: KeyMaker) -> tuple[str, ...]:
    """Widen the container to its parent when the body goes on in a sibling element or in the parent itself.

    A post split into ``entry-body`` and ``entry-more`` has its parts in
    siblings; a course page that opens with an info box goes on loose in the
    article around it; comments and "related" lists nest deeper or further away.
    """
    for key in later:
        if _inside(groups, key, container, keymaker):
            continue
        other = slot_container(groups, key, keymaker)
        if other == container[:-1] or (len(other) == len(container) and other[:-1] == container[:-1]):
            return container[:-1]
    return container


def slot_in_box(groups, key: str) -> bool:
    """Whether most blocks of slot `key` lie in an element that names itself as noise (`boxed`)."""
    inside = total = 0
    for g in groups:
        for b in g.get(key, ()):
            total += 1
            inside += any(boxed(e) for e in b.path[-BOX_DEPTH:])
    return inside * 2 > total


def slot_tag(key: str) -> str:
    """The tag of the element that holds a slot's blocks (the last one of its key)."""
    return element_tag(key.rsplit("/", 1)[-1])


def element_tag(encoding: str) -> str:
    return encoding.split(".", 1)[0].split("#", 1)[0]


def _inside(groups, key: str, container: tuple[str, ...], keymaker: KeyMaker) -> bool:
    """Whether most blocks of slot `key` lie inside `container`."""
    inside = total = 0
    for g in groups:
        for b in g.get(key, ()):
            total += 1
            inside += keymaker.within(b.path, container)
    return inside * 2 > total
