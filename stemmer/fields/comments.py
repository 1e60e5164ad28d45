"""The built-in ``comments`` field: the readers' comments the page's decision left out of its body.

Which blocks are readers' comments is the decision module's to say
(`stemmer.extract.decide.comment_sections`: the blocks of each comment section that
holds no main text, whichever decided the page, a layout or the classifier); here
they are only cut into comments and read.  The body is never touched: a block of
the body is never a comment.

One comment per commenter, by the repeated structure of the section: the
shallowest element holding `ITEMS_SHARE` of the section's letters whose children
repeat (most of them one tag: WordPress's ``li.comment``, Disqus's ``li.post``; or
a repeating run of tags: Blogger's ``dt``, ``dd``, ``dd``) gives one comment per
child; a reply nested in a comment (an element of the items' tag carrying a class
word they all carry) is a comment of its own.  Blocks outside the items
(the "3 Responses" heading, the "Older comments" links) and the comment form (a
``form``, an element named ``respond`` or ``reply``) are no comment.  A section
without such repetition is one comment.

Each comment is ``{"text": ..., "author": ..., "date": ...}``: its text (its blocks
one per line, less those read as its author and date, headings, short links such
as "Reply", and counts such as "0 Comments" or a vote's "39"; a comment left with
no text is none), the name in its block
whose element is named as an author (``fn``, ``author``, ``vcard``, ``username``,
...) and the date of its first short block that reads as one (ISO 8601: the first date of that line, the day before the month where both could be), each
None where the markup gives none.  A page without readers' comments has no
``comments`` field (as a page without stated tags has no ``tags``).
"""
from __future__ import annotations

import functools
import re
from dataclasses import replace

from stemmer.blocks.block import HEADINGS
from stemmer.classify.features import token_kind
from stemmer.extract.apply import Extraction
from stemmer.extract.decide import comment_sections
from stemmer.layout.bylines import byline_author
from stemmer.metadata.authors import clean_author
from stemmer.metadata.dates import parse_date

FIELD = "comments"
# The element whose children are the comments holds at least this share of the section's letters ...
ITEMS_SHARE = 0.5
# ... and the children of its commonest tag hold this share of its own (the rest: navigation, a heading),
ITEMS_OWN_SHARE = 2 / 3
# each of them holding this many blocks on average (a comment has its author, date and text; a run of
# paragraphs inside one comment has one block each).
ITEM_BLOCKS = 1.5
# The comments so found hold at least this share of the section's letters, else the repetition is
# one inside a part of it (a comment's header and body beside its replies) and the section is one comment.
COMMENTS_SHARE = 0.8
# A comment's date is read from blocks of at most this many characters (a date line, not a sentence).
DATE_CHARS = 80
# A block of nothing but a link of at most this many letters is a comment's tool ("Reply", "Permalink"), not its text.
TOOL_LETTERS = 20
# Class or id words of the comment form, which is no comment.
FORM_WORDS = frozenset({"respond", "reply", "form", "commentform"})
# Class or id words of the element of a comment's author.
AUTHOR_WORDS = frozenset({"author", "fn", "vcard", "name", "username", "user", "commenter", "nick", "poster",
                          "nickname", "by", "header"})
_BYLINE = re.compile(r"\s*(?:posted\s+)?by\b", re.I)
_USER_NUMBER = re.compile(r"\s*\(\s*\d+\s*\)")  # a user's number after the name (Slashdot's)
_SAYS = re.compile(r"\s*(?:says|said|wrote|writes)\s*(?::|\.\.\.|…)?\s*$", re.I)

# A count with at most one word ("39", "0 Comments", "12 replies"): a vote or comment count, no comment's text.
_COUNT = re.compile(r"^\W*\d[\d,.]*\W*(?:\w+\W*)?$")
_DIGIT = re.compile(r"\d")

Comment = dict[str, str | None]


def page_comments(table, main) -> list[Comment]:
    """The page's readers' comments, in page order.

    Args:
        table: the page's `PageTable` (`stemmer.classify.features.page_table`).
        main: the indexes of the blocks its decision kept as main text.
    """
    comments: list[Comment] = []
    for section in comment_sections(table, main):
        section = _outside_form(table, section)
        for item in _items(table, section):
            if (comment := _read(table, item)) is not None:
                comments.append(comment)
    return comments


