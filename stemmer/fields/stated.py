"""Built-in fields: what a page states of itself besides its date and author.

``image`` (``og:image``, ``twitter:image``, the JSON-LD item's ``image``; else the
first large image of its article or main element: not an icon, a logo or an avatar,
and not declared smaller than `LARGE_IMAGE` pixels), ``tags`` (``article:tag``
metas, JSON-LD ``keywords``) and ``categories`` (``article:section``, JSON-LD
``articleSection``).  Every page gets the ones it states, whatever read it; a
slot a user named so gives its own value instead (`with_stated_fields`).
"""
from __future__ import annotations

import html
import re
from dataclasses import replace
from urllib.parse import urljoin

from stemmer.extract.apply import Extraction
from stemmer.metadata.signals import item_types, json_ld_items, load_json

BUILTIN_FIELDS = ("image", "tags", "categories")
# An image declared at least this wide and high (or with no size) is a page's picture, not an icon.
LARGE_IMAGE = 200
_NOT_PICTURE = re.compile(r"^data:|\.svg(?:$|\?)|logo|icon|avatar|emoji|sprite|pixel|spacer|badge", re.I)
_IMAGE_META = ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src")
_WANTED_META = frozenset({*_IMAGE_META, "article:tag", "article:section"})
_ARTICLE_TYPES = frozenset({"article", "newsarticle", "blogposting", "techarticle", "scholarlyarticle", "report",
                            "webpage", "product", "recipe", "creativework", "socialmediaposting"})


def stated_fields(root, url: str | None = None) -> dict[str, str | list[str]]:
    """The page's image, tags and categories as it states them; those it does not state are left out."""
    if root is None:
        return {}
    metas: dict[str, list[str]] = {}
    items: list[dict] = []
    for el in root.iter("meta", "script"):  # one walk of the tree for both
        if el.tag == "script":
            if "ld+json" in (el.get("type") or "").lower() and (data := load_json(el.text or "")) is not None:
                items += json_ld_items(data)
        elif (key := (el.get("property") or el.get("name") or "").strip().lower()) in _WANTED_META:
            if content := " ".join((el.get("content") or "").split()):
                metas.setdefault(key, []).append(html.unescape(content))
    items = [it for it in items if item_types(it) & _ARTICLE_TYPES]
    out: dict[str, str | list[str]] = {}
    image = next((v[0] for k in _IMAGE_META if (v := metas.get(k))), None) or _item_image(items) or _body_image(root)
    if image:
        out["image"] = urljoin(url, image) if url else image
    tags = _unique(metas.get("article:tag", []) + _strings(items, "keywords", split=True))
    if tags:
        out["tags"] = tags
    categories = _unique(metas.get("article:section", []) + _strings(items, "articleSection"))
    if categories:
        out["categories"] = categories
    return out


def with_stated_fields(result: Extraction, root) -> Extraction:
    """The record with the page's built-in fields added where its layout names no slot so."""
    stated = stated_fields(root, result.url)
    missing = {k: v for k, v in stated.items() if k not in result.fields}
    return replace(result, fields={**result.fields, **missing}) if missing else result


def _item_image(items: list[dict]) -> str | None:
    for it in items:
        value = it.get("image")
        for _ in range(3):  # a list of images, an ImageObject, its url
            if isinstance(value, list):
                value = value[0] if value else None
            elif isinstance(value, dict):
                value = value.get("url") or value.get("contentUrl")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _body_image(root) -> str | None:
    """The first large image of the page's article (else its main element), or None."""
    scopes = {}
    for el in root.iter("article", "main"):  # one walk: the first of each
        scopes.setdefault(el.tag, el)
        if len(scopes) == 2:
            break
    scope = scopes.get("article", scopes.get("main"))
    if scope is not None:
        for img in scope.iter("img"):
            src = (img.get("src") or "").strip()
            if not src or _NOT_PICTURE.search(src) or _NOT_PICTURE.search(img.get("class") or ""):
                continue
            if all((n := _size(img.get(a))) is None or n >= LARGE_IMAGE for a in ("width", "height")):
                return src
    return None


def _size(value: str | None) -> int | None:
    digits = re.match(r"\s*(\d+)", value or "")
    return int(digits.group(1)) if digits else None


def _strings(items: list[dict], key: str, *, split: bool = False) -> list[str]:
    """The strings of a JSON-LD key over the items (a list, or one string, cut at commas where `split`)."""
    out: list[str] = []
    for it in items:
        value = it.get(key)
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, str):
                out += [p for p in (v.split(",") if split else [v])]
    return out


def _unique(values: list[str]) -> list[str]:
    """Cleaned values once each, in order (case-blind)."""
    seen, out = set(), []
    for v in values:
        v = " ".join(html.unescape(v).split())
        if v and v.casefold() not in seen:
            seen.add(v.casefold())
            out.append(v)
    return out
