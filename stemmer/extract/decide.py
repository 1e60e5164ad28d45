"""How a page's blocks are decided: main text or not.

Two decisions, in the order a page meets them.

**A page no layout covers** (`page_blocks`): which of its blocks are main text, given the
classifier's probabilities.  The classifier (`stemmer.classify`) scores each block; `page_blocks` turns those
scores into the page's main text.  It is the one decision `extract` runs for a page
no layout covers (`Fallback`), and the one the learned-site decision asks where it
needs the classifier's view of a page.  In order:

1. the blocks at the model's threshold or more (`DOMINANT_SHARE`: a page where none
   is keeps its one block holding most of its letters);
2. readers' comments: blocks in a comment section go where the page has text outside
   it before it (`before_section`), unless the section is a forum's thread (`is_thread`);
3. with `regions` (a model that never saw the site): teaser lists the model doubts beside
   an article (`drop_teaser_lists`), captions beside an image and their widget's labels,
   embedded social posts (`drop_embedded`), then runs of chosen blocks in a region of the
   page other than the article's (`drop_boilerplate_regions`, `article_run`), then a
   passage's copy outside the `<article>` (`drop_repeats`).

docs/classifier.md says why each rule is there and what it was measured against;
alternatives measured and not kept (a Viterbi decision over the block sequence)
live in benchmarks/.  Only numpy.

**A page that matched a layout** (`is_main`, `decides_alone`, `SlotEvidence`).  On a page that matched a layout, each block's slot gives the layout's vote
(main, or not), and the classifier's page decision gives another; the two
weigh together by how much the layout saw of that slot.  A slot seen on
many pages decides alone; one learned from two or three pages (a new crawl,
a rare layout) leans on the classifier, which has read thousands of sites:
a lede in its own wrapper that three pages marked as a varying but not main
slot is kept.  A layout's vote for main text stands: on the dev sets no
weight for the classifier against it did better (see `CLASSIFIER_PAGES_MAIN`).
"""
from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

import numpy as np

from stemmer.blocks.block import BLOCK_TAGS, HEADINGS

# A page where the classifier finds no main text still gives its one block holding this
# share of its letters.  With the shipped model on cleaneval, l3s_gn1, dragnet and
# cleanportaleval, this gives cleaneval's two one-block pages their text and changes no other page.
DOMINANT_SHARE = 0.5
# A page whose chosen blocks are all readers' comments takes instead its blocks outside
# them of at least this share of the best one's probability, if they hold
# `ARTICLE_LETTERS` letters or more (else it is a forum thread, and keeps its comments).
# Chosen on the single-page dev sets with the generic model (benchmarks/CLASSIFIER-LOG.md).
ARTICLE_SHARE = 0.5
ARTICLE_LETTERS = 100
# Those blocks lie before the comment section (`before_section`), and the best of them scores this share
# of the model's threshold or more: on dragnet the articles this rule finds score 0.20 to 0.32 at best
# (threshold 0.35); a forum's jump menu or "recently browsing" box beside its posts about 0.15.
ARTICLE_FLOOR = 0.5
# A block's last `POST_TAIL` tag path steps (class and id included) are the shape of the post it is in:
# where most of the chosen letters in a comment section share one with the chosen blocks outside it, the
# section holds more posts of the same thread (Vanilla's discussion, then its `CommentsWrap`), not readers'
# comments.  The region step reads the same shape as the article's (`drop_boilerplate_regions`).
POST_TAIL = 3
# A stretch of `COPY_BLOCKS` or more chosen blocks holding `COPY_LETTERS` letters or more that repeats, block
# for block at the same distance, chosen blocks earlier on the page is a second copy of them (a product's
# description in a desktop and a mobile panel, one hidden by a stylesheet the page links to): a reader sees one.
COPY_BLOCKS = 3
COPY_LETTERS = 100
# A teaser list ("latest", "most popular", "related"): `TEASER_ITEMS` or more items in a row, each a
# headline link and up to `TEASER_EXCERPT_BLOCKS` blocks of its excerpt, the headlines of one shape and
# the excerpts of one, each excerpt `TEASER_EXCERPT_LETTERS` letters at most and ending as a sentence
# (`teaser_lists`).  It is not main text where the model doubts it (its letters average a probability
# under `TEASER_DOUBT`) and is surer of the rest by `TEASER_MARGIN` (`drop_teaser_lists`).  On the dev
# sets the lists the gold keeps (listings, roundups, an article's linked sections) average 0.7 or more.
TEASER_ITEMS = 3
TEASER_EXCERPT_BLOCKS = 3
TEASER_EXCERPT_LETTERS = 300
TEASER_DOUBT = 0.6
TEASER_MARGIN = 0.2
# Neither comment rule applies to a thread (`is_thread`): a page whose first h1 heading comes before
# its comment section with fewer than `ARTICLE_LETTERS` letters of its own text between them, where
# the "comments" are its posts (a forum whose thread is marked up as `comments`).
# Where the article ends (`drop_boilerplate_regions`): a run of chosen blocks after the
# article is outside it if less than this share of its letters lies in the article's container;
BOILERPLATE_INSIDE_SHARE = 0.5
# a run other than the article's is a list of links if more than this share of its letters is link text;
BOILERPLATE_LINK_SHARE = 0.5
# and a class or id word holding one of these marks a region of the page that is not main text
# (as in readability's and trafilatura's lists of unlikely candidates), as does one that is a comment
# area's whole name (`comments`, `trackbacks`, WordPress's `respond`; not `commentary`), which the
# comment rules miss where its element is named `aol-comments` or `atp-comments`.  A comment area
# follows the article it is about, so such a word marks only the blocks after the article's anchor:
# before it, a box named `comments` is a forum thread's posts, and inside the article an arXiv
# listing's `list-comments` lines or a section whose id spells its heading "Respond to review comments".
COMMENT_AREA_WORDS = re.compile("^(?:comments?|trackbacks?|respond)$")
BOILERPLATE_WORDS = re.compile("sidebar|widget|promo|related|share|social|newsletter|subscri|footer|nav|menu|meta"
                               f"|{COMMENT_AREA_WORDS.pattern}")
