"""Take the title and the main text of a page from the layout it matched."""
from __future__ import annotations

from dataclasses import dataclass

from stemmer.blocks import PageBlocks, letters
from stemmer.cluster import KeyMaker
from stemmer.extract.match import Match


# A page whose layout finds under this share of the main text its pages have
# (MainScore / DiffScore summed over the main slots) ...
THIN_MAIN = 0.3
# ... while blocks the layout lacks hold this many times more text outside links
# than that is not one of the layout's pages.  Chosen on the dev sets: matched
# pages of the layout stay far from both (their unknown blocks are few).
UNKNOWN_OVER_MAIN = 2


@dataclass(frozen=True, slots=True)
class ExtractedBlock:
    """One block of a page's output.

    Attributes:
        role: title, main or sub.
        section: the layout slot number (Webstemmer's ``MAIN-n``), -1 if none.
        text: the block's text.
        tag: the block's HTML tag (for Markdown).
        method: how the role was chosen: ``pattern`` (the layout slot),
            ``container`` (an unknown block, not mostly link text, inside the layout's main-text container)
            or ``classifier`` (the block classifier, `stemmer.extract.fallback`).
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
        pattern: the matched layout's id.
        similarity: the page's similarity to its best layout.
        title: the title, or None.
        blocks: title, main and sub blocks in page order.
        method: ``pattern``, ``classifier`` (no layout matched; the block
            classifier chose the blocks) or ``none`` (neither).
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

    @property
    def text(self) -> str:
        """The main text, one block per line."""
        return "\n".join(b.text for b in self.blocks if b.role == "main")

    @property
    def sub(self) -> str:
        """The varying text that is neither title nor main, one block per line."""
        return "\n".join(b.text for b in self.blocks if b.role == "sub")


def apply_layout(page_id: str, url: str | None, site: str, page: PageBlocks, match: Match,
                 keymaker: KeyMaker, *, unknown=None) -> Extraction:
    """Label the page's blocks with the roles of the matched layout's slots.

    `unknown`, if given, decides the blocks that no slot knows instead of the
    container rule: called with the block's index and the block, it returns
    an `ExtractedBlock` or None (see `stemmer.extract.fallback`).
    """
    layout = match.layout
    assert layout is not None
    slot = {s.key: (i, s.role) for i, s in enumerate(layout.sections)}
    container = layout.container
    out: list[ExtractedBlock] = []
    title = None
    for i, (key, b) in enumerate(zip(match.keys, page.blocks)):
        found = slot.get(key)
        if found is not None:
            n, role = found
            if role == "static":
                continue
            if role == "title":
                if title is not None:
                    continue
                title = b.text
            out.append(ExtractedBlock(role, n, b.text, _tag(b), index=i))
        elif unknown is not None:
            if (decided := unknown(i, b)) is not None:
                out.append(decided)
        elif container and b.anchor_weight * 2 <= b.weight and keymaker.within(b.path, container):
            out.append(ExtractedBlock("main", -1, b.text, _tag(b), "container", index=i))
    return Extraction(page_id, url, site, True, layout.id, round(match.similarity, 4), title,
                      tuple(out), "pattern")


def foreign(extraction: Extraction, match: Match, page: PageBlocks) -> bool:
    """Whether a page resembles its layout without being one of its pages.

    So it is when the layout has main text but finds none of it in the page, or
    finds under `THIN_MAIN` of what its pages have while more text than that
    lies in blocks the layout does not know (a video page beside the site's
    articles: the same frame, another body).
    """
    mains = [s for s in match.layout.sections if s.role == "main"]
    if not mains:
        return False
    # A slot's MainScore is its DiffScore times its letters outside links per page.
    enough = THIN_MAIN * sum(s.main / max(s.diff, 0.01) for s in mains)
    found = 0
    for b in extraction.blocks:
        if b.role == "main":
            found += page.blocks[b.index].weight if b.index >= 0 else letters(b.text)
            if found >= enough and found:
                return False
    if not found:
        return True
    slots = {s.key for s in match.layout.sections}
    unknown = sum(b.weight - b.anchor_weight for key, b in zip(match.keys, page.blocks) if key not in slots)
    return unknown > UNKNOWN_OVER_MAIN * found


def _tag(block) -> str:
    """The block's tag for Markdown: a paragraph of a quotation counts as the quotation."""
    if block.tag == "p" and any(e.startswith("blockquote") for e in block.path[-3:-1]):
        return "blockquote"
    return block.tag


def unmatched(page_id: str, url: str | None, site: str, similarity: float = 0.0) -> Extraction:
    """The record of a page no layout covers."""
    return Extraction(page_id, url, site, False, None, round(similarity, 4), None, (), "none")