def with_comments(result: Extraction, table, root=None, page=None) -> Extraction:
    """The record with its readers' comments (`page_comments`) as its ``comments`` field, where it has
    some and its layout names no slot so.

    `table`: the page's `PageTable`; where the run made none (no fallback), it is made from `root`
    only for a page whose blocks' paths name a comment element (`page`: its `PageBlocks`).
    """
    if FIELD in result.fields:
        return result
    if table is None:
        if root is None or page is None or not any(map(_names_comment, {b.path for b in page.blocks})):
            return result
        from stemmer.classify.features import page_table

        table = page_table(root)
    comments = page_comments(table, [b.index for b in result.blocks if b.role == "main" and b.index >= 0])
    return replace(result, fields={**result.fields, FIELD: comments}) if comments else result


def _names_comment(path: tuple[str, ...]) -> bool:
    return any(map(_step_names_comment, path))


@functools.lru_cache(maxsize=100_000)  # a site's paths share their steps
def _step_names_comment(step: str) -> bool:
    """Whether a path step (``tag.class1.class2#id``) names a comment as the page table's marks do."""
    tag, _, ident = step.partition("#")
    classes = tag.split(".")[1:]
    return any(token_kind(t) == "comment" for t in (*classes, *ident.lower().split()))


def _outside_form(table, section: list[int]) -> list[int]:
    """The section's blocks outside its comment form (a ``form``, an element named `FORM_WORDS`)."""
    forms = {e for e in {e for i in section for e in table.ancestors[i]} if _is_form(table.elements[e])}
    return [i for i in section if forms.isdisjoint(table.ancestors[i])] if forms else section


@functools.lru_cache(maxsize=100_000)  # a site names its elements alike on every page
def _is_form(element: tuple[str, tuple[str, ...]]) -> bool:
    return element[0] == "form" or not FORM_WORDS.isdisjoint(element[1])


def _items(table, blocks: list[int]) -> list[list[int]]:
    """The section's blocks cut into comments: by the children of the element, on the way down to
    the section's heaviest part, whose children repeat most often (the comment list's, not a
    "3 comments" line beside it), a reply nested in a comment on its own; the whole section where
    none repeats."""
    if not blocks:
        return []
    weight = {i: table.blocks[i].weight for i in blocks}
    total = sum(weight.values()) or 1
    # Per element holding section blocks: its children holding some (in page order), the blocks under each.
    depth = min(len(table.ancestors[i]) for i in blocks)
    chains = {i: table.ancestors[i] for i in blocks}
    shared = 0
    first = chains[blocks[0]]
    while shared < depth and all(c[shared] == first[shared] for c in chains.values()):
        shared += 1
    level = shared  # the depth of the children of the element at `level - 1`
    holder_blocks = blocks
    found: list[tuple[list, int]] = []  # the repetitions met on the way down, with their depth
    while True:
        children: dict[int, list[int]] = {}
        for i in holder_blocks:
            if len(chains[i]) > level:
                children.setdefault(chains[i][level], []).append(i)
        if not children:
            break
        if sum(weight[i] for kids in children.values() for i in kids) >= ITEMS_SHARE * total:
            if (items := _repeated(table, children, weight)) is not None:
                found.append((items, level, [i for kids in children.values() for i in kids]))
        # go down into the child holding the most letters, while it holds enough of the section
        top = max(children.values(), key=lambda kids: sum(weight[i] for i in kids))
        if sum(weight[i] for i in top) < ITEMS_SHARE * total:
            break
        holder_blocks = top
        level += 1
    if not found:
        return [blocks]
    items, level, under = max(found, key=lambda f: len(f[0]))  # the most comments; of as many, the shallowest
    comments = _nested(table, items, level, under)
    if sum(weight[i] for c in comments for i in c) < COMMENTS_SHARE * total:
        return [blocks]  # a repetition inside a part of the section (a comment's paragraphs), not its comments
    return comments