# unless the article's own text carries it: one found inside the article's container on elements
# around this share of its letters is the page's name for its paragraphs (`elementor-widget`).  Where
# the article's run is one of a repeated structure (below), its own text is the structure's runs (those
# the markup does not place away from it) inside the element holding them all: a listing whose every
# item sits in a `post-meta` or `widget-content` box keeps its items.
OWN_WORD_SHARE = 0.5
# Runs holding blocks of one tag path (class and id included) are one repeated structure: the items
# of a listing, the posts of a thread.  Where one holds this many times the prose of the best single
# run, the article is its best run (a listing's teasers, not the cookie notice beside them).
REPEAT_SHARE = 2.0
# The article is the run with the most letters x probability, a block's letters counting in full
# where it ends as a sentence does and at this share where not (headlines, teasers),
UNFINISHED_SHARE = 0.5
# A run other than the article's with a block of the `shape_path` (class and id words' numbered parts set aside)
# of article blocks holding this share of the article's prose or more is the article's structure too: a listing's
# cards numbered in their classes (`card-7`), after one the model scored under the threshold.  Not the first two
# items of a "most watched" list that no unchosen block parts from the article (a sliver of its prose).
# On the dev sets any share from 0.1 to 0.5 gives the same pages.
SHAPE_SHARE = 0.25
# and its link text at this share: a listing's items are often links from end to end (title and
# teaser one `<a>`), and counted at 0 they lose to the cookie notice or menu callout beside them.
LINK_SHARE = 0.2
# A run the page's markup places away from its article counts at this share of its prose when choosing
# the article (`off_article`): one inside a side column (an element around it, below those around every
# chosen block, with a class or id word holding `SIDEBAR_WORD`), or, where some run lies in an element
# whose class or id names an article's body (`entry-content`, `post-body`, `hentry`, ...), one outside
# every such element.  The model rates a column of recent comments or an "about me" box as prose.
OFF_ARTICLE_SHARE = 0.1
SIDEBAR_WORD = re.compile("sidebar")
BEM_MODIFIER = re.compile(r"--[^.#]*")
# An element named as an article's body (the PageTable's `content`) counts as one where a class or id
# word of it holds one of these (`entry-content`, `post-body`, `hentry`, `storytext`), or where it is
# the page's `<main>`: a generic name (`main-content`, `pagebody`) on any other element is a layout's
# wrapper (a page-wide `pagebody`, eBay's `maincontent` column beside a product's description) and
# says nothing of where the article is.
ARTICLE_BODY_WORD = re.compile("article|post|entry|story|blog|news|single")
SENTENCE_ENDS = tuple(".!?。！？…\"”’")
# A caption or credit: a chosen block in an element (its own or its parent) that is a `figcaption`
# or has a class or id word holding `CAPTION_WORD` (inside compound words too: `wp-caption-text`,
# `articleEmbedCaption`, `photocredit`), where that element or its parent holds an image.
CAPTION_WORD = re.compile("caption|credit")
# A figure whose caption lies some levels away from its image (`<figure><div><img></div><div><div><p>`):
# the nearest element around a chosen block, of its `FIGURE_LEVELS` nearest, that holds an image is the
# block's figure.  Its text is a caption where markup names one between them (a `figcaption`, a caption
# word; not a `figure`, which holds quotations too), or where the figure holds one photo and at most
# `FIGURE_LETTERS` letters (below).
FIGURE_LEVELS = 4
FIGURE_LETTERS = 200
# Unnamed, a figure is one photo (a row of share icons is none) with one block of text that is no heading,
# no label and no quotation (a card's heading and text beside an icon, a testimonial beside its author's
# face are the page's), or a video's slide: its photo,
# a `DURATION` ("2:34"), a title and a blurb.
DURATION = re.compile(r"\s*\d{1,2}(?::\d\d){1,2}\s*$")
# An element named as the article's body (the PageTable's `content`) or of one of these tags is no figure:
# its image is the article's (a post of one photo and two lines) or its author's (a headline with a portrait).
NO_FIGURE_TAGS = frozenset({"article", "main", "header", "body", "html"})
# A widget's label beside a caption ("hide caption", "Up next", "Close", "3 / 12"): a chosen block of at
# most `LABEL_LETTERS` letters that does not end as a sentence does, next to a caption (no other chosen
# block between) and inside an element at most `LABEL_LEVELS` levels around the caption's figure (a
# playlist around its list of slides) whose text is all captions and such labels.
LABEL_LETTERS = 20
LABEL_LEVELS = 2
# Captions holding more than this share of the chosen letters are the page's text (a photo essay).
CAPTION_SHARE = 1 / 3
# An embedded social post (a tweet, an Instagram post) is a `<blockquote>` that its class or id words, or
# its parent's, name as one (`twitter-tweet`, `instagram-media`), or whose text signs it with a handle
# ("— Name (@handle) June 1, 2021", "A post shared by Name (@handle)"): a quotation signed by a name alone
# stays the article's.  Like captions, such posts holding more than `CAPTION_SHARE` of the chosen letters
# are the page's text.
SOCIAL_WORD = re.compile("twitter|tweet|instagram|tiktok|facebook|mastodon|bluesky|reddit")
SOCIAL_HANDLE = re.compile(r"\(@\w{1,30}\)|^\s*[—–-]+\s*\S.*\s@\w{1,30}\b|pic\.twitter\.com/")
# A passage shown twice (a standfirst in the page's header repeated as the body's first paragraph, a
# caption in a thumbnail strip and in the full view): a reader reads one copy of a chosen block's text
# of at least `REPEAT_LETTERS` letters, the one in the `<article>` (`drop_repeats`).
REPEAT_LETTERS = 40


