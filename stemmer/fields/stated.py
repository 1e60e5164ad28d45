"""Built-in fields: what a page states of itself besides its date and author.

``image`` (``og:image``, ``twitter:image``, the JSON-LD item's ``image``; else the
first large image of its article or main element: not an icon, a logo or an avatar,
and not declared smaller than `LARGE_IMAGE` pixels), ``tags`` (``article:tag``
metas, JSON-LD ``keywords``) and ``categories`` (``article:section``, JSON-LD
``articleSection``), then the tags and categories its layout's link slots show
(`stemmer.fields.linked`).  Every page gets the ones it states, whatever read it; a
slot a user named so gives its own value instead (`with_stated_fields`).
"""
from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import urljoin

from stemmer.extract.apply import Extraction
from stemmer.metadata.signals import PageSignals, page_signals

BUILTIN_FIELDS = ("image", "tags", "categories")
# An image declared at least this wide and high (or with no size) is a page's picture, not an icon.
LARGE_IMAGE = 200
_NOT_PICTURE = re.compile(r"^data:|\.svg(?:$|\?)|logo|icon|avatar|emoji|sprite|pixel|spacer|badge", re.I)


def stated_fields(root, url: str | None = None, signals: PageSignals | None = None) -> dict[str, str | list[str]]:
    """The page's image, tags and categories as it states them; those it does not state are left out.

    `signals`: the page's `page_signals`, where the caller read them already (they hold the
    statements: `PageSignals.images`, `tags`, `categories`); else they are read here.
    """
    if root is None:
        return {}
    if signals is None:
        signals = page_signals(root, url)
    out: dict[str, str | list[str]] = {}
    image = (signals.images[0] if signals.images else None) or _body_image(root)
    if image:
        out["image"] = urljoin(url, image) if url else image
    if signals.tags:
        out["tags"] = list(signals.tags)
    if signals.categories:
        out["categories"] = list(signals.categories)
    return out


def with_stated_fields(result: Extraction, root, signals: PageSignals | None = None,
                       shown: dict[str, list[str]] | None = None) -> Extraction:
    """The record with the page's built-in fields added where its layout names no slot so.

    `shown`: the tags and categories its layout's link slots show (`stemmer.fields.linked`),
    after those the page states (each once, case-blind).
    """
    stated = stated_fields(root, result.url, signals)
    for name, terms in (shown or {}).items():
        have = stated.get(name, [])
        known = {t.casefold() for t in have}
        if more := [t for t in terms if t.casefold() not in known]:
            stated[name] = [*have, *more]
    missing = {k: v for k, v in stated.items() if k not in result.fields}
    return replace(result, fields={**result.fields, **missing}) if missing else result


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
