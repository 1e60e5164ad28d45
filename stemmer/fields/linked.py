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
from stemmer.blocks.block import BLOCK_TAGS, encode

TAG_STEP = re.compile(r"/(?:tags?|tagged|labels?)/[^/?#]", re.I)
CATEGORY_STEP = re.compile(r"/(?:category|categories)/[^/?#]", re.I)
# A slot whose DiffScore (the share of its text that differs between the layout's pages) is under this
# is the same on every page (a tag cloud, a category menu), whatever role analyze gave it: a post's
# two or three tags differ from the next post's by less than a body does, and may be called static.
VARYING_DIFF = 0.1
_INDEX = re.compile(r"index\.(?:html?|php)$", re.I)  # a folder's page: the step before it names the tag
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
    anywhere = "\n".join(t for texts in varying.values() for t in texts)  # asked first: most links are not there
    found = []  # (kind, text, href, element) of each link to a tag or category page
    for a in links:
        href = a.get("href") or ""
        kind = _kind(href, (a.get("rel") or "").lower().split())
        text = " ".join("".join(a.itertext()).split())
        if kind is not None and text:
            found.append((kind, text, href, a))
    texts: dict[str, set[str]] = {}  # per tag (its address's last step), the texts the page gives links to it
    for _, text, href, _ in found:
        texts.setdefault(_slug(href), set()).add(text)
    out: dict[str, list[str]] = {}
    for kind, text, href, a in found:
        if text not in anywhere or (len(texts[_slug(href)]) > 1 and not _names_its_page(text, href)):
            continue  # not in a varying block; or "more ..." beside a tag's posts, the tag named elsewhere
        path = tuple(encode(e.tag, e.get("class"), e.get("id"))
                     for e in reversed(list(a.iterancestors())) if e.tag in BLOCK_TAGS)
        if any(text in shown for shown in varying.get(path, ())):
            terms = out.setdefault(kind, [])
            if text.casefold() not in map(str.casefold, terms):
                terms.append(text)
    return out


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