def page_blocks(table, probs, threshold: float, *, regions: bool = True):
    """Which blocks of the `PageTable` are main text: those of probability `threshold` or more.

    Where none is, but one block holds `DOMINANT_SHARE` of the page's letters,
    that block: the page is a single run of text.  Where some are in a comment
    section and some before it are not, those in it are readers' comments, not main text
    (a page of nothing but comments, or one whose comment section follows its
    title directly, a forum thread, keeps them).  A second copy of chosen blocks goes
    (`drop_copies`).  Last, with
    `regions`, teaser lists the model doubts beside an article go (`drop_teaser_lists`),
    then what a reader skips inside the body (`drop_embedded`: captions and their
    widget's labels, embedded posts), then chosen blocks in regions other than the
    article's (`drop_boilerplate_regions`); last, a passage shown twice is read once
    (`drop_repeats`), after the regions are read as the choice drew them.
    """
    chosen = np.asarray(probs) >= threshold
    thread = False  # whether the comment section's chosen blocks are the page's thread, kept
    if len(chosen) and not chosen.any():
        weights = [b.weight for b in table.blocks]
        top = max(range(len(weights)), key=weights.__getitem__)
        chosen[top] = weights[top] >= DOMINANT_SHARE * sum(weights)
    # Neither rule applies where no chosen block is in a comment section (most pages): asked of those alone.
    if table.comments and not all(table.comments.isdisjoint(table.ancestors[i]) for i in np.flatnonzero(chosen).tolist()):
        comment = np.array([not table.comments.isdisjoint(anc) for anc in table.ancestors], dtype=bool)
        if (chosen & comment).any() and (chosen & ~comment).any():
            thread = (is_thread(table, chosen, comment) or same_posts(table, chosen, comment)
                      or not (chosen & before_section(chosen, comment)).any())
            if not thread:
                chosen &= ~comment
        elif chosen.any() and not (chosen & ~comment).any() and not comment.all():
            outside = np.where(before_section(chosen, comment), np.asarray(probs, dtype=float), -1.0)
            article = outside >= ARTICLE_SHARE * outside.max()
            if (outside.max() >= ARTICLE_FLOOR * threshold
                    and sum(b.weight for b, a in zip(table.blocks, article) if a) >= ARTICLE_LETTERS
                    and not is_thread(table, chosen, comment)):
                chosen = article
            else:  # the section is all the page's main text has: its thread
                thread = True
    chosen = drop_copies(table, chosen)
    if not regions:
        return chosen
    chosen = drop_teaser_lists(table, probs, chosen)
    kept = drop_embedded(table, chosen)
    return drop_repeats(table, drop_boilerplate_regions(table, probs, kept, thread=thread), skipped=chosen & ~kept)


def drop_copies(table, chosen):
    """`chosen` less the stretches of chosen blocks that copy earlier ones (`COPY_BLOCKS`)."""
    first: dict[str, int] = {}
    copies = []  # (block, the earlier block it copies), in page order
    for i in np.flatnonzero(chosen).tolist():
        if (j := first.setdefault(table.blocks[i].text, i)) != i:
            copies.append((i, j))
    k = 0
    while k < len(copies):
        m = k  # the stretch: consecutive copies at one distance from their originals, blocks between them unchosen
        while m + 1 < len(copies) and copies[m + 1][0] - copies[m + 1][1] == copies[k][0] - copies[k][1] \
                and not chosen[copies[m][0] + 1:copies[m + 1][0]].any():
            m += 1
        stretch = [i for i, _ in copies[k:m + 1]]
        if len(stretch) >= COPY_BLOCKS and sum(table.blocks[i].weight for i in stretch) >= COPY_LETTERS:
            chosen = chosen.copy()
            chosen[stretch] = False
        k = m + 1
    return chosen


def before_section(chosen, comment):
    """The blocks outside the comment section before its first `chosen` block: where the article its
    comments are about lies (readers' comments follow an article; a forum's jump menu, its "recently
    browsing" box or a cookie panel after the posts is none)."""
    before = ~comment
    before[int(np.flatnonzero(chosen & comment)[0]):] = False
    return before


def drop_teaser_lists(table, probs, chosen):
    """`chosen` less its teaser lists (`teaser_lists`) that the model doubts beside an article it does not.

    A "latest", "most popular" or "related" list (a headline link, then a sentence or
    three of each story) reads to the classifier as prose, often in one run with the
    article it follows, and its excerpts can outweigh a short article.  The model is
    less sure of it than of the article: a list goes where its letters (outside links)
    average a probability under `TEASER_DOUBT` and `TEASER_MARGIN` or more under that
    of the chosen blocks outside every list.  A listing's items, an article's list of
    linked sections, a blog's front page of posts score as high as the rest, and stay.
    """
    lists = teaser_lists(table, chosen)
    if not lists:
        return chosen
    p = np.asarray(probs, dtype=float)
    letters = np.array([b.weight - b.anchor_weight for b in table.blocks], dtype=float)
    rest = chosen.copy()
    for items in lists:
        rest[items] = False
    if (held := letters[rest].sum()) < ARTICLE_LETTERS:  # no article beside them (a headline alone): a listing
        return chosen
    sure = float((letters[rest] * p[rest]).sum() / held)
    kept = chosen.copy()
    for items in lists:
        doubt = float((letters[items] * p[items]).sum() / max(letters[items].sum(), 1.0))
        if doubt < TEASER_DOUBT and sure - doubt >= TEASER_MARGIN:
            kept[items] = False
    return kept


def teaser_lists(table, chosen) -> list[list[int]]:
    """The teaser lists among the `chosen` blocks: `TEASER_ITEMS` or more items in a row, each a headline
    (a chosen block of link text mostly) and the chosen blocks up to the next headline (at most
    `TEASER_EXCERPT_BLOCKS`, not links mostly, those after the first in the element holding it and
    the headline), their headlines of one `shape_path` and their first excerpts of one.  Each list
    as the indexes of its blocks, in page order."""
    blocks = table.blocks
    items: list[list[int]] = []  # (headline, excerpts...) in page order
    for i in np.flatnonzero(chosen).tolist():
        b = blocks[i]
        if 2 * b.anchor_weight >= b.weight > 0:
            items.append([i])
        elif items and 0 < len(items[-1]) <= TEASER_EXCERPT_BLOCKS and (
                len(items[-1]) == 1 or run_container(table, items[-1][:2]) in table.ancestors[i]):
            items[-1].append(i)  # an excerpt's later blocks lie in the element holding its headline and first block
        elif items and items[-1]:
            items.append([])  # a block after an excerpt too long for a teaser's ends the list
    lists, row, key = [], [], None
    for item in items + [[]]:
        k = None
        if (len(item) > 1 and sum(blocks[i].weight for i in item[1:]) <= TEASER_EXCERPT_LETTERS
                and blocks[item[-1]].text.rstrip().endswith(SENTENCE_ENDS)):
            k = (shape_path(blocks[item[0]].path), shape_path(blocks[item[1]].path))
        if k is not None and k == key:
            row.append(item)
            continue
        if len(row) >= TEASER_ITEMS:
            lists.append([i for it in row for i in it])
        row, key = ([item], k) if k is not None else ([], None)
    return lists


