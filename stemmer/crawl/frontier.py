"""Which URLs a crawl visits, and in what order: URL normalisation, the ACL, the host scope, the queue."""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlunsplit

from stemmer.urls import join_url, split_url

# Webstemmer's default reject list (textcrawler.py), widened to today's image, media
# and archive suffixes. Searched in the whole URL; the suffix must end the path.
DEFAULT_REJECT = (
    r"(?i)\.(?:jpe?g|gif|png|bmp|tiff?|webp|svg|ico|avif|heic"
    r"|mp3|mp4|m4a|m4v|wav|ogg|oga|ogv|webm|mkv|avi|mov|wmv|wma|flv|swf|ram|rm|mpe?g"
    r"|gz|tgz|bz2|xz|zst|zip|rar|7z|tar|rpm|deb|dmg|iso|exe|msi|jar|class)(?:[?;#]|$)"
)

ACL_ACTIONS = ("accept", "reject")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Characters left as they are when re-quoting a path or query: RFC 3986 reserved + unreserved + '%'.
_SAFE = "/%:@!$&'()*+,;=-._~?"


def normalize_url(url: str, base: str | None = None) -> str | None:
    """The canonical form of an http(s) URL, or None for any other URL.

    Resolves `url` against `base`, lower-cases scheme and host, drops a default
    port and the fragment, turns an empty path into ``/`` and quotes unsafe
    characters (spaces, non-ASCII). The query is kept as it is.

    Args:
        url: an absolute or (with `base`) relative URL.
        base: the URL of the page the link was found on.

    Returns:
        The normalised URL, or None for ``mailto:``, ``javascript:``, malformed URLs and the like.
    """
    url = url.strip()
    if base is not None:
        url = join_url(base, url)
    parts = split_url(url) if url is not None else None
    if parts is None or parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        return None
    scheme, port = parts.scheme.lower(), parts.port
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    if parts.username is not None:
        auth = parts.username + (f":{parts.password}" if parts.password is not None else "")
        netloc = f"{auth}@{netloc}"
    path = quote(parts.path or "/", safe=_SAFE)
    query = quote(parts.query, safe=_SAFE)
    return urlunsplit((scheme, netloc, path, query, ""))


def host_of(url: str) -> str:
    """The lower-cased host name of a normalised URL, without port."""
    parts = split_url(url)
    return (parts.hostname or "").lower() if parts else ""


class Acl:
    """Accept and reject rules checked in the order given; the first match decides.

    With no rules at all, URLs matching :data:`DEFAULT_REJECT` are rejected and
    all others accepted. Once any rule is given, it replaces that default, and a
    URL that matches none of the rules is rejected (Webstemmer's ``-a``/``-j``).
    """

    def __init__(self, rules: Sequence[tuple[str, str]] | None = None):
        """Compile `rules`, pairs of ("accept" | "reject", regex searched in the URL).

        Raises:
            ValueError: an unknown action or a regex that does not compile.
        """
        compiled = []
        for rule in rules or ():
            try:
                action, pattern = rule
            except (TypeError, ValueError):
                raise ValueError(f"ACL rule must be a pair (action, regex), got {rule!r}") from None
            if action not in ACL_ACTIONS:
                raise ValueError(f"ACL action must be one of {', '.join(ACL_ACTIONS)}, got {action!r}")
            try:
                compiled.append((action == "accept", re.compile(pattern)))
            except re.error as exc:
                raise ValueError(f"bad ACL regex {pattern!r}: {exc}") from None
        self._default = not compiled
        self._rules = compiled or [(False, re.compile(DEFAULT_REJECT))]

    def allows(self, url: str) -> bool:
        """Whether `url` passes the rules."""
        for accept, regex in self._rules:
            if regex.search(url):
                return accept
        return self._default


class Scope:
    """The hosts a crawl may visit: a set of host names, or every host."""

    def __init__(self, hosts: Iterable[str] | None):
        """`hosts` are host names (port ignored); None means any host."""
        self.hosts = None if hosts is None else frozenset(h.lower().strip() for h in hosts)

    def contains(self, url: str) -> bool:
        """Whether the host of `url` is in scope."""
        return self.hosts is None or host_of(url) in self.hosts


@dataclass(frozen=True, slots=True)
class Entry:
    """A URL waiting in the frontier.

    Attributes:
        seq: the order in which the URL was discovered; output follows it.
        url: the normalised URL.
        level: links of a page at level L > 0 are queued at L - 1; level 0 pages
            are fetched but their links are not followed.
    """

    seq: int
    url: str
    level: int


class Frontier:
    """A breadth-first queue, one FIFO per host, so that a busy host does not block the others."""

    def __init__(self, entries: Iterable[Entry] = ()):
        self._queues: dict[str, deque[Entry]] = {}
        self._len = 0
        for entry in sorted(entries, key=lambda e: e.seq):
            self.push(entry)

    def __len__(self) -> int:
        return self._len

    def push(self, entry: Entry) -> None:
        """Append `entry` to its host's queue."""
        self._queues.setdefault(host_of(entry.url), deque()).append(entry)
        self._len += 1

    def hosts(self) -> list[str]:
        """The hosts with URLs waiting."""
        return [host for host, queue in self._queues.items() if queue]

    def pop(self, ready: Callable[[str], bool]) -> Entry | None:
        """Remove and return the earliest-discovered entry whose host is `ready`, or None."""
        best = None
        for host, queue in self._queues.items():
            if queue and (best is None or queue[0].seq < best[0].seq) and ready(host):
                best = queue
        if best is None:
            return None
        self._len -= 1
        return best.popleft()
