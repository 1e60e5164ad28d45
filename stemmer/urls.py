"""URLs taken from pages and crawl records, parsed in one place that never raises.

Any page can carry a malformed URL (``http://[oops/x``, a port of letters), on
which `urllib.parse` raises ValueError. Such a URL is "no URL" for every stage,
so one bad link cannot cost a page or a site. A leaf module, like `errors` and
`files`, so that `pages`, `crawl` and `api` all use it.
"""
from __future__ import annotations

import logging
import re
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
    return _path_name(path)


def _path_name(path: str) -> str:
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
    return _without_index(urldefrag(url)[0])


def _without_index(url: str) -> str:
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
    """`join_url` for a site's links, with `last_name` and `normal_url` of each: `LinkTarget`s.

    Analyze resolves every link of every page twice (titles, then link texts),
    and a real site's pages carry hundreds.  The common links (a path relative
    to the page's folder, an absolute path, an absolute http(s) URL, all plain)
    are joined by string operations that give what `urljoin` gives (`_plain`;
    tests/test_urls.py checks them on the links of the data sets), the rest by
    `urljoin`.  Either is remembered: by RFC 3986 (5.2.2) an href with a path
    resolves the same against every page of one folder, and an href with an
    absolute path against every page of one origin, so the memo's key is that
    scope and the href, not the page.
    """

    MAX_ENTRIES = 200_000  # then a memo starts afresh: about 80 MB at most on a site of unique links

    def __init__(self) -> None:
        self._memo: dict[tuple[str, str], LinkTarget] = {}
        self._base: str | None = None  # the page whose links are being resolved, and its scopes:
        self._root = self._dir = ""  # what an absolute path, and a relative one, resolves against
        self._origin: str | None = None  # its scheme://host and folder, where `_plain` can join
        self._folder = ""
        self._hosts: dict[str, bool] = {}  # scheme://host -> whether urlsplit accepts it (port, IPv6)

    def resolve(self, base: str, href: str) -> LinkTarget:
        if base != self._base:
            self._base, self._root, self._dir = base, _scope(base, "/"), _scope(base, "x")
            self._origin, self._folder = _plain_base(base)
        if not href or href[0] <= " " or href[0] in "?#":
            key = (base, href)
        else:
            key = (self._root if href[0] == "/" else self._dir, href)
        target = self._memo.get(key)
        if target is None:
            if len(self._memo) >= self.MAX_ENTRIES:
                self._memo.clear()
            plain = self._plain(href) if self._origin is not None else None
            if plain is not None:
                origin, url = plain
                bare = url.split("#", 1)[0]
                target = LinkTarget(url, _path_name(bare.split("?", 1)[0][len(origin):]), _without_index(bare))
            else:
                url = join_url(base, href)
                target = LinkTarget(url, last_name(url or ""), normal_url(url))
            self._memo[key] = target
        return target

    def _plain(self, href: str) -> tuple[str, str] | None:
        """(scheme://host, `join_url(base, href)`) of a plain href, by string operations; None for any other."""
        if not href or href[0] in "?#" or href[-1] in "?#" or "?#" in href or _NOT_PLAIN.search(href):
            return None  # (a query or fragment alone keeps the page's path)
        cut = len(href)
        for mark in "?#":
            if (at := href.find(mark, 0, cut)) >= 0:
                cut = at
        path = href[:cut]
        if href.startswith(("http://", "https://", "//")):
            if href[0] == "/":  # "//host/path": the page's scheme
                href = self._origin[: self._origin.index(":") + 1] + href
            origin = _origin(href)
            known = self._hosts.get(origin) if origin else False
            if known is None:
                if len(self._hosts) > self.MAX_ENTRIES:
                    self._hosts.clear()
                known = self._hosts[origin] = split_url(origin) is not None
            return (origin, href) if known else None  # urljoin keeps an absolute URL as it is
        if ":" in path or "//" in path:
            return None  # a scheme, or empty segments that urljoin drops
        if href[0] == "/":
            return (self._origin, self._origin + href) if "/." not in path else None
        folder, rest = self._folder, href
        ups = 0
        while rest.startswith(("./", "../")):
            if rest[1] == ".":
                ups += 1
            rest = rest[3:] if rest[1] == "." else rest[2:]
        if rest.startswith(".") or "/." in rest:
            return None  # other dot segments
        if ups:
            dirs = folder[len(self._origin) + 1: -1].split("/")  # "/a/b/" -> ["a", "b"]
            kept = dirs[: max(len(dirs) - ups, 0)] if dirs != [""] else []
            folder = self._origin + "/" + "".join(d + "/" for d in kept)
        return self._origin, folder + rest


# What makes an href not plain: characters urlsplit strips or removes, backslashes, path parameters.
_NOT_PLAIN = re.compile(r"[\x00-\x20\\;]")


def _plain_base(base: str) -> tuple[str | None, str | None]:
    """(scheme://host, scheme://host/folder/) of a page URL that `_plain` can join against; (None, None) else.

    Plain: http(s), lower-case scheme, a host urlsplit accepts, no characters
    it strips or removes, and a path without parameters, empty or dot segments.
    """
    if not base.startswith(("http://", "https://")) or _NOT_PLAIN.search(base) or split_url(base) is None:
        return None, None
    origin = _origin(base)
    if origin is None:
        return None, None
    path = base[len(origin):]
    for mark in "?#":
        if (at := path.find(mark)) >= 0:
            path = path[:at]
    if "//" in path or "/." in path:
        return None, None
    return origin, origin + (path[: path.rfind("/") + 1] if path else "/")


def _origin(url: str) -> str | None:
    """``scheme://host`` of an absolute URL; None where the host is empty."""
    start = url.index("//") + 2
    end = len(url)
    for mark in "/?#":
        if (at := url.find(mark, start, end)) >= 0:
            end = at
    return url[:end] if end > start else None


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