@functools.lru_cache(maxsize=100_000)  # a page repeats its few paths
def shape_path(path: tuple[str, ...]) -> tuple[str, ...]:
    """A block's tag path with the parts of class and id words that hold a digit set aside (`post-1234` and
    `post-77` read `post-`, `css-1x9ab` `css-`): the items of one list share it where their markup numbers
    or hashes each, and a post's `post-N` stays apart from a comment's `comment-N`."""
    return tuple(map(_shape_step, path))


@functools.lru_cache(maxsize=100_000)
def _shape_step(enc: str) -> str:
    cut = min((k for k in (enc.find("."), enc.find("#")) if k >= 0), default=len(enc))  # the tag (`h2`) stays
    if not any(c.isdigit() for c in enc[cut:]):
        return enc
    return enc[:cut] + _NUMBERED_PART.sub("", enc[cut:])


_NUMBERED_PART = re.compile(r"[^-_.#]*[0-9][^-_.#]*")


def same_posts(table, chosen, comment) -> bool:
    """Whether half or more of the chosen letters in the comment section lie in blocks whose last
    `POST_TAIL` path steps are those of a chosen block outside it: the thread's next posts."""
    blocks = table.blocks
    tails = {blocks[i].path[-POST_TAIL:] for i in np.flatnonzero(chosen & ~comment).tolist()}
    inside = np.flatnonzero(chosen & comment).tolist()
    same = sum(blocks[i].weight for i in inside if blocks[i].path[-POST_TAIL:] in tails)
    return same >= 0.5 * sum(blocks[i].weight for i in inside)


def is_thread(table, shown, comment) -> bool:
    """Whether the page's comment section is its thread: its first h1 heading (outside the section)
    comes before the first `shown` block in the section, with fewer than `ARTICLE_LETTERS` letters
    of `shown` blocks outside the section between them.

    Readers' comments follow an article; a forum's posts follow the thread's title
    directly, whatever their markup calls them.  `shown` is what the model chose: a
    thread's header (author, date, share link) scored under the threshold is no article.
    """
    heading = next((i for i, b in enumerate(table.blocks) if b.tag == "h1" and not comment[i]), None)
    first = int(np.flatnonzero(shown & comment)[0])
    if heading is None or heading > first:
        return False
    between = shown[heading + 1:first] & ~comment[heading + 1:first]
    return sum(table.blocks[i].weight for i in np.flatnonzero(between) + heading + 1) < ARTICLE_LETTERS


def comment_sections(table, main) -> list[list[int]]:
    """The page's readers' comment sections, in page order, each as the indexes of its blocks: the blocks
    around which the outermost element is a comment section (`PageTable.comments`, the marks
    `page_blocks`' comment rules read), for each such element that holds no `main` block.

    Read-only: it names what the decision left out, never changes it.  `main` is the page's
    decision, however it was made (a layout's, the classifier's: a sequence of block indexes or a
    mask).  A section holding main text is the page's own text (a forum's thread, which `is_thread`
    and `same_posts` keep): its other blocks are a post's frame, not readers' comments.
    """
    marks = table.comments
    if not marks:
        return []
    sections: dict[int, list[int]] = {}  # the outermost comment element around a block -> its blocks
    for i, anc in enumerate(table.ancestors):
        if not marks.isdisjoint(anc):
            sections.setdefault(next(e for e in anc if e in marks), []).append(i)
    if not sections:
        return []
    chosen = set(np.flatnonzero(main).tolist()) if isinstance(main, np.ndarray) else set(main)
    return [inside for inside in sections.values() if chosen.isdisjoint(inside)]


def drop_embedded(table, chosen):
    """`chosen` less what a reader skips inside an article's body: captions and their widget's
    labels (`drop_captions`) and embedded social posts (`drop_social_posts`).  Before the region
    step, as the caption rule was (a related-links box beside a caption stays a run of its own);
    their copies elsewhere, and a passage's copy outside the article, go after it (`drop_repeats`)."""
    return drop_social_posts(table, drop_captions(table, chosen))


def images_inside(table) -> tuple[np.ndarray, np.ndarray]:
    """Per element, how many images lie inside it, and how many of those lie outside the text of every
    block that reads as text (`is_label`): photos, not an emoji or an icon inside a sentence
    (`PageTable.images` counts those of each block); a thumbnail beside a slide's duration is one."""
    n = len(table.elements)
    counts = [0] * (n + 1)  # the last: the root's parent
    for e, (tag, _) in enumerate(table.elements):
        if tag == "img":
            counts[e] = 1
    parent = table.parent
    for e in range(n - 1, -1, -1):  # a parent comes before its children
        if c := counts[e]:
            counts[parent[e]] += c
    images = np.array(counts[:n], dtype=np.int64)
    photos = images.copy()
    for k, b, anc in zip(table.images, table.blocks, table.ancestors):
        if k and not is_label(b):
            photos[list(anc)] -= k
    return images, photos


def is_label(block) -> bool:
    """Whether a block reads as a label, not as text: `LABEL_LETTERS` letters at most, not ending as a sentence."""
    return block.weight <= LABEL_LETTERS and not block.text.rstrip().endswith(SENTENCE_ENDS)


def _names_caption(element: tuple[str, tuple[str, ...]]) -> bool:
    tag, words = element
    return tag == "figcaption" or any(CAPTION_WORD.search(w) for w in words)


