"""URLs taken from pages and crawl records, parsed in one place that never raises.

Any page can carry a malformed URL (``http://[oops/x``, a port of letters), on
which `urllib.parse` raises ValueError. Such a URL is "no URL" for every stage,
so one bad link cannot cost a page or a site. A leaf module, like `errors` and
`files`, so that `pages`, `crawl` and `api` all use it.
"""
from __future__ import annotations

import logging
from typing import NamedTuple
from urllib.parse import SplitResult, urldefrag, urljoin, urlsplit

log = logging.getLogger("stemmer")


def split_url(url: str) -> SplitResult | None:
    """The parts of `url`, or None when it is malformed (bad IPv6 host, bad port, ...)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (checks the port; urlsplit alone accepts "host:abc")
    except ValueError as exc:
        log.debug("malformed URL %.200r ignored: %s", url, exc)
        return None
    return parts


def join_url(base: str, href: str) -> str | None:
    """`href` resolved against the page URL `base`; None when either is malformed."""
    try:
        url = urljoin(base, href)
    except ValueError as exc:
        log.debug("malformed URL %.200r (on %.200r) ignored: %s", href, base, exc)
        return None
    return url if split_url(url) is not None else None


def last_name(url: str) -> str:
    """The last path segment of a URL or href, without query, fragment and index file."""
    path = url.split("#", 1)[0].split("?", 1)[0]
    if "//" in path:
        parts = split_url(path)
        path = parts.path if parts else ""
    for index in ("index.html", "index.htm"):
        if path.endswith("/" + index):
            path = path[: -len(index)]
    return path.rstrip("/").rsplit("/", 1)[-1]


def normal_url(url: str | None) -> str | None:
    """The URL without fragment and index file: the key that link targets and pages share.

    None for no URL or a malformed one.
    """
    if not url or split_url(url) is None:
        return None
    url = urldefrag(url)[0]
    for index in ("index.html", "index.htm"):
        if url.endswith("/" + index):
            url = url[: -len(index)]
    return url


class LinkTarget(NamedTuple):
    """Where a link points: its URL (None when malformed), that URL's `last_name` and its `normal_url`."""

    url: str | None
    name: str
    normal: str | None


class LinkResolver:
    """`join_url` for a site's links, remembered: its pages repeat the same links from the same folders.

    By RFC 3986 (5.2.2) an href with a path resolves the same against every page
    of one folder, and an href with an absolute path against every page of one
    origin; so the memo's key is that scope and the href, not the page.  Analyze
    resolves every link of every page twice (titles, then link texts); urljoin
    was a sixth of its time.
    """

    MAX_ENTRIES = 200_000  # then the memo starts afresh: about 80 MB at most on a site of unique links

    def __init__(self) -> None:
        self._memo: dict[tuple[str, str], LinkTarget] = {}

    def resolve(self, base: str, href: str) -> LinkTarget:
        key = (_scope(base, href), href)
        target = self._memo.get(key)
        if target is None:
            if len(self._memo) >= self.MAX_ENTRIES:
                self._memo.clear()
            url = join_url(base, href)
            target = self._memo[key] = LinkTarget(url, last_name(url or ""), normal_url(url))
        return target


def _scope(base: str, href: str) -> str:
    """The part of `base` that `urljoin(base, href)` depends on (all of it where unsure)."""
    if not href or href[0] <= " " or href[0] in "?#":  # no path of its own (urlsplit strips leading blanks)
        return base
    folder = base.split("#", 1)[0].split("?", 1)[0]
    start = folder.find("://")
    if start < 0:
        return base
    slash = folder.find("/", start + 3)
    if slash < 0:  # "http://host": no path
        return folder
    if href[0] == "/":  # an absolute path, or "//host/...": only the scheme and host count
        return folder[:slash]
    return folder[: folder.rfind("/") + 1]
