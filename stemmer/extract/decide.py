"""How the blocks of a page are decided: main text or not.

On a page that matched a layout, each block's slot gives the layout's vote
(main, or not), and the classifier's page decision gives another; the two
weigh together by how much the layout saw of that slot.  A slot seen on
many pages decides alone; one learned from two or three pages (a new crawl,
a rare layout) leans on the classifier, which has read thousands of sites:
a lede in its own wrapper that three pages marked as a varying but not main
slot is kept.  A layout's vote for main text stands: on the dev sets no
weight for the classifier against it did better (see `CLASSIFIER_PAGES_MAIN`).
"""
from __future__ import annotations

from dataclasses import dataclass

# The classifier's weight against the layout's, in pages: its page decision on a
# block weighs as much as a slot seen on this many pages of the layout.  Against
# the layout's vote for main text, and against its vote for anything else: a
# layout's main slots are its surest part (on the dev sets under 0.5% of their
# letters are not main text, and no weight above 0 did better), what it leaves out
# (a slot it saw vary outside the main text's element, a block it never saw) is
# where a layout of few pages misleads.  Fitted under site-grouped cross-validation
# on jekyll_sites and web_sites with layouts learned from 2, 3, 5 and all train
# pages (benchmarks/decision.py).
CLASSIFIER_PAGES_MAIN = 0.0
CLASSIFIER_PAGES = 24.0

# The roles whose slots the decision weighs; title, static, date and author slots keep their role.
WEIGHED_ROLES = frozenset({"main", "sub"})


@dataclass(frozen=True, slots=True)
class SlotEvidence:
    """What a layout knows of the slot a block aligned to.

    The fitted decision weighs the pages that saw the slot (`layout_weight`);
    DiffScore and MainScore share are kept for `benchmarks/decision.py`.  On the
    dev sets the MainScore share of the sub slots whose blocks the classifier
    added did not separate right from wrong additions; a DiffScore under 0.7 went
    with as many wrong as right, but on 15 thousand of their 190 thousand letters.

    Attributes:
        role: the slot's role (title, main, sub, static, date, author, byline), or None
            where the block aligned to no slot (the layout's container rule votes for it).
        diff: the slot's DiffScore (0 where not aligned).
        main_share: its MainScore as a share of the layout's top MainScore.
        slot_share: the share of the layout's pages that had the slot.
        layout_pages: how many pages the layout was learned from (those of later updates included).
        aligned: whether the block aligned to a slot at all.
    """

    role: str | None
    diff: float
    main_share: float
    slot_share: float
    layout_pages: int
    aligned: bool


def layout_weight(evidence: SlotEvidence) -> float:
    """How many of the layout's pages speak for its vote on this block.

    An aligned slot: the pages that had it.  A block no slot knows: the
    container rule, which the layout's pages learned together, at their count.
    """
    if evidence.aligned:
        return evidence.layout_pages * evidence.slot_share
    return float(evidence.layout_pages)


def classifier_weight(vote: bool) -> float:
    """The classifier's weight against the layout's vote (`CLASSIFIER_PAGES_MAIN`, `CLASSIFIER_PAGES`)."""
    return CLASSIFIER_PAGES_MAIN if vote else CLASSIFIER_PAGES


def decides_alone(evidence: SlotEvidence, vote: bool) -> bool:
    """Whether the layout's vote on the block stands whatever the classifier says.

    So it does where the layout's weight outweighs the classifier's whole
    weight; only the other blocks need the classifier, most pages of a
    learned site none.
    """
    if evidence.role is not None and evidence.role not in WEIGHED_ROLES:
        return True
    return layout_weight(evidence) > classifier_weight(vote)


def is_main(evidence: SlotEvidence, vote: bool, kept: bool | None) -> bool:
    """The block's decision: the layout's vote and the classifier's weighed together.

    `kept`: whether the classifier's page decision (its probabilities, its threshold
    and its page rules: comments, captions, regions away from the article) keeps
    the block as main text, or None where there is none.
    score = layout weight x (+1 main, -1 not) + classifier weight x (+1 kept, -1 not):
    main text where it is above 0, the layout's vote where it is 0.
    """
    if kept is None or decides_alone(evidence, vote):
        return vote
    score = layout_weight(evidence) * (1.0 if vote else -1.0) + classifier_weight(vote) * (1.0 if kept else -1.0)
    return score > 0 or (score == 0 and vote)
