"""The tags and categories a matched page shows: the links of its layout's varying slots to tag and category pages.

An article's "Tags: a, b, c" line, or its list of labels, is a slot of its
layout whose blocks vary from page to page and whose links lead to the site's
tag or category pages: ``rel="tag"`` (``rel="category tag"``: a category), or an
address with a ``/tag/``, ``/tags/``, ``/tagged/`` or ``/label/`` (Blogger's
``/search/label/``) step (tags), a ``/category/`` or
``/categories/`` step (categories).  The layout is what tells them from the
site's tag cloud or category menu: those are the same on every page (a slot
whose text hardly varies, `VARYING_DIFF`), and give nothing; nor does the page's
main text (a link in a sentence), nor a link whose text is not the name its
address gives the tag ("more ..." beside a list of the tag's posts).
Only a page that matched a layout is read so; the page's own statements
(`stemmer.fields.stated`) come first, these after them.
"""
from __future__ import annotations

import re
from urllib.parse import unquote

from stemmer.blocks import PageBlocks, sig
from stemmer.blocks.block import BLOCK_TAGS, encode

TAG_STEP = re.compile(r"/(?:tags?|tagged|labels?)/[^/?#]", re.I)
CATEGORY_STEP = re.compile(r"/(?:category|categories)/[^/?#]", re.I)
# A slot whose DiffScore (the share of its text that differs between the layout's pages) is under this
# is the same on every page (a tag cloud, a category menu), whatever role analyze gave it: a post's
# two or three tags differ from the next post's by less than a body does, and may be called static.
VARYING_DIFF = 0.1
# The links looked at, found by lxml in C: those whose address or rel may say tag or category.
_CANDIDATES = ("//a[contains(@rel,'tag') or contains(@href,'/tag') or contains(@href,'/label')"
               " or contains(@href,'/categor')]")


def shown_terms(result, match, page: PageBlocks, root) -> dict[str, list[str]]:
    """The matched page's ``tags`` and ``categories`` by its varying link slots (those it has; {} for none).

    Args:
        result: the page's `Extraction` (its main and title blocks hold no terms).
        match: the page's `Match` (its layout, its blocks' keys).
        page: the page's blocks, as matched.
        root: the parsed page.
    """
    if root is None or match is None or match.layout is None or not result.matched:
        return {}
    links = root.xpath(_CANDIDATES)
    if not links:
        return {}
    static = {s.key for s in match.layout.sections if s.diff < VARYING_DIFF}
    text_blocks = {b.index for b in result.blocks if b.role in ("main", "title")}
    varying: dict[tuple[str, ...], list[str]] = {}  # path -> the texts of the page's varying blocks there
    for i, (key, b) in enumerate(zip(match.keys, page.blocks)):
        if key not in static and i not in text_blocks:
            varying.setdefault(b.path, []).append(b.text)
    out: dict[str, list[str]] = {}
    for a in links:
        href = a.get("href") or ""
        kind = _kind(href, (a.get("rel") or "").lower().split())
        text = " ".join("".join(a.itertext()).split())
        if kind is None or not text or not _names_its_page(text, href):
            continue
        path = tuple(encode(e.tag, e.get("class"), e.get("id"))
                     for e in reversed(list(a.iterancestors())) if e.tag in BLOCK_TAGS)
        if any(text in shown for shown in varying.get(path, ())):
            terms = out.setdefault(kind, [])
            if text.casefold() not in map(str.casefold, terms):
                terms.append(text)
    return out


def _names_its_page(text: str, href: str) -> bool:
    """Whether a link's text is the name its address gives the tag (``Solar & wind`` for
    ``/tag/solar-wind/``), not a "more ..." beside it; an address that names it by number says nothing."""
    step = unquote(href.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1])
    named = sig(step.rsplit(".", 1)[0] if step.endswith((".html", ".htm", ".php")) else step)
    own = sig(text)
    return not named or named.isdigit() or own in named or named in own


def _kind(href: str, rel: list[str]) -> str | None:
    """``tags`` or ``categories`` for a link to a tag or category page, else None."""
    if "tag" in rel:
        return "categories" if "category" in rel else "tags"
    address = href.split("?", 1)[0].split("#", 1)[0]
    if CATEGORY_STEP.search(address):
        return "categories"
    if TAG_STEP.search(address):
        return "tags"
    return None
