"""Learn a site's layouts: cluster its pages, align each cluster, score and label the slots.

Follows Webstemmer (DIGEST section 002): DiffScore separates static from
varying slots, MainScore finds the main text, link texts pointing to a page
(or its `<title>`) find the title slot, and the pattern score ranks layouts.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from rapidfuzz.distance import Indel, LCSseq

from stemmer.blocks import Block, PageBlocks, sig
from stemmer.cluster import KeyMaker, cluster_pages, layout_sequence, similarity_matrix
from stemmer.cluster.keys import boxed, common_container
from stemmer.cluster.large import EXACT_MAX_PAGES, cluster_large
from stemmer.cluster.similarity import repeats
from stemmer.layout.model import Layout, Section, SitePatterns
from stemmer.layout.noise import MIN_PAGES as NOISE_MIN_PAGES, MIN_SHARE as NOISE_MIN_SHARE, learn_noise
from stemmer.urls import LinkResolver, last_name


@dataclass(frozen=True)
class AnalyzeParams:
    """The knobs of analyze; the defaults were chosen on the dev sites.

    Attributes:
        cluster_threshold: pages join a cluster above this similarity (``-t``).
        title_threshold: least link-text match of a title slot (``-T``).
        main_threshold: least MainScore of the slot that anchors the main text (``-M``).
        score_threshold: least pattern score of a kept layout (``-S``).
        diff_threshold: slots below this DiffScore are static.
        min_pages: least pages of a kept layout.
        key_depth: trailing path elements in a layout key.
        match_threshold: least similarity of a page to its layout in extract.
    """

    cluster_threshold: float = 0.7
    title_threshold: float = 0.6
    main_threshold: float = 20.0
    score_threshold: float = 0.0
    diff_threshold: float = 0.5
    min_pages: int = 2
    key_depth: int = 4
    match_threshold: float = 0.5

    def as_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(slots=True)
class SitePage:
    """A page being analyzed: its blocks and the texts that may name its title.

    Attributes:
        anchors: texts of the crawl's links to the page.
        titles: the titles the page gives itself (`own_titles`).
        away: the letters (`sig`) of its link texts that point to other pages:
            a teaser's headline on an index page, never its title.
    """

    id: str
    blocks: PageBlocks
    anchors: list[str] = field(default_factory=list)
    titles: tuple[str, ...] = ()
    away: frozenset[str] = frozenset()
    refs: tuple[str, ...] = ()  # set by learn_site: the letters of every text above that names the page


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


# A layout whose pages have fewer letters of main text than this on average is suspect.
THIN_LAYOUT_LETTERS = 50
# A container that holds the bulk of the varying text of this share of a cluster's
# pages, and of this many, makes a page type of its own (`_page_types`).
TYPE_SHARE = 0.25
MIN_TYPE_PAGES = 3
# A slot is kept in a layout when at least this share of its pages have it.
MIN_SECTION_SHARE = 0.2
# DiffScore compares at most this many pages' texts, each cut to this many letters.
# With 12 pages, slots near the static threshold (dates, code line numbers) flipped
# role with the sample: a half of a crawl and all of it disagreed (benchmarks/update.py).
DIFF_SAMPLE_PAGES = 30
DIFF_MAX_LETTERS = 3000
# On a site of more than EXACT_MAX_PAGES pages, a cluster of more pages than this
# is aligned on an evenly spread sample of them: slot shares, DiffScores and
# MainScores are means, and 1,000 pages give them to about 1-2% (1.7 ms a page).
FIXATE_SAMPLE = 1000
# Elements that structure text inside a body (lists, tables, quotes) rather than
# hold it: a main-text container is never one of them.
_INNER_TAGS = frozenset("p ul ol dl li dt dd table thead tbody tfoot tr td th blockquote pre "
                        "figure figcaption details summary caption h1 h2 h3 h4 h5 h6".split())
# Elements that head a part of a text.
_HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6 summary dt".split())
_HEADING_LEVEL = {f"h{n}": n for n in range(1, 7)}
# A slot of DiffScore below this has the same text on every page.
SAME_TEXT = 0.05
# In a layout of fewer pages than this, a DiffScore below the threshold may be chance.
FEW_PAGES = 10
# A title slot varies at least this much (dates in titles keep DiffScore low).
TITLE_MIN_DIFF = 0.2
# Slots with at least this share of the top MainScore can hold the main text.
BIG_SHARE = 0.25
# A slot whose text is mostly link text (a table of contents, a "related" list
# inside the article) is navigation, not main text.
MAX_MAIN_LINKED = 0.5
# Letters in a row that a title shares with the body before they count (shorter
# runs are what any two texts of one language share).
MIN_TITLE_RUN = 4
# JSON-LD scripts longer than this are not read for a headline.
MAX_JSON_LD = 100_000
# Parts of `<title>` (split at these) on this share of a site's pages, and on
# MIN_NAME_PAGES of them, name the site, not the page.
_TITLE_PARTS = re.compile(r"\s+[|\-–—:·»/]+\s+|\s*[|·»]\s*")
SITE_NAME_SHARE = 0.2
MIN_NAME_PAGES = 3
# A title candidate's agreement with its page's titles gains this much by its heading level:
# of two slots that agree alike (a menu's entry and the headline), the headline.
HEADING_BONUS = {"h1": 0.1, "h2": 0.06, "h3": 0.03}
# ... and a slot in a box of noise (a menu, a sidebar) keeps this share of its agreement.
BOXED_TITLE = 0.8
# A slot is in a box of noise when one of its last elements names itself so;
# higher up, page-wide wrappers (an ASP.NET <form>) would catch everything.
BOX_DEPTH = 4


def site_sequences(pages: Sequence[PageBlocks], keymaker: KeyMaker) -> tuple[list[list[str]], list[list[int]]]:
    """Each page's slot keys and its layout sequence, as clustering compares them.

    A slot repeats in the sequence by its mean letters over the site's pages,
    so long bodies weigh more without their paragraph count mattering.
    """
    page_keys = [list(keymaker.keys(p)) for p in pages]
    letters: dict[str, list[int]] = defaultdict(list)
    for p, keys in zip(pages, page_keys):
        per_key: Counter[str] = Counter()
        for key, b in zip(keys, p.blocks):
            per_key[key] += b.weight
        for key, w in per_key.items():
            letters[key].append(w)
    key_ids = {k: i for i, k in enumerate(sorted(letters))}
    key_repeats = {k: repeats(sum(v) / len(v)) for k, v in letters.items()}
    return page_keys, [layout_sequence(keys, key_ids, key_repeats) for keys in page_keys]


def learn_site(site: str, pages: list[SitePage], params: AnalyzeParams = AnalyzeParams(), *,
               keymaker: KeyMaker | None = None) -> SitePatterns:
    """Learn the layouts of one site from its pages.

    Args:
        site: the site's host.
        pages: the site's analyzed pages.
        params: thresholds.
        keymaker: make keys with these tokens instead of learning them from
            `pages` (`stemmer update` learns new layouts in the site's key space).

    Returns:
        The site's patterns and common-noise library; no layouts when no
        cluster has `min_pages` pages.
    """
    # Sorted, so that the layouts do not depend on the order the crawl came in; an
    # empty page has no layout to share.
    pages = sorted((p for p in pages if p.blocks.blocks), key=lambda p: p.id)
    if keymaker is None:
        keymaker = KeyMaker.learn((p.blocks for p in pages), params.key_depth)
    page_keys, seqs = site_sequences([p.blocks for p in pages], keymaker)
    names = site_name_parts(p.blocks.title for p in pages)
    counter = CommonTexts()
    for p in pages:
        counter.add(p.blocks)
    common = counter.hashes()
    for p in pages:
        p.refs = _references(p, names)
    if len(seqs) <= EXACT_MAX_PAGES:
        clusters, sample = cluster_pages(similarity_matrix(seqs), params.cluster_threshold), None
    else:  # a big site: no n × n matrix, and its big clusters aligned on samples
        clusters, sample = cluster_large(seqs, params.cluster_threshold), FIXATE_SAMPLE
    layouts = []
    for members in (part for cluster in clusters for part in _page_types(pages, page_keys, cluster, keymaker)):
        if len(members) < params.min_pages:
            continue
        layout = _fixate_sampled(pages, page_keys, members, keymaker, params, sample, common)
        if layout.score >= params.score_threshold:
            layouts.append(layout)
    layouts.sort(key=lambda lay: (-lay.score, lay.members))
    layouts = [Layout(f"L{i}", lay.pages, lay.score, lay.sections, lay.container, lay.members)
               for i, lay in enumerate(layouts)]
    return SitePatterns(site, tuple(layouts), keymaker.token_share, params.as_dict(),
                        noise=learn_noise(site, (p.blocks for p in pages)))


def main_letters(layout: Layout) -> float:
    """The letters of main text a page of the layout has on average (a slot's MainScore / DiffScore)."""
    return sum(s.main / max(s.diff, 0.01) for s in layout.sections if s.role == "main")


def thin_layouts(patterns: SitePatterns) -> tuple[str, ...]:
    """The ids of the layouts whose pages give little or no main text: suspect, worth a look in the report."""
    return tuple(lay.id for lay in patterns.layouts if main_letters(lay) < THIN_LAYOUT_LETTERS)


def _page_types(pages: list[SitePage], page_keys: list[list[str]], members: list[int],
                keymaker: KeyMaker) -> list[list[int]]:
    """A cluster split by where its pages hold the bulk of their varying text.

    An index and an article can share a template but for their middle, so that
    they cluster together; the teasers of the one and the body of the other
    then lie in different elements.  Each page's *bulk* is the container of its
    heaviest varying text outside links (a text that most pages have alike is
    not varying); every container that holds the bulk of `TYPE_SHARE` of the
    pages, and of `MIN_TYPE_PAGES`, and holds no other's nor lies in one, is a
    page type; the other pages join the biggest.
    """
    if len(members) < 2 * MIN_TYPE_PAGES:
        return [members]
    texts: dict[str, Counter[str]] = defaultdict(Counter)
    for i in members:
        page: dict[str, list[str]] = defaultdict(list)
        for key, b in zip(page_keys[i], pages[i].blocks.blocks):
            page[key].append(b.text)
        for key, parts in page.items():
            texts[key]["\n".join(parts)] += 1
    static = {key for key, c in texts.items() if c.most_common(1)[0][1] * 2 > sum(c.values())}
    bulk: dict[int, tuple[str, ...]] = {}
    for i in members:
        weight: Counter[str] = Counter()
        where: dict[str, tuple[str, ...]] = {}
        for key, b in zip(page_keys[i], pages[i].blocks.blocks):
            if key not in static:
                weight[key] += b.weight - b.anchor_weight
                where.setdefault(key, b.path)
        if weight:
            key, w = weight.most_common(1)[0]
            if w > 0:
                bulk[i] = _text_container(keymaker.full_path(where[key]))
    counts = Counter(bulk.values())
    least = max(MIN_TYPE_PAGES, TYPE_SHARE * len(members))
    types = [c for c, k in counts.most_common() if k >= least]
    types = [c for c in types if not any(o != c and (o[:len(c)] == c or c[:len(o)] == o) for o in types)]
    if len(types) < 2:
        return [members]
    parts: dict[tuple[str, ...], list[int]] = {c: [] for c in types}
    for i in members:
        parts[bulk[i] if bulk.get(i) in parts else types[0]].append(i)
    return list(parts.values())


def _text_container(path: tuple[str, ...]) -> tuple[str, ...]:
    """The elements above a block's own, up to the first that does not structure text (`_INNER_TAGS`)."""
    path = path[:-1]
    while path and _tag(path[-1]) in _INNER_TAGS:
        path = path[:-1]
    return path


def _fixate_sampled(pages: list[SitePage], page_keys: list[list[str]], members: list[int],
                    keymaker: KeyMaker, params: AnalyzeParams, sample: int | None,
                    common: frozenset[int] = frozenset()) -> Layout:
    """`_fixate` a cluster, or an evenly spread `sample` of its pages when it has more."""
    if sample is None or len(members) <= sample:
        return _fixate([pages[i] for i in members], [page_keys[i] for i in members], keymaker, params, common)
    chosen = [members[k * len(members) // sample] for k in range(sample)]
    layout = _fixate([pages[i] for i in chosen], [page_keys[i] for i in chosen], keymaker, params, common,
                     size=len(members))
    main = sum(s.main for s in layout.sections if s.role == "main")
    return replace(layout, pages=len(members), score=round(math.log(len(members)) * main, 2),
                   members=tuple(sorted(pages[i].id for i in members)[:5]))


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


def _fixate(pages: list[SitePage], page_keys: list[list[str]], keymaker: KeyMaker,
            params: AnalyzeParams, common: frozenset[int] = frozenset(), size: int = 0) -> Layout:
    """Align one cluster's pages into a layout with scored, labelled sections.

    `common`: the hashes of the texts the site's template repeats (`CommonTexts`);
    `size`: the cluster's pages when `pages` is a sample of them.
    """
    n = len(pages)
    groups: list[dict[str, list[Block]]] = []
    position: dict[str, list[float]] = defaultdict(list)
    for p, keys in zip(pages, page_keys):
        g: dict[str, list[Block]] = {}
        for key, b in zip(keys, p.blocks.blocks):
            g.setdefault(key, []).append(b)
        for i, key in enumerate(g):
            position[key].append(i / max(1, len(g)))
        groups.append(g)
    floor = max(2, math.ceil(MIN_SECTION_SHARE * n))
    keys = [k for k, pos in position.items() if len(pos) >= floor]
    keys.sort(key=lambda k: (sum(position[k]) / len(position[k]), k))

    stats = []
    for key in keys:
        texts = [sig("".join(b.text for b in g[key]))[:DIFF_MAX_LETTERS] for g in groups if key in g]
        n_diff = min(len(texts), DIFF_SAMPLE_PAGES)  # pages from all over the cluster
        diff = diffscore([texts[k * len(texts) // n_diff] for k in range(n_diff)])
        stats.append(slot_stats(groups, key, diff))

    # The main text is the container of the first text-heavy slot after the title:
    # the article body comes before the comments and the "related" lists.
    # Slots inside boxes of noise (comments, sidebars) are neither.
    boxes: dict[str, bool] = {}

    def in_box(key: str) -> bool:
        if key not in boxes:
            boxes[key] = _in_box(groups, key)
        return boxes[key]

    stats, big, link_list = main_slots(stats, groups, params, in_box)
    title_key = None
    if big:
        # On short pages the headline can weigh as much as the body: the first
        # big slot may be the title when another one follows it.
        candidates = stats[:big[0] + (len(big) > 1)]
        title_key = _title_key(pages, groups, candidates, stats[big[0]][0], params, in_box,
                               few=max(n, size) < FEW_PAGES)
    title_pos = next((i for i, st in enumerate(stats) if st[0] == title_key), -1)
    anchor = next((i for i in big if i > title_pos), None)
    container = _container(groups, stats[anchor][0], keymaker) if anchor is not None else ()
    if container:
        later = [stats[i][0] for i in big if i > anchor]
        container = _with_continuation(container, groups, later, keymaker)

    roles = label_slots(stats, groups, page_keys, title_key, container, link_list, keymaker, params, common,
                        size=size)
    sections = []
    for (key, diff, main, rep, share, linked), role in zip(stats, roles):
        sample = next((b.text for g in groups for b in g.get(key, ())), "")[:80]
        sections.append(Section(key, role, round(diff, 4), round(main, 2), rep,
                                round(share, 3), sample))
    score = math.log(n) * sum(s.main for s in sections if s.role == "main")
    members = tuple(sorted(p.id for p in pages)[:5])
    return Layout("", n, round(score, 2), tuple(sections), container, members)


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
    `in_box`: whether a slot lies in a box of noise (`_in_box`, cached by the caller).
    """
    in_box = in_box or (lambda key: _in_box(groups, key))
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
        roles = [role if role != "sub" or st[0] in keep or _in_box(groups, st[0]) else "main"
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
    chain = _container(groups, title_key, keymaker)
    if len(chain) <= len(container):
        return ()
    box = chain[:len(container) + 1]
    body = sum(st[2] for st in later)
    held = sum(st[2] for st in later if _inside(groups, st[0], box, keymaker))
    return () if held * 2 > body else box


def _is_heading(key: str) -> bool:
    """Whether a slot's element heads a part of a text (`_HEADING_TAGS`)."""
    return _slot_tag(key) in _HEADING_TAGS


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


def diffscore(texts: list[str]) -> float:
    """DiffScore: the share of letters that differ between pairs of the slot's texts."""
    num = den = 0
    for a, b in combinations([t for t in texts if t], 2):
        num += Indel.distance(a, b)
        den += len(a) + len(b)
    return num / den if den else 0.0


def site_name_parts(titles) -> frozenset[str]:
    """The parts of a site's `<title>`s (split at separators) that name the site: they recur on many pages."""
    counts: Counter[str] = Counter()
    n = 0
    for title in titles:
        n += 1
        counts.update({sig(part) for part in _TITLE_PARTS.split(title)} - {""})
    least = max(MIN_NAME_PAGES, SITE_NAME_SHARE * n)
    return frozenset(part for part, c in counts.items() if c >= least)


def page_title(title: str, names: frozenset[str]) -> str:
    """`<title>` without the parts that name the site ("Storm hits coast | Daily News" -> "Storm hits coast")."""
    parts = [part for part in _TITLE_PARTS.split(title) if sig(part) and sig(part) not in names]
    return " ".join(parts) if parts else ""


def _references(page: SitePage, names: frozenset[str]) -> tuple[str, ...]:
    """The letters of the texts that name a page: link texts to it, its `<title>` less the site's name, its own titles."""
    texts = [*page.anchors, page_title(page.blocks.title, names), *page.titles]
    return tuple(dict.fromkeys(s for s in map(sig, texts) if s))


def agreement(text: str, refs, head: str = "") -> float:
    """How well a slot's letters `text` agree with a page's references (1: one of them exactly).

    `head`, the letters of the whole `<title>`, may hold the text and as much again.
    """
    match = max((Indel.normalized_similarity(a, text) for a in refs), default=0.0)
    if head:
        match = max(match, LCSseq.similarity(text, head) / max(len(text), len(head) / 2))
    return match


def _title_key(pages: list[SitePage], groups, candidates, body_key: str,
               params: AnalyzeParams, in_box, *, few: bool = False) -> str | None:
    """The slot most pages vote for as their title; None when most find none.

    A page votes for the slot whose text agrees best with the texts that name
    it (`agreement`), more for a heading and a varying slot, less for one in a
    box of noise; never for a link to another page.
    """
    votes: Counter[str | None] = Counter()
    for p, g in zip(pages, groups):
        best, best_score = None, params.title_threshold
        head = sig(p.blocks.title)
        for key, diff, *_ in candidates:
            static = diff < TITLE_MIN_DIFF
            if key not in g or (static and (not few or in_box(key))):
                continue
            text = sig(g[key][0].text)
            if not text or text in p.away:
                continue
            # Varying slots are likelier titles; dates in titles keep DiffScore
            # low, so it only halves the score at worst.  A slot that barely varies
            # among a few pages, outside boxes of noise (a menu's entry for the page),
            # does so by chance (a page and its translation, both titled by a
            # command's name): it may still be the title, by the texts that name
            # the page alone (not the whole `<title>`, which names the site too).
            match = agreement(text, p.refs, "" if static else head) * (1.0 if static else 0.5 + 0.5 * diff)
            match = match * (BOXED_TITLE if in_box(key) else 1.0) + HEADING_BONUS.get(_slot_tag(key), 0.0)
            if match > best_score:
                best, best_score = key, match
        if best is None:
            mine = [st for st in candidates
                    if st[0] in g and st[0] != body_key and sig(g[st[0]][0].text) not in p.away]
            best = _titlability_vote(g, mine, body_key) or _headline_vote(g, mine)
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


def _headline_vote(g, candidates) -> str | None:
    """The last resort: the page's highest varying heading above the body (its h1, else h2, ...).

    Where the `<title>` is written for search engines and the body never
    repeats the headline, the markup still says which text heads the page.
    """
    best, best_level = None, 7
    for key, diff, *_ in candidates:
        level = _HEADING_LEVEL.get(_slot_tag(key))
        if level and key in g and diff >= TITLE_MIN_DIFF and level <= best_level:
            best, best_level = key, level  # of equal headings, the one nearest the body
    return best


def _container(groups, key: str, keymaker: KeyMaker) -> tuple[str, ...]:
    """The deepest element holding every block of slot `key` on every page, above paragraph level."""
    chain = common_container(keymaker.full_path(b.path)[:-1] for g in groups for b in g.get(key, ()))
    while chain and _tag(chain[-1]) in _INNER_TAGS:
        chain = chain[:-1]
    return chain


def _with_continuation(container: tuple[str, ...], groups, later: list[str],
                       keymaker: KeyMaker) -> tuple[str, ...]:
    """Widen the container to its parent when the body goes on in a sibling element or in the parent itself.

    A post split into ``entry-body`` and ``entry-more`` has its parts in
    siblings; a course page that opens with an info box goes on loose in the
    article around it; comments and "related" lists nest deeper or further away.
    """
    for key in later:
        if _inside(groups, key, container, keymaker):
            continue
        other = _container(groups, key, keymaker)
        if other == container[:-1] or (len(other) == len(container) and other[:-1] == container[:-1]):
            return container[:-1]
    return container


def _in_box(groups, key: str) -> bool:
    """Whether most blocks of slot `key` lie in an element that names itself as noise (`boxed`)."""
    inside = total = 0
    for g in groups:
        for b in g.get(key, ()):
            total += 1
            inside += any(boxed(e) for e in b.path[-BOX_DEPTH:])
    return inside * 2 > total


def _slot_tag(key: str) -> str:
    """The tag of the element that holds a slot's blocks (the last one of its key)."""
    return _tag(key.rsplit("/", 1)[-1])


def _tag(encoding: str) -> str:
    return encoding.split(".", 1)[0].split("#", 1)[0]


def _inside(groups, key: str, container: tuple[str, ...], keymaker: KeyMaker) -> bool:
    """Whether most blocks of slot `key` lie inside `container`."""
    inside = total = 0
    for g in groups:
        for b in g.get(key, ()):
            total += 1
            inside += keymaker.within(b.path, container)
    return inside * 2 > total