def _repeated(table, children: dict[int, list[int]], weight: dict[int, int]) -> list[tuple[list[int], list[int]]] | None:
    """The comments among an element's children (element id -> its blocks), each as (its elements, its
    blocks), or None where the children do not repeat.  A run of tags that repeats (``dt dd dd``) makes
    one comment of each run; else the children of the commonest tag, if they hold `ITEMS_OWN_SHARE` of
    the letters and `ITEM_BLOCKS` blocks each on average."""
    kids = list(children)
    tags = [table.elements[e][0] for e in kids]
    period = _period(tags)
    if period is not None and period > 1:
        return [(kids[k:k + period], [i for e in kids[k:k + period] for i in children[e]])
                for k in range(0, len(kids), period)]
    by_tag: dict[str, list[int]] = {}
    for e, tag in zip(kids, tags):
        by_tag.setdefault(tag, []).append(e)
    group = max(by_tag.values(), key=len)
    if len(group) < 2:
        return None
    inside = [i for e in group for i in children[e]]
    if sum(weight[i] for i in inside) < ITEMS_OWN_SHARE * sum(weight[i] for e in kids for i in children[e]):
        return None
    if len(inside) < ITEM_BLOCKS * len(group):
        return None
    return [([e], children[e]) for e in group]


def _period(tags: list[str]) -> int | None:
    """The length of the run of tags that the sequence repeats (its last run may be cut short), if it
    repeats one at least twice; None where it does not."""
    n = len(tags)
    for p in range(1, n // 2 + 1):
        if all(tags[k] == tags[k % p] for k in range(n)):
            return p
    return None


def _nested(table, items: list[tuple[list[int], list[int]]], level: int, under: list[int]) -> list[list[int]]:
    """The comments: each item's blocks, less those of a reply (an element of the items' tag carrying
    one of the class words they all carry, where they share some: ``li.comment.depth-2`` in or beside
    ``li.comment.depth-1``, not a list item of a comment's text), which is a comment of its own; in
    page order.  `under`: the blocks under the items' parent, where a reply list beside its comment
    (Disqus's ``ul.children``) lies; its other blocks (a heading, "Older comments") are no comment."""
    heads = [es[0] for es, _ in items]
    tag = table.elements[heads[0]][0]
    common = set(table.elements[heads[0]][1]).intersection(*(table.elements[e][1] for e in heads[1:]))
    owner_of = {i: es[0] for es, blocks in items for i in blocks}
    out: dict[int, list[int]] = {}
    for i in under:
        owner = owner_of.get(i)
        if common:
            for e in table.ancestors[i][level:]:
                name = table.elements[e]
                if name[0] == tag and not common.isdisjoint(name[1]):
                    owner = e
        if owner is not None:
            out.setdefault(owner, []).append(i)
    return sorted(out.values(), key=lambda b: b[0])


@functools.lru_cache(maxsize=100_000)  # a site names its elements alike on every page
def _names_author(element: tuple[str, tuple[str, ...]]) -> bool:
    return not AUTHOR_WORDS.isdisjoint(element[1])


def _may_date(text: str) -> bool:
    """Whether a block may be a comment's date line: short, with a number in it (asked before the date parser)."""
    return len(text) <= DATE_CHARS and _DIGIT.search(text) is not None


def _read(table, blocks: list[int]) -> Comment | None:
    """One comment's text, author and date; None where it has no text of its own."""
    author = date = None
    used: set[int] = set()
    elements, ancestors = table.elements, table.ancestors
    for i in blocks:
        b = table.blocks[i]
        if author is None and any(map(_names_author, [elements[e] for e in ancestors[i][-2:]])):
            if name := clean_author(_SAYS.sub("", b.text)):
                author = name
                used.add(i)
                if _may_date(b.text) and (d := parse_date(b.text, day_first=True)):
                    date = d
                continue
        if date is None and _may_date(b.text) and (d := parse_date(b.text, day_first=True)):
            date = d
            used.add(i)
            if author is None:  # "by Jane on May 3, 2012", "Posted by: Jane at 7:49 AM"
                author = byline_author(b.text)
            continue
        if author is None and len(b.text) <= DATE_CHARS and _BYLINE.match(b.text) \
                and (name := byline_author(_SAYS.sub("", _USER_NUMBER.sub("", b.text)))):
            author = name  # "by garaged (579941) writes:"
            used.add(i)
    text = "\n".join(b.text for i in blocks if i not in used and (b := table.blocks[i]).text
                     and b.tag not in HEADINGS and not (b.anchor_weight == b.weight <= TOOL_LETTERS)
                     and not _COUNT.match(b.text))
    if not text:
        return None
    return {"text": text, "author": author, "date": date}
