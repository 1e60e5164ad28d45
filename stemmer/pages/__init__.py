"""Stage 1: crawl inputs in, `Page` records out."""
from __future__ import annotations

import ast
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from stemmer.urls import split_url

log = logging.getLogger("stemmer")

# The ``extra`` of a warning about a page left out, or an input read only in part:
# the command line counts them for its summary line and ``--strict``.
SKIPPED_PAGE = {"stemmer_lost": "page"}
DAMAGED_INPUT = {"stemmer_lost": "input"}


@dataclass(frozen=True, slots=True)
class Page:
    """One web page of a crawl, already decoded.

    Attributes:
        id: a name unique within the input (relative path, archive member or URL).
        url: the page's URL where known.
        site: the host, lower-cased without ``www.``; pages of one site share it.
        html: the page's HTML as text.
        anchors: texts of links that point to this page (Webstemmer's ``linkinfo``).
    """

    id: str
    url: str | None
    site: str
    html: str
    anchors: tuple[str, ...] = ()


def site_of(url: str | None, default: str = "local") -> str:
    """The site key of a URL: its host, lower-cased, without a leading ``www.``."""
    if not url:
        return default
    parts = split_url(url if "//" in url else "//" + url)
    host = (parts.hostname or "").lower() if parts else ""
    if host.startswith("www."):
        host = host[4:]
    return host or default


def read_linkinfo(lines: Iterable[str], where: str) -> dict[str, list[str]]:
    """Anchor texts by link target, from linkinfo lines; a bad line is skipped with a warning.

    A line is either Webstemmer's ``repr`` of ``('<timestamp>/<host>/<path>', ['text', ...])``,
    read with ``ast.literal_eval`` so that it cannot run code, or a JSON object
    ``{"url": target, "anchors": ['text', ...]}``.

    Args:
        lines: the lines of a linkinfo file or record.
        where: names the file in warnings, e.g. ``crawl.zip:linkinfo``.

    Returns:
        The anchor texts of each target (member name or URL), in the order they appear.
    """
    anchors: dict[str, list[str]] = {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("{"):
                obj = json.loads(line)
                target, texts = obj["url"], obj["anchors"]
            else:
                target, texts = ast.literal_eval(line)
            if not (isinstance(target, str) and isinstance(texts, (list, tuple))
                    and all(isinstance(t, str) for t in texts)):
                raise TypeError("expected a target string and a list of anchor strings")
        except (ValueError, TypeError, KeyError, SyntaxError, MemoryError, RecursionError) as e:
            log.warning("%s line %d: skipped, not a linkinfo entry (%s)", where, number, e, extra=DAMAGED_INPUT)
            continue
        anchors.setdefault(target, []).extend(texts)
    return anchors


from stemmer.pages.read import read_pages  # noqa: E402  (the readers import Page from here)

__all__ = ["DAMAGED_INPUT", "SKIPPED_PAGE", "Page", "read_linkinfo", "read_pages", "site_of"]
