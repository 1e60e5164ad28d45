"""Learn a site's layouts: cluster its pages, align each cluster, score and label the slots.

Follows Webstemmer (DIGEST section 002): DiffScore separates static from
varying slots, MainScore finds the main text, link texts pointing to a page
(or its `<title>`) find the title slot, and the pattern score ranks layouts.
"""
from __future__ import annotations

import math
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
from stemmer.layout.noise import learn_noise


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
    """A page being analyzed: its blocks and the texts that may name its title."""

    id: str
    blocks: PageBlocks
    anchors: list[str] = field(default_factory=list)


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
# A slot is in a box of noise when one of its last elements names itself so;
# higher up, page-wide wrappers (an ASP.NET <form>) would catch everything.
BOX_DEPTH = 4


def site_sequences(pages: Sequence[PageBlocks], keymaker: KeyMaker) -> tuple[list[list[str]], list[list[int]]]:
    """Each page's slot keys and its layout sequence, as clustering compares them.

    A slot repeats in the sequence by its mean letters over the site's pages,
    so long bodies weigh more without their paragraph count mattering.
    """
    page_keys = [[keymaker.key(b.path) for b in p.blocks] for p in pages]
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
    if len(seqs) <= EXACT_MAX_PAGES:
        clusters, sample = cluster_pages(similarity_matrix(seqs), params.cluster_threshold), None
    else:  # a big site: no n × n matrix, and its big clusters aligned on samples
        clusters, sample = cluster_large(seqs, params.cluster_threshold), FIXATE_SAMPLE
    layouts = []
    for members in clusters:
        if len(members) < params.min_pages:
            continue
        layout = _fixate_sampled(pages, page_keys, members, keymaker, params, sample)
        if layout.score >= params.score_threshold:
            layouts.append(layout)
    layouts.sort(key=lambda lay: (-lay.score, lay.members))
    layouts = [Layout(f"L{i}", lay.pages, lay.score, lay.sections, lay.container, lay.members)
               for i, lay in enumerate(layouts)]
    return SitePatterns(site, tuple(layouts), keymaker.token_share, params.as_dict(),
                        noise=learn_noise(site, (p.blocks for p in pages)))