def drop_captions(table, chosen):
    """Drop the chosen blocks that caption an image, and the widget labels beside them, unless
    captions are the page's text (`CAPTION_SHARE`).

    A caption says what a photo shows or who took it; the article's text does not
    need it, and the classifier, which reads it as a sentence, keeps it.  The
    evidence is scored together: a block is a caption where its figure (the nearest
    element around it holding an image, `FIGURE_LEVELS`, not one named as the
    article's body, with at least as many chosen letters beside it as in it, within
    `LABEL_LEVELS` levels around it) is one photo and little text (`FIGURE_LETTERS`:
    the caption alone, or a video slide's), or where markup names a caption
    (`CAPTION_WORD`, `figcaption`) on an element between the block and its figure;
    or where markup names a caption on one of its two nearest elements whose own
    parent holds an image.
    """
    shown = np.flatnonzero(chosen).tolist()
    if not shown or not any(tag == "img" for tag, _ in table.elements):
        return chosen
    elements, ancestors, parent = table.elements, table.ancestors, table.parent
    held, photo = images_inside(table)
    body = table.content | {e for e, (tag, _) in enumerate(elements) if tag in NO_FIGURE_TAGS}
    figure: dict[int, int] = {}  # chosen block -> its figure
    for i in shown:
        if not ancestors[i] or (table.images[i] and not is_label(table.blocks[i])):
            continue  # text with an image inside it is no caption of it
        own = photo[ancestors[i][-1]]  # the image must lie in a branch beside the block's own element
        for e in reversed(ancestors[i][-FIGURE_LEVELS:-1]):
            if photo[e] > own:
                if e not in body:  # an element named as the article's body, or its header, is no figure in it
                    figure[i] = e
                break
    if figure:  # per element: its letters, blocks, chosen letters, and whether a block of it is a duration
        letters, texts, shown_in, timed = _sums(table, chosen)
        # a figure sits beside the article's text; one whose surroundings hold less chosen text is the article
        figure = {i: e for i, e in figure.items()
                  if max(shown_in[up] for up in _levels_up(parent, e, LABEL_LEVELS)) - shown_in[e] >= letters[e]}
    captions, unnamed = [], {}  # unnamed: the captions told by their figure alone, by their tag path
    for i in shown:
        anc = ancestors[i]
        if any(_names_caption(elements[e]) and (held[e] or (parent[e] >= 0 and held[parent[e]])) for e in anc[-2:]):
            captions.append(i)
        elif (e := figure.get(i)) is None:
            continue
        elif any(_names_caption(elements[a]) for a in anc[anc.index(e):]):
            captions.append(i)
        elif letters[e] <= FIGURE_LETTERS and photo[e] - photo[anc[-1]] == 1 and (timed[e] or (
                texts[e] == 1 and table.blocks[i].tag not in HEADINGS and not is_label(table.blocks[i])
                and all(elements[a][0] != "blockquote" for a in anc[anc.index(e):]))):
            unnamed.setdefault(table.blocks[i].path, []).append((i, timed[e]))
    # one photo with a line beside it, repeated, is a list of items with icons (a service's features)
    captions += [i for group in unnamed.values() for i, timed_ in group if len(group) == 1 or timed_]
    if not captions:
        return chosen
    captions += widget_labels(table, chosen, captions, figure)
    weights = np.array([b.weight for b in table.blocks], dtype=float)
    if weights[captions].sum() > CAPTION_SHARE * weights[chosen].sum():
        return chosen
    chosen = chosen.copy()
    chosen[captions] = False
    return chosen


