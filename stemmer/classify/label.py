"""Training labels: align a page's gold main text to its blocks, token by token.

The gold text of an evaluation page (``../shared/data``) is plain text, one
paragraph a line; the classifier needs a label per block.  Both sides are cut
into the scorer's tokens (NFKC, lower case, runs of word characters, every
CJK character alone), and the longest common subsequence of the two token
streams is taken (rapidfuzz, bit-parallel).  An LCS also pairs stray common
words ("the", "and") across unrelated text, so only runs of at least
`MIN_RUN` consecutive tokens count; a shorter run counts only when it is a
whole block on one side and a whole gold line on the other (a one-word
heading).  A block is main text when at least `MAIN_SHARE` of its tokens are
aligned.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

# The same tokens as ../shared/tools/score.py, so that labels agree with the scores.
_CJK = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3040-\u30ff\u3100-\u312f"
    "\u3130-\u318f\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff\uff66-\uff9f"
    "\uffa0-\uffdc\U00020000-\U0003134f"
)
_TOKEN = re.compile(f"(?=\\w)[{_CJK}]|[^\\W{_CJK}]+")

# Runs of 3 tokens almost never pair unrelated text by chance (checked by eye
# on cleaneval pages, where runs of 1-2 tokens were mostly stray "the", "of").
MIN_RUN = 3
# Web2Text labels a block content when > 2/3 of its characters align; on these
# sets 0.5 recovers the same blocks and keeps half-quoted paragraphs.
MAIN_SHARE = 0.5


def tokenize(text: str) -> list[str]:
    """The scorer's tokens: NFKC, lower case, word runs, each CJK character alone."""
    if not text:
        return []
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


@dataclass(frozen=True, slots=True)
class Alignment:
    """How a gold text lies over a page's blocks.

    Attributes:
        aligned: per block, how many of its tokens are aligned to the gold.
        tokens: per block, its number of tokens.
        gold_tokens: the number of gold tokens.
        gold_aligned: how many gold tokens are aligned to some block.
    """

    aligned: tuple[int, ...]
    tokens: tuple[int, ...]
    gold_tokens: int
    gold_aligned: int

    def labels(self, share: float = MAIN_SHARE) -> list[int]:
        """1 for a block with at least `share` of its tokens aligned, else 0."""
        return [int(n > 0 and a >= share * n) for a, n in zip(self.aligned, self.tokens)]

    @property
    def recall(self) -> float:
        """Share of the gold tokens found in the blocks (1.0 for an empty gold)."""
        return self.gold_aligned / self.gold_tokens if self.gold_tokens else 1.0


def align(texts: Sequence[str], gold: str, *, min_run: int = MIN_RUN) -> Alignment:
    """Align the gold text to the blocks' texts.

    Args:
        texts: the page's block texts in document order.
        gold: the gold main text, one paragraph a line.
        min_run: least run of consecutive tokens that counts as aligned.

    Returns:
        Per-block aligned and total token counts, and the gold tokens recovered.
    """
    ids: dict[str, int] = {}
    page: list[int] = []
    owner: list[int] = []
    starts: list[int] = []  # token index where each block starts
    for i, text in enumerate(texts):
        starts.append(len(page))
        for tok in tokenize(text):
            page.append(ids.setdefault(tok, len(ids)))
            owner.append(i)
    gold_ids: list[int] = []
    line_start: set[int] = set()
    line_end: set[int] = set()
    for line in gold.splitlines():
        toks = tokenize(line)
        if toks:
            line_start.add(len(gold_ids))
            gold_ids.extend(ids.setdefault(t, len(ids)) for t in toks)
            line_end.add(len(gold_ids))
    counts = [0] * len(texts)
    for o in owner:
        counts[o] += 1
    aligned = [0] * len(texts)
    gold_aligned = 0
    if page and gold_ids:
        for a, b, size in Indel.opcodes(page, gold_ids).as_matching_blocks():
            if not size:
                continue
            if size < min_run:
                blk = owner[a]
                whole_block = starts[blk] == a and counts[blk] == size
                if not (whole_block and b in line_start and b + size in line_end):
                    continue
            gold_aligned += size
            for k in range(a, a + size):
                aligned[owner[k]] += 1
    return Alignment(tuple(aligned), tuple(counts), len(gold_ids), gold_aligned)


def label_blocks(texts: Sequence[str], gold: str, *, share: float = MAIN_SHARE) -> list[int]:
    """1 for each block that is main text by the gold, else 0 (see `align`)."""
    return align(texts, gold).labels(share)
