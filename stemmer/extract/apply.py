"""Take the title and the main text of a page from the layout it matched."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from stemmer.blocks import PageBlocks, letters, sig
from stemmer.cluster import KeyMaker
from stemmer.extract.decide import SlotEvidence, decides_alone, is_main
from stemmer.extract.match import Match
from stemmer.fields import FieldValue, field_values
from stemmer.layout.bylines import byline_author, slot_date
from stemmer.layout.learn import main_letters
from stemmer.layout.model import METADATA_ROLES, Layout
from stemmer.layout.roles import HEADING_LEVEL, element_tag
from stemmer.layout.titles import agreement, headline_wins, title_less_names
from stemmer.metadata import PageSignals


# A page whose layout finds under this share of the main text its pages have
# (MainScore / DiffScore summed over the main slots) ...
THIN_MAIN = 0.3
# ... while blocks the layout lacks hold this many times more text outside links
# than that is not one of the layout's pages.  Chosen on the dev sets: matched
# pages of the layout stay far from both (their unknown blocks are few).
UNKNOWN_OVER_MAIN = 2
# A title slot's text agrees with the page's own titles (`og:title`, JSON-LD
# headline, `<title>`) at least this much (`agreement`), or a heading that agrees
# better takes its place; the same least as analyze's link-text match.
TITLE_AGREES = 0.6
_TITLE_TAGS = ("h1", "h2", "h3")
Titles = tuple[str, ...] | Callable[[], tuple[str, ...]]
# The classifier's page decision: per block, whether it is main text (None where the classifier failed).
PageDecision = Callable[[], Sequence[bool] | None]


@dataclass(slots=True)  # not frozen: one is built for each kept block of each page, 3x faster so
class ExtractedBlock:
    """One block of a page's output.

    Attributes:
        role: title, main or sub.
        section: the layout slot number (Webstemmer's ``MAIN-n``), -1 if none.
        text: the block's text.
        tag: the block's HTML tag (for Markdown).
        method: how the role was chosen: ``pattern`` (the layout slot),
            ``container`` (an unknown block inside the layout's main-text container, not mostly
            link text unless such blocks outweigh the page's main text: `_link_list`)
            or ``classifier`` (the block classifier, `stemmer.extract.fallback`; on a matched
            page, a block the classifier's page decision kept against a layout's vote of
            little evidence, `stemmer.extract.decide`).
        confidence: how sure that choice is: 1.0 for a pattern slot, the
            classifier's probability of main text for a classifier block.
        index: the block's place among the page's blocks (`stemmer.blocks.segment`), -1 if unknown.
    """

    role: str
    section: int
    text: str
    tag: str = "p"
    method: str = "pattern"
    confidence: float = 1.0
    index: int = -1


@dataclass(frozen=True, slots=True)
class Extraction:
    """What extract found in one page.

    Attributes:
        id, url, site: the page.
        matched: whether a layout matched.
        pattern: the matched layout's id (or the one the classifier stood in for, see method).
        similarity: the page's similarity to its best layout.
        title: the title, or None.
        blocks: title, main and sub blocks in page order.
        method: ``pattern``, ``classifier`` (the block classifier chose the
            blocks: no layout matched, or, where `pattern` names one, the best
            layout gave no main text or far too little, `foreign`) or ``none`` (neither).
        date: when the page was published, ISO 8601 (``YYYY-MM-DD``, with the time
            where the page gives it), or None.
        author: who wrote it, as the page names them, or None.
        date_from, author_from: where each came from: the page's statements (``json-ld``,
            ``meta``, ``itemprop``, ``time``, ``rel-author``, ``url``), the layout's ``slot``,
            or, on a page no layout read, the date (``visible``) or ``byline`` shown by its
            headline; None where there is no value.
        fields: the values of the matched layout's named slots (`stemmer.fields`): a
            string, a list (a ``many`` slot), or None / ``[]`` where the page lacks it;
            and the page's stated image, tags and categories (`stemmer.fields.stated`).
    """

    id: str
    url: str | None
    site: str
    matched: bool
    pattern: str | None
    similarity: float
    title: str | None
    blocks: tuple[ExtractedBlock, ...]
    method: str
    date: str | None = None
    author: str | None = None
    date_from: str | None = None
    author_from: str | None = None
    fields: dict[str, FieldValue] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The main text, one block per line."""
        return "\n".join(b.text for b in self.blocks if b.role == "main")

    @property
    def body(self) -> str:
        """The main text less its blocks that repeat the title (`body_blocks`), one block per line."""
        return "\n".join(b.text for b in self.body_blocks())

    def body_blocks(self) -> Iterator[ExtractedBlock]:
        """The main blocks that say more than the title: not the headline kept as main text.

        A block whose letters lie within the title's is the headline (or a part
        of it, a "1351<br>Name" heading cut in two); a record with nothing else
        has no body, whatever its text says.
        """
        named = sig(self.title) if self.title else ""
        for b in self.blocks:
            if b.role == "main" and not (named and (own := sig(b.text)) and own in named):
                yield b

    @property
    def sub(self) -> str:
        """The varying text that is neither title nor main, one block per line."""
        return "\n".join(b.text for b in self.blocks if b.role == "sub")


def apply_layout(page_id: str, url: str | None, site: str, page: PageBlocks, match: Match,
                 keymaker: KeyMaker, *, unknown=None, titles: Titles = (),
                 signals: Callable[[], PageSignals] | None = None,
                 classified: PageDecision | None = None, root=None) -> Extraction:
    """Label the page's blocks with the roles of the matched layout's slots.

    A block of a main or sub slot, and one that no slot knows (the layout votes
    main for it inside its main-text container), is decided by the layout's vote
    and, where the layout saw the slot on few pages, the classifier's page decision
    (`stemmer.extract.decide`): `classified`, called at most once and only on such
    a page, gives it; without it the layout decides alone.
    `unknown`, if given, decides the blocks that no slot knows instead: called
    with the block's index and the block, it returns an `ExtractedBlock` or None
    (see `stemmer.extract.fallback`).  `titles`: the titles the page states for
    itself (`stemmer.layout.titles.own_titles`), which check the title slot's
    text (`page_title`), or a function that finds them, called only where the
    page's `<title>` does not confirm that text.  `signals`: a function that
    reads what the page states of itself (`stemmer.metadata.page_signals`),
    which checks the date and author slots (`slot_metadata`); without it, the slots alone.
    `root`: the parsed page, for the named slots whose value is a link's address
    (`stemmer.fields.field_values`).
    """
    layout = match.layout
    assert layout is not None
    slot, names, evidence = _reading(layout)
    container = layout.container
    out: list[ExtractedBlock] = []
    links: list[ExtractedBlock] = []  # the container's blocks of mostly link text
    title = None
    static: set[int] = set()  # the blocks of static slots: the same on every page of the layout
    dated: list[tuple[str, bool | None]] = []  # the texts of date slots, with their order of day and month
    bylines: list[str] = []  # the texts of author slots
    read: list = []

    def weighed(ev: SlotEvidence, vote: bool, i: int) -> tuple[bool, bool]:
        """The block's decision, and whether the classifier's took part."""
        if classified is None or decides_alone(ev, vote):
            return vote, False
        if not read:
            read.append(classified())
        if read[0] is None:
            return vote, False
        return is_main(ev, vote, bool(read[0][i])), True

    for i, (key, b) in enumerate(zip(match.keys, page.blocks)):
        found = slot.get(key)
        if found is not None:
            n, role = found
            if role == "main" or role == "sub":
                main, asked = weighed(evidence[n], role == "main", i)
                if main:
                    tag = _TAGS.get(b.path[-3:]) or _tag(b)
                    out.append(ExtractedBlock("main", n, b.text, tag, "classifier" if asked else "pattern", 1.0, i))
                    continue
                role = "sub"  # varying text, but the classifier outweighed the few pages that called it main
            if role == "static":
                static.add(i)
                continue
            if role in METADATA_ROLES:  # read for the page's date and author, not part of its text
                if role != "author":
                    dated.append((b.text, layout.sections[n].day_first))
                if role != "date":
                    bylines.append(b.text)
                continue
            if role == "title":
                if title is not None:
                    continue
                title = i
            tag = _tag(b)
            out.append(ExtractedBlock(role, n, b.text, tag, "pattern", 1.0, i))
            if role == "sub" and container and b.anchor_weight * 2 > b.weight and keymaker.within(b.path, container):
                links.append(ExtractedBlock("main", n, b.text, tag, "pattern", 1.0, i))  # a list the layout calls sub
        elif unknown is not None:
            if (decided := unknown(i, b)) is not None:
                out.append(decided)
        else:
            inside, linked = _in_container(b, container, keymaker)
            main, asked = weighed(evidence[-1], inside and not linked, i)
            if inside and linked and not main:
                links.append(ExtractedBlock("main", -1, b.text, _tag(b), "container", 1.0, i))
            elif main:
                out.append(ExtractedBlock("main", -1, b.text, _tag(b), "classifier" if asked else "container", 1.0, i))
    if links and _link_list(out, links, page):
        taken = {o.index for o in links}
        out = sorted([o for o in out if o.index not in taken] + links, key=lambda o: o.index)
    date, date_from, author, author_from = slot_metadata(dated, bylines, signals)
    return Extraction(page_id, url, site, True, layout.id, round(match.similarity, 4),
                      page_title(title, page, titles, names=names, static=static), tuple(out), "pattern",
                      date, author, date_from, author_from, field_values(layout, match.keys, page, root, url))


def slot_evidence(page: PageBlocks, match: Match, keymaker: KeyMaker) -> list[tuple[SlotEvidence, bool]]:
    """Each block's `SlotEvidence` and the layout's vote on it (main slot, or a block no slot knows
    inside the main-text container and not mostly link text), as `apply_layout` weighs them."""
    layout = match.layout
    slot, _, evidence = _reading(layout)
    out = []
    for key, b in zip(match.keys, page.blocks):
        found = slot.get(key)
        if found is not None:
            out.append((evidence[found[0]], found[1] == "main"))
        else:
            inside, linked = _in_container(b, layout.container, keymaker)
            out.append((evidence[-1], inside and not linked))
    return out


def _in_container(b, container: tuple[str, ...], keymaker: KeyMaker) -> tuple[bool, bool]:
    """Whether a block no slot knows lies in the layout's main-text container, and whether it is
    mostly link text: the container rule votes main for one inside and not mostly links."""
    return bool(container) and keymaker.within(b.path, container), b.anchor_weight * 2 > b.weight


_READINGS: dict[int, tuple] = {}  # id of a layout -> (the layout, its `_reading`)


def _reading(layout: Layout) -> tuple[dict[str, tuple[int, str]], frozenset[str], list[SlotEvidence]]:
    """What `apply_layout` reads of a layout on each of its pages, made once per layout:
    each slot's number and role by its key, the letters of its `title_names`, and
    each slot's `SlotEvidence` by number (the last one: a block no slot knows)."""
    kept = _READINGS.get(id(layout))
    if kept is None or kept[0] is not layout:
        if len(_READINGS) > 10_000:
            _READINGS.clear()
        pages = max(layout.pages, layout.seen)  # the pages of every crawl that saw it (`stemmer update`)
        evidence = [SlotEvidence(s.role, s.share, pages, True) for s in layout.sections]
        evidence.append(SlotEvidence(None, 0.0, pages, False))
        kept = _READINGS[id(layout)] = (layout, ({s.key: (i, s.role) for i, s in enumerate(layout.sections)},
                                                 frozenset(map(sig, layout.title_names)), evidence))
    return kept[1]


# What a page states of itself in these sources outweighs its date or author slot where
# the two disagree: the site's software writes them for this very page.  A date in
# the URL (when the address was made) or a byline class only confirms a slot.
STATED_SOURCES = frozenset({"json-ld", "meta", "itemprop", "time"})


def slot_metadata(dated: list[tuple[str, bool | None]], bylines: list[str],
                  signals: Callable[[], PageSignals] | None) -> tuple[str | None, str | None, str | None, str | None]:
    """The page's date and author, and where each came from: its slots, checked against what the page states.

    Args:
        dated: the texts of the page's date slots, each with its order of day and month.
        bylines: the texts of its author slots.
        signals: reads what the page states of itself, or None.

    A slot's value stands where the page states nothing, or the same; where a
    `STATED_SOURCES` statement differs, the page's statement does.  Where no
    slot gives one, the value stays None: extract's finishing step
    (`stemmer.metadata.add_metadata`) fills it from the page.  Returns
    (date, date_from, author, author_from).
    """
    date = next((d for text, day_first in dated if (d := slot_date(text, day_first))), None)
    author = next((a for text in bylines if (a := byline_author(text))), None)
    date_from = "slot" if date else None
    author_from = "slot" if author else None
    stated = signals() if signals is not None and (date or author) else None
    if stated is not None:
        if date and (said := stated.date) and said.source in STATED_SOURCES:
            if said.value[:10] != date[:10]:
                date, date_from = said.value, said.source
            elif len(said.value) > len(date):
                date = said.value  # the same day, with the time the page states
        if author and (said := stated.author) and said.source in STATED_SOURCES \
                and said.value.casefold() != author.casefold():
            author, author_from = said.value, said.source
    return date, date_from, author, author_from


def _link_list(out: list[ExtractedBlock], links: list[ExtractedBlock], page: PageBlocks) -> bool:
    """Whether the page's main text is the links in its container: they outweigh the main text found.

    So it is on an index page that shares its frame with the articles (a
    course's page listing its lectures, a crossword's PDF link and solution
    button): the layout's body slots are near empty there.  Below an article's
    body, a list of related links or prev/next weighs less than the body.
    """
    def weight(blocks) -> int:
        return sum(page.blocks[o.index].weight for o in blocks if o.role == "main")

    return weight(links) > weight(out)


def page_title(slot: int | None, page: PageBlocks, titles: Titles = (), *,
               names: frozenset[str] = frozenset(), static=frozenset()) -> str | None:
    """The title of a matched page: its title slot's text, checked against what the page calls itself.

    Args:
        slot: the index of the page's block in the title slot, or None.
        titles: the page's own titles (og:title, JSON-LD headline), or a function that finds them.
        names: the letters of the `<title>` parts that name no page (`Layout.title_names`).
        static: the indexes of the blocks in static slots: the same on every page, never its title.

    The slot's text is the whole heading it lies in where the heading is cut
    into blocks ("1351<br>Two sums") and the whole agrees better with the
    page's titles.  The page's `<h1>` headline takes the place of a slot text
    that repeats part of it and agrees less with the page's titles
    (`headline_wins`: "1351 Name" over a body heading "Name").  A slot text that
    agrees with none of the page's titles (its own, its `<title>`) gives way to
    the heading (h1-h3, not a link, not static) that agrees with them best, if
    one agrees; there the `<title>` counts less its `names`, and one of nothing
    but names says nothing.  A slot whose text is one of the names (a menu's
    entry that repeats a constant `<title>`), and a page without title slot,
    take the page's headline (`_headline`).
    """
    if slot is None:
        return _headline(page, titles, names, static)
    slot_text = page.blocks[slot].text
    head = sig(page.title)

    found: list[tuple[str, ...]] = []

    def refs() -> tuple[str, ...]:  # the page's own titles, looked up once and only where needed
        if not found:
            found.append(tuple(s for s in map(sig, titles() if callable(titles) else titles) if s))
        return found[0]

    whole = _whole_heading(page, slot)
    if whole != slot_text:
        named = (*refs(), sig(title_less_names(page.title, names)))
        if agreement(sig(whole), named) > agreement(sig(slot_text), named):
            slot_text = whole
    text = sig(slot_text)
    if names and text in names:
        return _headline(page, titles, names, static)
    if page.blocks[slot].tag != "h1" and (h1 := _first_h1(page, static)) is not None:
        headline = _whole_heading(page, h1)
        if text in sig(headline) and headline_wins(slot_text, headline,
                                                   (*refs(), sig(title_less_names(page.title, names)))):
            return headline
    if head and agreement(text, (), head) >= TITLE_AGREES:
        return slot_text  # the `<title>` alone confirms it: the page's own titles are not looked up
    mine, head = refs(), sig(title_less_names(page.title, names))  # the `<title>` less its names: only now
    if not (mine or head) or agreement(text, mine, head) >= TITLE_AGREES:
        return slot_text
    return _agreeing_heading(page, static, mine, head) or slot_text


def _headline(page: PageBlocks, titles: Titles, names: frozenset[str], static) -> str | None:
    """The title of a page whose layout gives none (an index, whose slots are teasers, or a page without the slot).

    Its first h1 that is not a link (on an index page, the same on each: "Recent
    posts"); else the heading that agrees best with its own titles and its
    `<title>` less `names`, a link or not (a headline in an h2, or linked to its
    own page, not the site-suffixed `<title>`); else the shorter of its own title and that `<title>`; else its
    first h1 that is a link and not static (a headline linked to its own page,
    not the site's logo).  None only for a page with none of these: a `<title>`
    of nothing but names (the same on every page of the layout) names no page.
    """
    if (h1 := _first_h1(page)) is not None:
        return _whole_heading(page, h1)
    own = [t for t in (titles() if callable(titles) else titles) if sig(t)]
    stated = title_less_names(page.title, names)
    mine, head = tuple(map(sig, own)), sig(stated)
    if mine or head:
        if heading := _agreeing_heading(page, static, mine, head, links=True):
            return heading
        return min((t for t in (*own, stated) if sig(t)), key=len)
    return next((b.text for i, b in enumerate(page.blocks) if b.tag == "h1" and i not in static and b.text), None)


def _agreeing_heading(page: PageBlocks, static, mine: tuple[str, ...], head: str, *, links: bool = False) -> str | None:
    """The heading (h1-h3, not static, not a link unless `links`) that agrees best with the page's titles, if one agrees.

    A heading that is a link may be a headline linked to its own page, where
    the page's titles name it; a teaser's agrees with none of them.
    """
    best, best_score = None, TITLE_AGREES
    for b in _headings(page, static, links=links):
        text = sig(b.text)
        score = agreement(text, mine, head) if text else 0.0
        if score > best_score:
            best, best_score = b.text, score
    return best


def _first_h1(page: PageBlocks, static=frozenset()) -> int | None:
    """The index of the page's first h1 block that is not a link nor static."""
    return next((i for i, b in enumerate(page.blocks)
                 if b.tag == "h1" and b.anchor_weight * 2 <= b.weight and i not in static), None)


def _whole_heading(page: PageBlocks, i: int) -> str:
    """The text of the heading (h1-h6) that block `i` lies in, with the blocks beside it in the same heading.

    A ``<br>`` or a ``<div>`` inside a heading cuts it into blocks.  Not in a heading: the block's text.
    """
    path = page.blocks[i].path
    depth = next((d for d in range(len(path) - 1, -1, -1) if element_tag(path[d]) in HEADING_LEVEL), None)
    if depth is None:
        return page.blocks[i].text
    inside = path[:depth + 1]
    first = last = i
    while first > 0 and page.blocks[first - 1].path[:depth + 1] == inside:
        first -= 1
    while last + 1 < len(page.blocks) and page.blocks[last + 1].path[:depth + 1] == inside:
        last += 1
    return " ".join(b.text for b in page.blocks[first:last + 1] if b.text)


def _headings(page: PageBlocks, static=frozenset(), *, links: bool = False):
    """The page's headings that may name it: h1-h3, not a link (unless `links`), not in a static slot."""
    return (b for i, b in enumerate(page.blocks)
            if b.tag in _TITLE_TAGS and (links or b.anchor_weight * 2 <= b.weight) and i not in static)


def foreign(extraction: Extraction, match: Match, page: PageBlocks) -> bool:
    """Whether a page resembles its layout without being one of its pages.

    So it is when the layout finds no main text in the page but its title (it
    has none, or the page lacks its main slots), or finds under `THIN_MAIN` of
    what its pages have while more text than that lies in blocks the layout does
    not know (a video page beside the site's articles: the same frame, another
    body).  Only the layout's own main text counts: blocks that the classifier
    added against its vote (`stemmer.extract.decide`) make no page the layout's.
    """
    mains = [s for s in match.layout.sections if s.role == "main"]
    if not mains:
        return page.weight > 0
    enough = THIN_MAIN * main_letters(match.layout)
    found = 0
    for b in extraction.body_blocks():
        if b.method != "classifier":
            found += page.blocks[b.index].weight if b.index >= 0 else letters(b.text)
            if found >= enough and found:
                return False
    if not found:
        return True
    slots = {s.key for s in match.layout.sections}
    unknown = sum(b.weight - b.anchor_weight for key, b in zip(match.keys, page.blocks) if key not in slots)
    return unknown > UNKNOWN_OVER_MAIN * found


def _tag(block) -> str:
    """The block's tag for Markdown: a paragraph of a quotation counts as the quotation.

    Kept in `_TAGS` by the last three elements of the block's path, all it reads.
    """
    tail = block.path[-3:]
    tag = _TAGS.get(tail)
    if tag is None:
        tag = block.tag
        if tag == "p":
            around = tail[:-1]  # the paragraph's parent and grandparent
            if around and (around[-1].startswith("blockquote") or around[0].startswith("blockquote")):
                tag = "blockquote"
        if len(_TAGS) > 100_000:
            _TAGS.clear()
        _TAGS[tail] = tag
    return tag


_TAGS: dict[tuple[str, ...], str] = {}


def unmatched(page_id: str, url: str | None, site: str, similarity: float = 0.0) -> Extraction:
    """The record of a page no layout covers."""
    return Extraction(page_id, url, site, False, None, round(similarity, 4), None, (), "none")
