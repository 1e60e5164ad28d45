"""robots.txt, fetched once per origin and read with urllib.robotparser."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from stemmer.crawl.fetch import FetchFailed

if TYPE_CHECKING:
    from urllib.robotparser import RobotFileParser

log = logging.getLogger("stemmer")

# RFC 9309 section 2.5: crawlers must parse at least the first 500 KiB.
ROBOTS_MAX_BYTES = 500 * 1024


class RobotsCache:
    """The robots.txt rules of every origin a crawl touches.

    A missing robots.txt (404 and other 4xx) allows everything. 401 and 403
    forbid everything, as urllib.robotparser does; so do a 5xx status and a
    network failure (RFC 9309 section 2.3.1.4: the site is "unreachable").
    """

    def __init__(self, get: Callable[[str, int], tuple[int, bytes]], user_agent: str):
        """Args:
            get: ``get(url, max_bytes) -> (status, body)``, raising FetchFailed on network failure.
            user_agent: the crawler's User-Agent; its product token is matched against robots.txt.
        """
        self._get = get
        self.user_agent = user_agent
        self._parsers: dict[str, RobotFileParser] = {}
        self._lock = threading.Lock()
        self._origin_locks: dict[str, threading.Lock] = {}
        self._problems: dict[str, str] = {}  # origin -> why its robots.txt forbids everything

    def allowed(self, url: str) -> bool:
        """Whether robots.txt lets us fetch `url`."""
        return self._parser(url).can_fetch(self.user_agent, url)

    def refusal(self, url: str) -> str | None:
        """Why `url` may not be fetched, in words, or None if it may."""
        if self.allowed(url):
            return None
        return self._problems.get(_origin(url)) or f"robots.txt forbids it for {self.user_agent}"

    def crawl_delay(self, url: str) -> float:
        """The Crawl-delay robots.txt asks of us on `url`'s origin, in seconds; 0 if none."""
        try:
            return float(self._parser(url).crawl_delay(self.user_agent) or 0)
        except (TypeError, ValueError):
            return 0.0

    def _parser(self, url: str) -> RobotFileParser:
        """The parsed robots.txt of `url`'s origin, fetched on first use."""
        origin = _origin(url)
        with self._lock:
            parser = self._parsers.get(origin)
            if parser is not None:
                return parser
            origin_lock = self._origin_locks.setdefault(origin, threading.Lock())
        with origin_lock:  # one fetch per origin, even with several threads asking
            with self._lock:
                if origin in self._parsers:
                    return self._parsers[origin]
            parser = self._load(origin + "/robots.txt")
            with self._lock:
                self._parsers[origin] = parser
            return parser

    def _load(self, robots_url: str) -> RobotFileParser:
        """Fetch and parse one robots.txt."""
        from urllib.robotparser import RobotFileParser  # imports urllib.request: ~0.05 s, only for a crawl
        parser = RobotFileParser(robots_url)
        try:
            status, body = self._get(robots_url, ROBOTS_MAX_BYTES)
        except FetchFailed as exc:  # the site is unreachable
            problem = f"cannot fetch {robots_url} ({exc.message}); not crawling this site"
        else:
            if status in (401, 403) or status >= 500:
                problem = f"{robots_url} answers HTTP {status}; not crawling this site"
            else:
                if status >= 400:
                    parser.allow_all = True
                else:
                    parser.parse(body.decode("utf-8", "replace").splitlines())
                return parser
        log.info("%s", problem)
        self._problems[_origin(robots_url)] = problem
        parser.disallow_all = True
        return parser


def _origin(url: str) -> str:
    """scheme://host[:port] of `url`."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
