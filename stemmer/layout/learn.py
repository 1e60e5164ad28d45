"""Learn a site's layouts: cluster its pages, align each cluster, score and label the slots.

Follows Webstemmer (DIGEST section 002): DiffScore separates static from
varying slots, MainScore finds the main text (`stemmer.layout.roles`), link
texts pointing to a page (or its `<title>`) find the title slot
(`stemmer.layout.titles`), and the pattern score ranks layouts.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from stemmer.blocks import Block, PageBlocks, sig
from stemmer.cluster import KeyMaker, cluster_pages, layout_sequence, similarity_matrix
from stemmer.cluster.large import EXACT_MAX_PAGES, cluster_large
from stemmer.cluster.similarity import repeats
from stemmer.layout.bylines import metadata_roles
from stemmer.layout.model import AnalyzeParams, Layout, Section, SitePage, SitePatterns
from stemmer.layout.noise import learn_noise
from stemmer.layout.roles import (DIFF_MAX_LETTERS, DIFF_SAMPLE_PAGES, FEW_PAGES, INNER_TAGS, CommonTexts, diffscore,
                                  element_tag, label_slots, main_slots, slot_container, slot_in_box, slot_stats,
                                  with_continuation)
from stemmer.layout.titles import layout_title_names, references, site_name_parts, title_slot

# A layout whose pages have fewer letters of main text than this on average is suspect.
THIN_LAYOUT_LETTERS = 50

# A container that holds the bulk of the varying text of this share of a cluster's
# pages, and of this many, makes a page type of its own (`_page_types`).
TYPE_SHARE = 0.25
MIN_TYPE_PAGES = 3

# A slot is kept in a layout when at least this share of its pages have it.
MIN_SECTION_SHARE = 0.2

# On a site of more than EXACT_MAX_PAGES pages, a cluster of more pages than this
# is aligned on an evenly spread sample of them: slot shares, DiffScores and
# MainScores are means, and 1,000 pages give them to about 1-2% (1.7 ms a page).
FIXATE_SAMPLE = 1000


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
        p.refs = references(p, names)
    if len(seqs) <= EXACT_MAX_PAGES:
        clusters, sample = cluster_pages(similarity_matrix(seqs), params.cluster_threshold), None
    else:  # a big site: no n × n matrix, and its big clusters aligned on samples
        clusters, sample = cluster_large(seqs, params.cluster_threshold), FIXATE_SAMPLE
    layouts = []
    for members in (part for cluster in clusters for part in _page_types(pages, page_keys, cluster, keymaker)):
        if len(members) < params.min_pages:
            continue
        layout = _fixate_sampled(pages, page_keys, members, keymaker, params, sample, common, names)
        if layout.score >= params.score_threshold:
            layouts.append(layout)
    layouts.sort(key=lambda lay: (-lay.score, lay.members))
    layouts = [replace(lay, id=f"L{i}") for i, lay in enumerate(layouts)]
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
    """The elements above a block's own, up to the first that does not structure text (`INNER_TAGS`)."""
    path = path[:-1]
    while path and element_tag(path[-1]) in INNER_TAGS:
        path = path[:-1]
    return path


def _fixate_sampled(pages: list[SitePage], page_keys: list[list[str]], members: list[int],
                    keymaker: KeyMaker, params: AnalyzeParams, sample: int | None,
                    common: frozenset[int] = frozenset(), names: frozenset[str] = frozenset()) -> Layout:
    """`_fixate` a cluster, or an evenly spread `sample` of its pages when it has more."""
    if sample is None or len(members) <= sample:
        return _fixate([pages[i] for i in members], [page_keys[i] for i in members], keymaker, params, common,
                       names)
    chosen = [members[k * len(members) // sample] for k in range(sample)]
    layout = _fixate([pages[i] for i in chosen], [page_keys[i] for i in chosen], keymaker, params, common,
                     names, size=len(members))
    main = sum(s.main for s in layout.sections if s.role == "main")
    return replace(layout, pages=len(members), score=round(math.log(len(members)) * main, 2),
                   members=tuple(sorted(pages[i].id for i in members)[:5]))


def _fixate(pages: list[SitePage], page_keys: list[list[str]], keymaker: KeyMaker,
            params: AnalyzeParams, common: frozenset[int] = frozenset(), names: frozenset[str] = frozenset(),
            size: int = 0) -> Layout:
    """Align one cluster's pages into a layout with scored, labelled sections.

    `common`: the hashes of the texts the site's template repeats (`CommonTexts`);
    `names`: the letters of the `<title>` parts that name the site (`site_name_parts`);
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
        having = [g[key] for g in groups if key in g]
        n_diff = min(len(having), DIFF_SAMPLE_PAGES)  # pages from all over the cluster
        diff = diffscore([sig("".join(b.text for b in having[k * len(having) // n_diff]))[:DIFF_MAX_LETTERS]
                          for k in range(n_diff)])
        stats.append(slot_stats(groups, key, diff))

    # The main text is the container of the first text-heavy slot after the title:
    # the article body comes before the comments and the "related" lists.
    # Slots inside boxes of noise (comments, sidebars) are neither.
    boxes: dict[str, bool] = {}

    def in_box(key: str) -> bool:
        if key not in boxes:
            boxes[key] = slot_in_box(groups, key)
        return boxes[key]

    stats, big, link_list = main_slots(stats, groups, params, in_box)
    title_key = None
    if big:
        # On short pages the headline can weigh as much as the body: the first
        # big slot may be the title when another one follows it.
        candidates = stats[:big[0] + (len(big) > 1)]
        title_key = title_slot(pages, groups, candidates, stats[big[0]][0], params, in_box,
                               few=max(n, size) < FEW_PAGES)
    title_pos = next((i for i, st in enumerate(stats) if st[0] == title_key), -1)
    anchor = next((i for i in big if i > title_pos), None)
    container = slot_container(groups, stats[anchor][0], keymaker) if anchor is not None else ()
    if container:
        later = [stats[i][0] for i in big if i > anchor]
        container = with_continuation(container, groups, later, keymaker)

    roles = label_slots(stats, groups, page_keys, title_key, container, link_list, keymaker, params, common,
                        size=size)
    roles, day_first = metadata_roles(pages, groups, [st[0] for st in stats], roles)
    sections = []
    for (key, diff, main, rep, share, linked), role in zip(stats, roles):
        sample = next((b.text for g in groups for b in g.get(key, ())), "")[:80]
        sections.append(Section(key, role, round(diff, 4), round(main, 2), rep,
                                round(share, 3), sample, day_first=day_first.get(key)))
    score = math.log(n) * sum(s.main for s in sections if s.role == "main")
    members = tuple(sorted(p.id for p in pages)[:5])
    return Layout("", n, round(score, 2), tuple(sections), container, members,
                  title_names=layout_title_names([p.blocks.title for p in pages], names))
