"""The record every reader yields: one decoded page of a crawl, and the site it belongs to."""
from __future__ import annotations

from dataclasses import dataclass

from stemmer.urls import split_url

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