def _sums(table, chosen) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per element (and a last entry, 0, for the root's parent): the letters of its blocks, how many
    blocks it holds, the letters of its chosen blocks, and whether one of its blocks is a `DURATION`."""
    n = len(table.elements) + 1
    depth = np.fromiter(map(len, table.ancestors), dtype=np.int64, count=len(table.ancestors))
    flat = np.fromiter(itertools.chain.from_iterable(table.ancestors), dtype=np.int64, count=int(depth.sum()))
    weights = np.array([b.weight for b in table.blocks], dtype=float)
    duration = np.array([bool(DURATION.match(b.text)) for b in table.blocks], dtype=float)
    owner = np.repeat(np.arange(len(depth)), depth)
    return (np.bincount(flat, weights[owner], n), np.bincount(flat, minlength=n),
            np.bincount(flat, (weights * chosen)[owner], n), np.bincount(flat, duration[owner], n) > 0)


def _levels_up(parent, e: int, levels: int) -> list[int]:
    """The elements 1 .. `levels` levels around element `e` (-1 past the root)."""
    ups = []
    for _ in range(levels):
        e = parent[e] if e >= 0 else -1
        ups.append(e)
    return ups


def widget_labels(table, chosen, captions: list[int], figure: dict[int, int]) -> list[int]:
    """The chosen labels (`is_label`) next to a caption, inside an element around its figure
    (`LABEL_LEVELS`) whose text is all captions and labels: the widget's, not the page's."""
    blocks, ancestors, parent = table.blocks, table.ancestors, table.parent
    is_caption = set(captions)
    shown = np.flatnonzero(chosen).tolist()
    labels: list[int] = []
    widgets: dict[int, bool] = {}  # element -> whether its text is all captions and labels

    def widget(e: int) -> bool:
        if e not in widgets:
            widgets[e] = all(i in is_caption or is_label(b) for i, (b, anc) in enumerate(zip(blocks, ancestors))
                             if e in anc)
        return widgets[e]

    for k, i in enumerate(shown):
        if i in is_caption or not is_label(blocks[i]):
            continue
        for step in (-1, 1):  # the nearest chosen block on each side that is not a label
            j = k + step
            while 0 <= j < len(shown) and shown[j] not in is_caption and is_label(blocks[shown[j]]):
                j += step
            if 0 <= j < len(shown) and shown[j] in is_caption:
                c = shown[j]
                box = figure.get(c, ancestors[c][-1] if ancestors[c] else -1)
                scope = next((e for e in [box] + _levels_up(parent, box, LABEL_LEVELS) if e in ancestors[i]), -1)
                if scope >= 0 and widget(scope):
                    labels.append(i)
                    break
    return labels


def drop_social_posts(table, chosen):
    """Drop the chosen blocks of social posts embedded in the body (`SOCIAL_WORD`, `SOCIAL_HANDLE`),
    unless they are the page's text (`CAPTION_SHARE`)."""
    elements, ancestors, parent, blocks = table.elements, table.ancestors, table.parent, table.blocks
    quotes = {e for i in np.flatnonzero(chosen).tolist() for e in ancestors[i] if elements[e][0] == "blockquote"}
    if not quotes:
        return chosen
    inside: dict[int, list[int]] = {e: [] for e in quotes}
    for i, anc in enumerate(ancestors):
        for e in quotes.intersection(anc):
            inside[e].append(i)
    posts = set()
    for e, members in inside.items():
        words = elements[e][1] + (elements[parent[e]][1] if parent[e] >= 0 else ())
        if any(SOCIAL_WORD.search(w) for w in words) or any(SOCIAL_HANDLE.search(blocks[i].text) for i in members):
            posts.update(i for i in members if chosen[i])
    if not posts:
        return chosen
    posts = sorted(posts)
    weights = np.array([b.weight for b in blocks], dtype=float)
    if weights[posts].sum() > CAPTION_SHARE * weights[chosen].sum():
        return chosen
    chosen = chosen.copy()
    chosen[posts] = False
    return chosen


def drop_repeats(table, chosen, skipped=None):
    """Read a passage shown twice once (`REPEAT_LETTERS`, not links): where a chosen block's text is
    that of two blocks, the earlier outside every `<article>` element and the later inside one, the
    later is chosen and the earlier not (a standfirst in the page's header repeats the article's first
    paragraph).  Copies inside one article (a reply quoting a post, a description in a tab and a
    hidden panel) are left as the classifier chose them.  `skipped`: the blocks an earlier step
    dropped (captions, embedded posts); a copy of one goes too.
    """
    blocks, ancestors, elements = table.blocks, table.ancestors, table.elements
    copies: dict[str, list[int]] = {}
    for i, b in enumerate(blocks):
        if b.weight >= REPEAT_LETTERS and b.anchor_weight * 2 < b.weight:  # a link's text repeats a headline
            copies.setdefault(b.text, []).append(i)
    groups = [same for same in copies.values() if len(same) > 1 and chosen[same].any()]
    if not groups:
        return chosen
    articles = {e for e, (tag, _) in enumerate(elements) if tag == "article"}
    chosen = chosen.copy()
    for same in groups:
        if skipped is not None and skipped[same].any():  # a caption's text is one wherever the page shows it
            chosen[same] = False
        elif len(same) == 2 and articles.isdisjoint(ancestors[same[0]]) and not articles.isdisjoint(ancestors[same[1]]):
            chosen[same] = False, True
    return chosen


def drop_boilerplate_regions(table, probs, chosen, *, thread: bool = False):
    """Drop the chosen blocks that lie in a region of the page other than the article.

    Most of the boilerplate the classifier keeps lies after the article (a sidebar
    column, the comment form, related and newsletter boxes), so the decision is per
    region, on evidence scored together.  The article is the run of consecutive
    chosen blocks with the most letters × probability, sentences counting more than
    lines that do not end as one (`UNFINISHED_SHARE`: not a long column of links or
    teasers) and link text a fifth (`LINK_SHARE`), unless runs that share a tag path
    hold `REPEAT_SHARE` times its prose together (a listing's items: `article_run`), a
    run the markup places away from the article (a side column: `off_article`)
    counting a tenth; its container is the innermost element holding that run, its
    anchor the run's block of most letters outside links × probability.
    A run's score (never below 0) is
      +1  it comes after the article and lies mostly outside its container (the element
          holding its whole structure, where the article is a listing's item);
      +1  it is not the article's and is mostly link text: related posts, tags, menus;
      -1  it is not the article's and has a block with the tag path of an article
          block (or its `shape_path`, where the article's blocks of that shape hold
          `SHAPE_SHARE` of its prose), or, outside the article's container and ending
          as a sentence, that path once class and id are set aside or its last
          `POST_TAIL` steps: the next item of a listing, the next
          post of a forum thread, the second part of a body split around a figure or
          an advertisement.
    A block is dropped where its run's score, +1 if an element around it that is not
    around the anchor has a class or id word of `BOILERPLATE_WORDS` that the article's
    own text (its structure's, for a listing's item) does not carry, reaches 1; a comment
    area's name marks only blocks after the anchor, and none where the comment section is
    the page's `thread` (kept by the comment rules).
    """
    runs = chosen_runs(chosen)
    if not runs:
        return chosen
    blocks, ancestors, elements = table.blocks, table.ancestors, table.elements
    # Per chosen block (the only ones looked at): its letters, its link letters, whether it ends as a sentence.
    shown = [i for run in runs for i in run]
    letters, link_letters, ends = {}, {}, {}
    for i in shown:
        b = blocks[i]
        letters[i], link_letters[i], ends[i] = b.weight, b.anchor_weight, b.text.rstrip().endswith(SENTENCE_ENDS)
    weights = np.array(list(letters.values()), dtype=float)
    text = weights - np.array(list(link_letters.values()), dtype=float)
    sentence = np.array(list(ends.values()), dtype=float)
    p = np.asarray(probs, dtype=float)[shown]
    prose = np.zeros(len(blocks))  # by block, 0 for those not chosen
    prose[shown] = (text + LINK_SHARE * (weights - text)) * p * (UNFINISHED_SHARE + (1 - UNFINISHED_SHARE) * sentence)
    core, structure = article_run(table, runs, prose)
    container = run_container(table, runs[core])
    article_paths = {blocks[i].path for i in runs[core]}
    # the shapes of the article's structure: those holding `SHAPE_SHARE` of its prose or more (a listing's
    # items numbered in their class), not a pair of links in its run (the first items of a list after it)
    shape_prose: dict[tuple[str, ...], float] = {}
    for i in runs[core]:
        key = shape_path(blocks[i].path)
        shape_prose[key] = shape_prose.get(key, 0.0) + prose[i]
    article_shapes = {k for k, v in shape_prose.items() if v > 0 and v >= SHAPE_SHARE * sum(shape_prose.values())}
    article_plain: set[tuple[str, ...]] = set()  # their `plain_path`s, made where first asked (most pages never ask)
    article_tails: set[tuple[str, ...]] = set()  # and their last `POST_TAIL` steps
    mass = dict(zip(shown, (text * p).tolist()))
    anchor = max(runs[core], key=mass.__getitem__)
    around_anchor = set(ancestors[anchor])
    # An element shaped as one around the anchor (its tag, class and id words) is the next item of the
    # article's own structure (a forum's `comment-N_wrap` posts): its words name that structure, no region.
    anchor_shapes = {elements[e] for e in around_anchor}
    # The `BOILERPLATE_WORDS` of the elements around chosen blocks, where they have some.
    region_words = {e: words for e in _around(ancestors, shown)
                    if (named := elements[e][1]) and (words := region_marks(named)[0])}
    if thread:  # a thread's posts are marked up as comments: that name is no mark of another region
        region_words = {e: kept for e, words in region_words.items()
                        if (kept := frozenset(w for w in words if not COMMENT_AREA_WORDS.match(w)))}
    own = [i for r in structure for i in runs[r]]
    # A listing's article is its structure: what lies after it is outside the element holding all its items.
    holder = run_container(table, own) if len(structure) > 1 else container
    own_words = article_words(table, own, holder, mass, region_words)
    # The elements that mark a block in them as boilerplate: after the anchor, any with a word
    # the article does not carry; before it, those with one that is not a comment area's name.
    marks_after, marks_before = set(), set()
    for e, words in region_words.items():
        if e not in around_anchor and elements[e] not in anchor_shapes and (words := words - own_words):
            marks_after.add(e)
            if not all(COMMENT_AREA_WORDS.match(w) for w in words):
                marks_before.add(e)

    def article_path(i: int) -> bool:
        path = blocks[i].path
        if path in article_paths or shape_path(path) in article_shapes:
            return True
        if not ends[i] or container in ancestors[i]:
            return False
        if not article_plain:
            article_plain.update(map(plain_path, article_paths))
            article_tails.update(p[-POST_TAIL:] for p in article_paths)
        return plain_path(path) in article_plain or path[-POST_TAIL:] in article_tails

    chosen = chosen.copy()
    for r, run in enumerate(runs):
        score = 0
        total = sum([letters[i] for i in run])
        if r > core:
            inside = sum(letters[i] for i in run if holder in ancestors[i])
            score += inside < BOILERPLATE_INSIDE_SHARE * total
        if r != core:
            score += sum(link_letters[i] for i in run) > BOILERPLATE_LINK_SHARE * total
            score -= any(article_path(i) for i in run)
        if score >= 1:
            chosen[run] = False
            continue
        for i in run:
            if not (marks_after if i > anchor else marks_before).isdisjoint(ancestors[i]):
                chosen[i] = False
    return chosen


def _around(ancestors: list[tuple[int, ...]], blocks: list[int]) -> set[int]:
    """The elements around any of `blocks`: each chain read from its innermost element out, to the first
    element met before (the elements around that one are in already)."""
    found: set[int] = set()
    for i in blocks:
        for e in reversed(ancestors[i]):
            if e in found:
                break
            found.add(e)
    return found


@functools.lru_cache(maxsize=100_000)
def region_marks(words: tuple[str, ...]) -> tuple[frozenset[str], bool]:
    """The `BOILERPLATE_WORDS` an element's class and id `words` hold, and whether one holds `SIDEBAR_WORD`.

    Kept per `words` and per word: a site names its elements alike on every page, and sites share words.
    """
    found = [marks for w in words if (marks := _word_marks(w))[0]]
    if not found:  # most elements
        return _NO_MARKS
    return frozenset(m for m, _ in found), any(side for _, side in found)


_NO_MARKS: tuple[frozenset[str], bool] = (frozenset(), False)


@functools.lru_cache(maxsize=100_000)
def _word_marks(word: str) -> tuple[str, bool]:
    """A class or id word's `BOILERPLATE_WORDS` match ("" if none), and whether it holds `SIDEBAR_WORD`."""
    m = BOILERPLATE_WORDS.search(word)
    return m.group(0) if m else "", SIDEBAR_WORD.search(word) is not None


def article_run(table, runs: list[list[int]], prose) -> tuple[int, list[int]]:
    """The index of the article's run: the run of most `prose`, or the best run of a repeated
    structure (runs joined by blocks of one tag path) holding `REPEAT_SHARE` times that; and the
    indexes of the runs of its structure that the markup does not place away from it.
    A run the markup places away from the article (`off_article`) counts `OFF_ARTICLE_SHARE` of its prose."""
    off = off_article(table, runs)
    # a run's blocks are consecutive: its prose is a slice (summed as the same values in the same order)
    totals = [float(prose[run[0]:run[-1] + 1].sum()) * (OFF_ARTICLE_SHARE if o else 1.0) for run, o in zip(runs, off)]
    best = max(range(len(runs)), key=totals.__getitem__)
    group = list(range(len(runs)))  # union-find: a run's structure is the root its `group` links lead to

    def root(r: int) -> int:
        while group[r] != r:
            group[r] = r = group[group[r]]
        return r

    first_run_of: dict[tuple, int] = {}
    blocks = table.blocks
    for r, run in enumerate(runs):
        for i in run:
            if (other := first_run_of.setdefault(blocks[i].path, r)) != r and (a := root(other)) != (b := root(r)):
                group[max(a, b)] = min(a, b)
    held: dict[int, float] = {}
    for r, total in enumerate(totals):
        held[root(r)] = held.get(root(r), 0.0) + total
    structure = max(held, key=held.__getitem__)
    if held[structure] >= REPEAT_SHARE * totals[best]:
        best = max((r for r in range(len(runs)) if root(r) == structure), key=totals.__getitem__)
    return best, [r for r in range(len(runs)) if root(r) == root(best) and (r == best or not off[r])]


def off_article(table, runs: list[list[int]]) -> list[bool]:
    """Per run, whether the page's markup places it away from the article: in a side column, or
    outside every element named as an article's body (`ARTICLE_BODY_WORD`) where another run lies in one."""
    off = in_sidebar(table, runs)
    bodies = {e for e in table.content if _names_body(table.elements[e])}
    if bodies:
        named = [any(not bodies.isdisjoint(table.ancestors[i]) for i in run) for run in runs]
        if any(named) and not all(named):
            off = [o or not n for o, n in zip(off, named)]
    return off


@functools.lru_cache(maxsize=100_000)  # a site names its elements alike on every page
def _names_body(element: tuple[str, tuple[str, ...]]) -> bool:
    """Whether an element (tag, class and id words) marked as content is an article's body: a `<main>`,
    or a class or id word holding `ARTICLE_BODY_WORD`."""
    return element[0] == "main" or any(ARTICLE_BODY_WORD.search(w) for w in element[1])


def in_sidebar(table, runs: list[list[int]]) -> list[bool]:
    """Per run, whether its container or an element around that, below the elements around every
    chosen block, has a class or id word holding `SIDEBAR_WORD`: the page's side column.  All
    False where every run is in one (a wrapper such as `has-sidebar` around the article and its
    column is no column of its own)."""
    common = set(shared_chain(outer_chains(table, [runs[0][0], runs[-1][-1]])))
    side = []
    for run in runs:
        e = run_container(table, run)
        while e is not None and e >= 0 and e not in common and not _side_column(table, run[0], e):
            e = table.parent[e]
        side.append(e is not None and e >= 0 and e not in common)
    return [False] * len(runs) if all(side) else side


def _side_column(table, block: int, e: int) -> bool:
    """Whether element `e`, around `block`, is named as a side column: a class or id word of it holds
    `SIDEBAR_WORD`, and not only in a BEM modifier (`p-body-main--withSidebar` says how the main column
    looks beside a side column, not what it is).  The modifier is read from the block's tag path, whose
    steps are the block elements around it; an element off the path keeps its words' mark."""
    tag, words = table.elements[e]
    if not region_marks(words)[1]:
        return False
    if tag not in BLOCK_TAGS:
        return True
    path = table.blocks[block].path
    steps = [a for a in table.ancestors[block] if table.elements[a][0] in BLOCK_TAGS]
    if len(steps) != len(path):
        return True
    return SIDEBAR_WORD.search(_unmodified(path[steps.index(e)])) is not None


@functools.lru_cache(maxsize=10_000)
def _unmodified(step: str) -> str:
    """A tag path step (`tag.class1.class2#id`) less its classes' BEM modifiers (`--withsidebar`)."""
    return BEM_MODIFIER.sub("", step)


def article_words(table, run: list[int], container: int | None, mass: dict[int, float],
                  region_words: dict[int, frozenset[str]]) -> set[str]:
    """The `BOILERPLATE_WORDS` the article's own text carries: those of elements (`region_words`: per
    element around a block, its words where it has some) inside `container` around `OWN_WORD_SHARE`
    of the run's `mass` or more."""
    total = sum([mass[i] for i in run])
    held: dict[str, float] = {}
    parent = table.parent
    # Per element, the words of the elements below `container` around it and its own (None:
    # outside `container`): its parent's, and its own.  Asked once per element.
    inside: dict[int, frozenset[str] | None] = {} if container is None else {container: frozenset()}
    for i in run:
        if not (anc := table.ancestors[i]):
            continue
        if (e := anc[-1]) not in inside:
            chain = []
            while e >= 0 and e not in inside:
                chain.append(e)
                e = parent[e]
            words = inside.get(e)
            for e in reversed(chain):
                if words is not None and e in region_words:
                    words = words | region_words[e]
                inside[e] = words
        for word in inside[anc[-1]] or ():
            held[word] = held.get(word, 0.0) + mass[i]
    return {w for w, m in held.items() if total > 0 and m >= OWN_WORD_SHARE * total}


@functools.lru_cache(maxsize=100_000)  # a page repeats its few paths
def plain_path(path: tuple[str, ...]) -> tuple[str, ...]:
    """A block's tag path with class and id set aside."""
    return tuple(map(_plain_step, path))


@functools.lru_cache(maxsize=100_000)  # a site's paths share their steps, and sites share many
def _plain_step(enc: str) -> str:
    return enc.split(".", 1)[0].split("#", 1)[0]


def chosen_runs(chosen) -> list[list[int]]:
    """The runs of consecutive chosen blocks, as lists of block indexes."""
    runs: list[list[int]] = []
    for i in np.flatnonzero(chosen).tolist():
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def shared_chain(chains: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The elements around every block of these ancestor chains (root paths), outermost first.

    Root paths share a prefix, and all of them share what their least and greatest (as tuples) share.
    """
    first, last = min(chains), max(chains)
    depth = 0
    for a, b in zip(first, last):
        if a != b:
            break
        depth += 1
    return first[:depth]


def run_container(table, run: list[int]) -> int | None:
    """The innermost element holding every block of `run` (block indexes in page order; a lone block's parent), or None."""
    if len(run) == 1:
        anc = table.ancestors[run[0]]
        return anc[-2] if len(anc) > 1 else None
    shared = shared_chain(outer_chains(table, run))
    return shared[-1] if shared else None


def outer_chains(table, blocks: list[int]) -> list[tuple[int, ...]]:
    """The ancestor chains of the first and the last of `blocks` (indexes in page order): what they share,
    every block between them has around it (an element is open from its first block to its last)."""
    return [table.ancestors[blocks[0]], table.ancestors[blocks[-1]]]


# --- A page that matched a layout: the layout's vote and the classifier's, weighed ----------------

# The classifier's weight against the layout's, in pages: its page decision on a
# block weighs as much as a slot seen on this many pages of the layout.  Against
# the layout's vote for main text, and against its vote for anything else: a
# layout's main slots are its surest part (on the dev sets under 0.5% of their
# letters are not main text, and no weight above 0 did better), what it leaves out
# (a slot it saw vary outside the main text's element, a block it never saw) is
# where a layout of few pages misleads.  Fitted under site-grouped cross-validation
# on jekyll_sites and web_sites with layouts learned from 2, 3, 5 and all train
# pages (benchmarks/decision.py).  With the classifier reading the page as it is
# (`Fallback.layout_decision`), 24 and no limit (the classifier always outweighs a
# non-main vote) score within 0.0001 of each other on every set and number of train
# pages; 24 keeps the classifier off the pages of layouts seen on more pages (speed).
CLASSIFIER_PAGES_MAIN = 0.0
CLASSIFIER_PAGES = 24.0

# The roles whose slots the decision weighs; title, static, date and author slots keep their role.
WEIGHED_ROLES = frozenset({"main", "sub"})


@dataclass(frozen=True, slots=True)
class SlotEvidence:
    """What a layout knows of the slot a block aligned to: how many of its pages speak for its vote (`layout_weight`).

    The slot's DiffScore and MainScore, tried as gates on the classifier's say
    over a sub slot under site-grouped CV (`benchmarks/decision.py` rows), did not
    help: a sub slot of DiffScore under 0.6 keeping the layout's vote changed the
    training sites' score by +0.0001, under 0.7 cost 0.018, and every MainScore
    share cut tried (0.02 to 0.4) cost 0.006 or more; they are not read.

    Attributes:
        role: the slot's role (title, main, sub, static, date, author, byline), or None
            where the block aligned to no slot (the layout's container rule votes for it).
        slot_share: the share of the layout's pages that had the slot.
        layout_pages: how many pages the layout was learned from (those of later updates included).
        aligned: whether the block aligned to a slot at all.
    """

    role: str | None
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
