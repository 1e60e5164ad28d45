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
address gives the tag where the page gives that address another text ("more ..."
beside a list of the tag's posts, named above it).
Only a page that matched a layout is read so; the page's own statements
(`stemmer.fields.stated`) come first, these after them.
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

from stemmer.blocks import PageBlocks, sig
from stemmer.blocks.block import BLOCK_TAGS, SKIP_TAGS, encode

TAG_STEP = re.compile(r"/(?:tags?|tagged|labels?)/[^/?#]", re.I)
CATEGORY_STEP = re.compile(r"/(?:category|categories)/[^/?#]", re.I)
# A slot whose DiffScore (the share of its text that differs between the layout's pages) is under this
# is the same on every page (a tag cloud, a category menu), whatever role analyze gave it: a post's
# two or three tags differ from the next post's by less than a body does, and may be called static.
VARYING_DIFF = 0.1
_INDEX = re.compile(r"index\.(?:html?|php)$", re.I)  # a folder's page: the step before it names the tag


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
    static = _constant_keys(match.layout)
    text_blocks = {b.index for b in result.blocks if b.role in ("main", "title")}
    varying: dict[tuple[str, ...], list[str]] = {}  # path -> the texts of the page's varying link blocks there
    for i, (key, b) in enumerate(zip(match.keys, page.blocks)):
        if b.anchor_weight and key not in static and i not in text_blocks:
            varying.setdefault(b.path, []).append(b.text)
    if not varying:
        return {}
    found = []  # (kind, text, href, its block's path) of each link to a tag or category page in a varying block
    for a, path in _links_in(root, varying):
        href = a.get("href") or ""
        if (kind := _kind(href, (a.get("rel") or "").lower().split())) is not None \
                and (text := " ".join("".join(a.itertext()).split())) \
                and any(text in shown for shown in varying[path]):
            found.append((kind, text, href))
    texts: dict[str, set[str]] = {}  # per tag (its address's last step), the texts the page gives links to it
    for _, text, href in found:
        texts.setdefault(_slug(href), set()).add(text)
    out: dict[str, list[str]] = {}
    for kind, text, href in found:
        if len(texts[_slug(href)]) > 1 and not _names_its_page(text, href):
            continue  # "more ..." beside a tag's posts, the tag named elsewhere
        terms = out.setdefault(kind, [])
        if text.casefold() not in map(str.casefold, terms):
            terms.append(text)
    return out


def _links_in(root, paths: dict[tuple[str, ...], list[str]]):
    """The ``<a href>`` elements whose block has one of these paths, each with that path.

    Only the elements along those paths are visited, not the whole page: a block's path is
    its block elements' encodings from the root (`stemmer.blocks.block.encode`), inline
    elements passed through.
    """
    prefixes = {p[:k] for p in paths for k in range(len(p))}
    out = []
    stack = [(iter(root), ())]  # the elements being read, each with its children left and its path
    while stack:
        children, path = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        tag = child.tag
        if not isinstance(tag, str) or tag in _NO_BLOCKS:
            continue
        if tag == "a":
            if path in paths and child.get("href"):
                out.append((child, path))  # a link is inline: its block is the one around it
            continue
        step = path + (encode(tag, child.get("class"), child.get("id")),) if tag in BLOCK_TAGS else path
        if step in prefixes or step in paths:
            stack.append((iter(child), step))
    return out


_NO_BLOCKS = SKIP_TAGS | {"head"}  # what the block walk skips with its contents, and the page's head

_CONSTANT: dict[int, tuple] = {}  # id of a layout -> (it, the keys of its slots whose text hardly varies)


def _constant_keys(layout) -> frozenset[str]:
    """The keys of the layout's slots whose DiffScore is under `VARYING_DIFF`, made once per layout."""
    kept = _CONSTANT.get(id(layout))
    if kept is None or kept[0] is not layout:
        if len(_CONSTANT) > 10_000:
            _CONSTANT.clear()
        kept = _CONSTANT[id(layout)] = (layout, frozenset(s.key for s in layout.sections if s.diff < VARYING_DIFF))
    return kept[1]


def _names_its_page(text: str, href: str) -> bool:
    """Whether a link's text is the name its address gives the tag (``Solar & wind`` for
    ``/tag/solar-wind/``, ``Güzel Menü`` for ``/tag/guzel-menu.html``); an address that names it by
    number says nothing."""
    named = _plain(_slug(href))
    own = _plain(text)
    return not named or named.isdigit() or own in named or named in own


def _slug(href: str) -> str:
    """The step of a tag page's address that names the tag: its last, less an index page and a suffix."""
    steps = [s for s in unquote(href.split("?", 1)[0].split("#", 1)[0]).split("/") if s and not _INDEX.match(s)]
    step = steps[-1] if steps else ""
    return step.rsplit(".", 1)[0] if step.endswith((".html", ".htm", ".php")) else step


def _plain(text: str) -> str:
    """The letters of `text` without their accents (``ü`` -> ``u``, ``ı`` -> ``i``), as a slug writes them."""
    return sig("".join(c for c in unicodedata.normalize("NFKD", text.replace("ı", "i"))
                       if not unicodedata.combining(c)))


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