def _fixate_sampled(pages: list[SitePage], page_keys: list[list[str]], members: list[int],
                    keymaker: KeyMaker, params: AnalyzeParams, sample: int | None) -> Layout:
    """`_fixate` a cluster, or an evenly spread `sample` of its pages when it has more."""
    if sample is None or len(members) <= sample:
        return _fixate([pages[i] for i in members], [page_keys[i] for i in members], keymaker, params)
    chosen = [members[k * len(members) // sample] for k in range(sample)]
    layout = _fixate([pages[i] for i in chosen], [page_keys[i] for i in chosen], keymaker, params)
    main = sum(s.main for s in layout.sections if s.role == "main")
    return replace(layout, pages=len(members), score=round(math.log(len(members)) * main, 2),
                   members=tuple(sorted(pages[i].id for i in members)[:5]))


def _fixate(pages: list[SitePage], page_keys: list[list[str]], keymaker: KeyMaker,
            params: AnalyzeParams) -> Layout:
    """Align one cluster's pages into a layout with scored, labelled sections."""
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
        own = sum(b.weight - b.anchor_weight for g in groups for b in g.get(key, ()))
        weights = [sum(b.weight for b in g[key]) for g in groups if key in g]
        share = len(weights) / n
        rep = repeats(sum(weights) / len(weights)) if share >= 0.5 else 1
        linked = 1 - own / max(1, sum(weights))
        stats.append((key, diff, diff * own / n, rep, share, linked))

    # The main text is the container of the first text-heavy slot after the title:
    # the article body comes before the comments and the "related" lists.
    # Slots inside boxes of noise (comments, sidebars) are neither.
    boxes: dict[str, bool] = {}

    def in_box(key: str) -> bool:
        if key not in boxes:
            boxes[key] = _in_box(groups, key)
        return boxes[key]

    text_slots = [i for i, st in enumerate(stats) if st[1] >= params.diff_threshold and not in_box(st[0])]
    top = max((stats[i][2] for i in text_slots), default=0.0)
    big = [i for i in text_slots if stats[i][2] >= max(params.main_threshold, BIG_SHARE * top)]
    link_list = False
    if not big:
        # No varying text outside links: a page whose content is a list of links
        # (a wiki's index, a table of contents).  Its links are its main text.
        stats = [(key, diff, diff * weight, rep, share, linked)
                 for key, diff, _, rep, share, linked, weight in ((*st, _weight(groups, st[0], n)) for st in stats)]
        top = max((stats[i][2] for i in text_slots), default=0.0)
        big = [i for i in text_slots if stats[i][2] >= max(params.main_threshold, BIG_SHARE * top)]
        link_list = bool(big)
    title_key = None
    if big:
        # A menu's or breadcrumb's entry for the page repeats the links to it,
        # but the headline can differ (MkDocs): a slot in a box is no title.
        candidates = [st for st in stats[:big[0]] if not in_box(st[0])]
        title_key = _title_key(pages, groups, candidates, stats[big[0]][0], params)
    title_pos = next((i for i, st in enumerate(stats) if st[0] == title_key), -1)
    anchor = next((i for i in big if i > title_pos), None)
    container = _container(groups, stats[anchor][0], keymaker) if anchor is not None else ()
    if container:
        later = [stats[i][0] for i in big if i > anchor]
        container = _with_continuation(container, groups, later, keymaker)

    roles = []
    for i, (key, diff, main, rep, share, linked) in enumerate(stats):
        if key == title_key:
            role = "title"
        elif diff < params.diff_threshold:
            role = "static"
        elif (container and i > title_pos and (link_list or linked <= MAX_MAIN_LINKED)
              and _inside(groups, key, container, keymaker)):
            role = "main"
        else:
            role = "sub"
        roles.append(role)
    # A heading inside the container amid main text is the body's own even when
    # its text repeats from page to page ("Introduction", "Links", a date);
    # "Related stories" over a list of links at the end of the body is not.
    main_keys = {st[0] for st, role in zip(stats, roles) if role == "main"}
    for i, (key, diff, main, rep, share, linked) in enumerate(stats):
        if (roles[i] == "static" and container and i > title_pos and is_heading(key)
                and linked <= MAX_MAIN_LINKED and _inside(groups, key, container, keymaker)
                and heads_body(page_keys, key, main_keys, title_key)):
            roles[i] = "main"
    sections = []
    for (key, diff, main, rep, share, linked), role in zip(stats, roles):
        sample = next((b.text for g in groups for b in g.get(key, ())), "")[:80]
        sections.append(Section(key, role, round(diff, 4), round(main, 2), rep,
                                round(share, 3), sample))
    if not any(s.role == "main" for s in sections):
        # Still nothing (no container found): keep every varying slot outside boxes of
        # noise, or the layout would match such pages only to extract nothing.
        sections = [replace(s, role="main") if s.role == "sub" and not in_box(s.key) else s
                    for s in sections]
    score = math.log(n) * sum(s.main for s in sections if s.role == "main")
    members = tuple(sorted(p.id for p in pages)[:5])
    return Layout("", n, round(score, 2), tuple(sections), container, members)


def is_heading(key: str) -> bool:
    return _slot_tag(key) in _HEADING_TAGS


def heads_body(page_keys: list[list[str]], key: str, main_keys: set[str], title_key: str | None) -> bool:
    """Whether the blocks of slot `key` mostly stand between main text (headings skipped).

    A heading between the title or paragraphs of the body and more of them is
    the body's; one after the template ("Latest news" over an index) or over
    what follows the body ("Related stories" over links) heads something else.
    """
    inside = total = 0
    for keys in page_keys:
        for j, k in enumerate(keys):
            if k != key:
                continue
            after = next((k2 for k2 in keys[j + 1:] if not is_heading(k2)), None)
            before = next((k2 for k2 in reversed(keys[:j]) if not is_heading(k2)), None)
            total += 1
            inside += after in main_keys and (before in main_keys or before == title_key)
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


def _title_key(pages: list[SitePage], groups, candidates, body_key: str,
               params: AnalyzeParams) -> str | None:
    """The slot most pages vote for as their title; None when most find none."""
    votes: Counter[str | None] = Counter()
    for p, g in zip(pages, groups):
        best, best_score = None, params.title_threshold
        links = [sig(a) for a in p.anchors]
        head = sig(p.blocks.title)
        for key, diff, *_ in candidates:
            if key not in g or diff < TITLE_MIN_DIFF:
                continue
            text = sig(g[key][0].text)
            if not text:
                continue
            match = max((Indel.normalized_similarity(a, text) for a in links if a), default=0.0)
            if head:
                match = max(match, LCSseq.similarity(text, head) / max(len(text), len(head) / 2))
            # Varying slots are likelier titles; dates in titles keep DiffScore
            # low, so it only halves the score at worst.
            match *= 0.5 + 0.5 * diff
            if match > best_score:
                best, best_score = key, match
        if best is None:
            best = _titlability_vote(g, candidates, body_key) or _headline_vote(g, candidates)
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
    """Widen the container to its parent when the body goes on in a sibling element.

    A post split into ``entry-body`` and ``entry-more`` has its parts in
    siblings; comments and "related" lists nest deeper or further away.
    """
    for key in later:
        if _inside(groups, key, container, keymaker):
            continue
        other = _container(groups, key, keymaker)
        if len(other) == len(container) and other[:-1] == container[:-1]:
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
