"""`crawl`: fetch a site breadth-first and politely into a WARC.gz or zip for ``stemmer analyze``."""
from __future__ import annotations

import codecs
import json
import logging
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from stemmer.crawl.fetch import FetchFailed, Fetched, Fetcher
from stemmer.crawl.frontier import Acl, Entry, Frontier, Scope, host_of, normalize_url
from stemmer.crawl.links import extract_links, guess_encoding
from stemmer.crawl.robots import RobotsCache
from stemmer.crawl.state import CrawlState
from stemmer.crawl.store import format_of, write_warc, write_zip
from stemmer.crawl.urldb import UrlDB
from stemmer.errors import CrawlError
from stemmer.version import package_version

if TYPE_CHECKING:
    from http.cookiejar import MozillaCookieJar

log = logging.getLogger("stemmer")

# Threads across all hosts; each host still gets at most `per_host` of them at a time.
MAX_WORKERS = 4
# Outcomes of a fetch that leave the page out without being an error.
_SKIP_KINDS = frozenset({"not-html", "too-big", "rejected", "duplicate"})
# Outcomes of a start URL that count as success.
_START_OK = frozenset({"stored", "skipped:known", "skipped:duplicate"})


@dataclass(frozen=True, slots=True)
class CrawlReport:
    """What a crawl did. A resumed crawl counts the runs before it too.

    Attributes:
        output: the file written.
        fetched: URLs requested (each redirect chain counts once); capped by ``max_pages``.
        stored: pages written to the output.
        skipped: URLs left out without an error: non-HTML, oversized, known from the
            URL database, duplicates reached by a redirect, redirects to rejected URLs.
        errors: HTTP errors (>= 400), timeouts, connection failures, redirect loops.
        off_host_redirects: redirects to hosts out of scope; not followed.
        robots_blocked: URLs (or redirect targets) robots.txt forbids.
        elapsed: seconds spent crawling.
        queued: URLs discovered but not fetched because ``max_pages`` was reached.
        redirects_not_followed: (URL, off-host target) of each off-host redirect.
    """

    output: str
    fetched: int
    stored: int
    skipped: int
    errors: int
    off_host_redirects: int
    robots_blocked: int
    elapsed: float
    queued: int = 0
    redirects_not_followed: tuple[tuple[str, str], ...] = ()


def user_agent(contact: str | None = None) -> str:
    """The User-Agent header: ``stemmer/0.1``, with ``(+contact)`` when a contact is given."""
    product = "stemmer/" + ".".join(package_version().split(".")[:2])  # major.minor
    return f"{product} (+{contact})" if contact else product


@dataclass(frozen=True, slots=True)
class CrawlOptions:
    """How a crawl goes: how far, how politely, what it stores. Checked when made.

    Attributes:
        depth: levels of links to follow from the start URLs (0: the start pages only).
        max_pages: the most URLs to request.
        hosts: more host names to crawl besides those of the start URLs.
        any_host: crawl every host the links lead to.
        acl: ("accept" | "reject", regex) rules searched in each URL, first match
            deciding; a URL matching none is rejected. None: reject images, media
            and archives (:data:`stemmer.crawl.frontier.DEFAULT_REJECT`), accept the rest.
        contact: an e-mail address or URL put in the User-Agent.
        delay: seconds between requests to one host (robots.txt's Crawl-delay, if longer, wins).
        per_host: the most requests in flight to one host.
        timeout: seconds for connecting, for each read, and for reading a whole body.
        max_bytes: the most bytes of a response; longer pages are skipped.
        cookies: a Mozilla-format cookies.txt sent with the requests (never written back).
        charset: the charset of pages that declare none; recorded in the WARC's warcinfo.
        index_name: file name appended to URLs ending in ``/`` in zip member names.
        urldb: a SQLite URL database; pages it knows are not stored again, and
            at level 0 not fetched at all. It learns this crawl's pages at the end.
        timestamp: the zip's base name (default: local time as ``YYYYMMDDHHMM``).
        format: "warc" or "zip"; default from the extension of the output.
        resume: go on from ``<output>.state`` if it exists.

    Raises:
        ValueError: a knob out of range or an unknown charset; the message says what is allowed.
    """

    depth: int = 1
    max_pages: int = 1000
    hosts: tuple[str, ...] = ()
    any_host: bool = False
    acl: tuple[tuple[str, str], ...] | None = None
    contact: str | None = None
    delay: float = 1.0
    per_host: int = 1
    timeout: float = 30.0
    max_bytes: int = 5_000_000
    cookies: str | os.PathLike | None = None
    charset: str | None = None
    index_name: str = ""
    urldb: str | os.PathLike | None = None
    timestamp: str | None = None
    format: str | None = None
    resume: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "hosts", tuple(self.hosts or ()))
        if self.acl is not None:
            object.__setattr__(self, "acl", tuple(tuple(rule) for rule in self.acl))
        _check_args(depth=self.depth, max_pages=self.max_pages, delay=self.delay, per_host=self.per_host,
                    timeout=self.timeout, max_bytes=self.max_bytes, charset=self.charset)


def crawl(start_urls: str | Sequence[str], output: str | os.PathLike, options: CrawlOptions | None = None, *,
          progress: Callable[[CrawlReport], None] | None = None) -> CrawlReport:
    """Crawl from `start_urls` breadth-first and write the HTML pages to `output`.

    Start URLs get level ``options.depth``; the links of a page at level L > 0 that pass
    the host scope and the ACL are queued at level L - 1; pages at level 0 are
    fetched but their links are not followed. robots.txt is obeyed. While the
    crawl runs, its state is kept in ``<output>.state``; after Ctrl-C, call again
    with ``resume=True`` to go on. The output appears only when the crawl ends.

    Args:
        start_urls: one or more http(s) URLs; their hosts are in scope.
        output: the WARC.gz or zip file to write.
        options: the crawl's knobs; default `CrawlOptions()`.
        progress: called with a running report after each URL requested; an
            exception it raises ends the crawl as Ctrl-C does (the state is kept).

    Returns:
        The report of the crawl.

    Raises:
        ValueError: a bad start URL or format; the message lists what is allowed.
        CrawlError: robots.txt forbids every start URL, every start URL failed,
            or a file (cookies, URL database, state) cannot be used.
        KeyboardInterrupt: the crawl was interrupted; its state is kept for `resume`.

    Example:
        >>> crawl("https://news.example.com/", "news.warc.gz",
        ...       CrawlOptions(depth=2, contact="ops@example.com"))  # doctest: +SKIP
    """
    o = options or CrawlOptions()
    starts = _start_urls(start_urls)
    out = Path(output)
    fmt = format_of(out, o.format)
    if not out.parent.is_dir():
        raise CrawlError(f"{out}: directory {out.parent} does not exist")
    scope = Scope(None if o.any_host else [host_of(u) for u in starts] + list(o.hosts))
    rules = Acl(o.acl)
    agent = user_agent(o.contact)
    fetcher = Fetcher(user_agent=agent, timeout=o.timeout, max_bytes=o.max_bytes,
                      cookies=_load_cookies(o.cookies))
    robots = RobotsCache(fetcher.get_small, agent)
    refusals = {url: why for url in starts if (why := robots.refusal(url)) is not None}
    if len(refusals) == len(starts):
        raise CrawlError("; ".join(f"{url}: {why}" for url, why in refusals.items()))
    params = json.loads(json.dumps({
        "start_urls": starts, "depth": o.depth, "format": fmt,
        "hosts": None if scope.hosts is None else sorted(scope.hosts),
        "acl": [list(rule) for rule in o.acl or ()],
        "timestamp": o.timestamp or time.strftime("%Y%m%d%H%M"),
    }))
    db = UrlDB(o.urldb) if o.urldb is not None else None
    try:
        state = _open_state(out.with_name(out.name + ".state"), params, o.resume, db)
        crawler = _Crawler(state=state, fetcher=fetcher, robots=robots, scope=scope, acl=rules,
                           urldb=db, output=out, charset=o.charset, delay=o.delay, per_host=o.per_host,
                           max_pages=o.max_pages, progress=progress)
        try:
            crawler.run()
            return crawler.finish(starts, fmt, state.params["timestamp"], o.index_name,
                                  info={"software": user_agent(), "format": "WARC File Format 1.0",
                                        "http-header-user-agent": agent, "robots": "obey",
                                        "start-urls": " ".join(starts), "default-charset": o.charset or ""})
        except KeyboardInterrupt:
            state.close()
            log.warning("interrupted; progress kept in %s; run the same command with --resume to go on",
                        state.path)
            raise
        except BaseException:
            state.close()  # kept, unless finish() removed it
            raise
    finally:
        if db is not None:
            db.close()


def _start_urls(start_urls: str | Sequence[str]) -> list[str]:
    """The normalised start URLs, without duplicates."""
    if isinstance(start_urls, str):
        start_urls = [start_urls]
    urls = []
    for url in start_urls:
        normal = normalize_url(url)
        if normal is None:
            raise ValueError(f"start URL must be an http:// or https:// URL, got {url!r}")
        if normal not in urls:
            urls.append(normal)
    if not urls:
        raise ValueError("at least one start URL is needed")
    return urls


def _check_args(*, depth, max_pages, delay, per_host, timeout, max_bytes, charset) -> None:
    """Raise ValueError for an out-of-range knob."""
    limits = [("depth", depth, 0), ("max_pages", max_pages, 1), ("delay", delay, 0),
              ("per_host", per_host, 1), ("max_bytes", max_bytes, 1)]
    for name, value, low in limits:
        if value < low:
            raise ValueError(f"{name} must be >= {low}, got {value!r}")
    if timeout <= 0:
        raise ValueError(f"timeout must be > 0, got {timeout!r}")
    if charset is not None:
        try:
            codecs.lookup(charset)
        except LookupError:
            raise ValueError(f"unknown charset {charset!r}; use a Python codec name such as "
                             "utf-8, iso-8859-1, shift_jis") from None


def _load_cookies(path: str | os.PathLike | None) -> MozillaCookieJar | None:
    """The cookies of a Mozilla cookies.txt, session cookies included."""
    if path is None:
        return None
    from http.cookiejar import MozillaCookieJar  # with urllib.request, ~0.05 s: not in every command's start-up
    jar = MozillaCookieJar(os.fspath(path))
    try:
        jar.load(ignore_discard=True)
    except OSError as exc:  # http.cookiejar.LoadError is an OSError too
        raise CrawlError(f"{path}: cannot read the cookie file ({exc})") from None
    return jar


def _open_state(path: Path, params: dict, resume: bool, db: UrlDB | None) -> CrawlState:
    """The state to resume, or a fresh one with the start URLs queued."""
    if resume and path.exists():
        state = CrawlState.open(path, params)
        log.info("resuming from %s: %d URLs done, %d queued",
                 path, sum(state.outcomes().values()), len(state.queued()))
        return state
    if resume:
        log.warning("%s: no state file; starting afresh", path)
    elif path.exists():
        log.info("%s: replacing the state of an earlier crawl (use --resume to go on with it)", path)
    try:
        state = CrawlState.create(path, params)
    except (OSError, sqlite3.Error) as exc:
        raise CrawlError(f"{path}: cannot create the crawl state file ({exc})") from None
    depth = params["depth"]
    state.add_start((url, depth, "skipped:known" if depth == 0 and db is not None and url in db else None)
                    for url in params["start_urls"])
    return state


class _Crawler:
    """The fetch loop of one crawl: schedules the frontier on a thread pool, settles results in order."""

    def __init__(self, *, state: CrawlState, fetcher: Fetcher, robots: RobotsCache, scope: Scope,
                 acl: Acl, urldb: UrlDB | None, output: Path, charset: str | None, delay: float,
                 per_host: int, max_pages: int, progress):
        self.state, self.fetcher, self.robots = state, fetcher, robots
        self.scope, self.acl, self.urldb = scope, acl, urldb
        self.output, self.charset = output, charset
        self.delay, self.per_host, self.max_pages = delay, per_host, max_pages
        self.progress = progress
        self.frontier = Frontier(state.queued())
        self.claimed = state.claimed()  # read by worker threads; set.add/in are atomic
        self.fetched = state.fetched_count()
        self.started = time.monotonic()
        self.elapsed_before = state.elapsed
        self._busy: Counter[str] = Counter()
        self._next_at: dict[str, float] = {}

    # --- the loop ----------------------------------------------------------

    def run(self) -> None:
        """Fetch until the frontier is empty or `max_pages` URLs were requested."""
        pool = ThreadPoolExecutor(MAX_WORKERS, thread_name_prefix="stemmer-crawl")
        inflight: dict[Future, Entry] = {}
        try:
            while True:
                self._submit(pool, inflight)
                more = bool(self.frontier) and self.fetched < self.max_pages
                wake = self._next_ready() if more and len(inflight) < MAX_WORKERS else None
                if not inflight:
                    if not more:
                        return
                    time.sleep(max(0.0, (wake or 0.0) - time.monotonic()))
                    continue
                done, _ = wait(inflight, return_when=FIRST_COMPLETED,
                               timeout=None if wake is None else max(0.0, wake - time.monotonic()))
                for future in sorted(done, key=lambda f: inflight[f].seq):
                    entry = inflight.pop(future)
                    host = host_of(entry.url)
                    self._busy[host] -= 1
                    self._next_at[host] = max(self._next_at.get(host, 0.0),
                                              time.monotonic() + self._delay(entry.url))
                    self._settle(entry, future)
                    if self.progress is not None:
                        self.progress(self.report())
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def _submit(self, pool: ThreadPoolExecutor, inflight: dict[Future, Entry]) -> None:
        """Start fetches for every host that is free and past its delay."""
        while len(inflight) < MAX_WORKERS and self.fetched < self.max_pages:
            now = time.monotonic()
            entry = self.frontier.pop(
                lambda host: self._busy[host] < self.per_host and self._next_at.get(host, 0.0) <= now)
            if entry is None:
                return
            if entry.url in self.claimed:
                self.state.settle(entry, "skipped:duplicate", fetched=False)
                continue
            refusal = self.robots.refusal(entry.url)
            if refusal is not None:
                log.info("%s: %s", entry.url, refusal)
                self.state.settle(entry, "robots", fetched=False)
                continue
            self.claimed.add(entry.url)
            host = host_of(entry.url)
            delay = self._delay(entry.url)
            self._busy[host] += 1
            self._next_at[host] = now + delay
            self.fetched += 1
            future = pool.submit(self.fetcher.get, entry.url, follow=self._follow, hop_delay=delay)
            inflight[future] = entry

    def _next_ready(self) -> float | None:
        """The monotonic time at which a waiting host with a free slot can next be asked, if any."""
        times = [self._next_at.get(host, 0.0) for host in self.frontier.hosts()
                 if self._busy[host] < self.per_host]
        return min(times, default=None)

    def _delay(self, url: str) -> float:
        """Seconds to leave between requests to the host of `url`."""
        return max(self.delay, self.robots.crawl_delay(url))

    def _follow(self, target: str) -> str | None:
        """Why a redirect to `target` is not followed, or None (runs in worker threads)."""
        if not self.scope.contains(target):
            return "off-host"
        if not self.acl.allows(target):
            return "rejected"
        if not self.robots.allowed(target):
            return "robots"
        if target in self.claimed:
            return "duplicate"
        self.claimed.add(target)
        return None

    # --- results -----------------------------------------------------------

    def _settle(self, entry: Entry, future: Future) -> None:
        """Record the result of fetching `entry` and queue its links."""
        elapsed = self._elapsed()
        try:
            page: Fetched = future.result()
        except FetchFailed as exc:
            outcome = _outcome(exc)
            if outcome.startswith("error:"):
                log.warning("%s", exc)
            else:
                log.info("%s", exc)
            self.state.settle(entry, outcome, fetched=True, detail=exc.target or exc.message,
                              aliases=[(hop, exc.url) for hop in exc.redirects], elapsed=elapsed)
            return
        known = self.urldb is not None and (entry.url in self.urldb or page.url in self.urldb)
        anchors, links = [], []
        encoding = guess_encoding(page.body, page.content_type, self.charset)
        for raw, text in extract_links(page.body, page.url, encoding=encoding):
            url = normalize_url(raw)
            if url is None or not self.scope.contains(url) or not self.acl.allows(url):
                continue
            anchors.append((url, text))
            if entry.level > 0:
                level = entry.level - 1
                is_known = level == 0 and self.urldb is not None and url in self.urldb
                links.append((url, level, "skipped:known" if is_known else None))
        new = self.state.settle(
            entry, "skipped:known" if known else "stored", fetched=True,
            detail=page.url if page.url != entry.url else None, page=page, store=not known,
            aliases=[(hop, page.url) for hop in page.redirects], anchors=anchors, links=links,
            elapsed=elapsed)
        for added in new:
            self.frontier.push(added)
        log.debug("%s: %s", page.url, "known, links only" if known else "stored")

    def _elapsed(self) -> float:
        return self.elapsed_before + time.monotonic() - self.started

    def report(self) -> CrawlReport:
        """The counts so far."""
        outcomes = self.state.outcomes()
        return CrawlReport(
            output=str(self.output),
            fetched=self.fetched,
            stored=outcomes.get("stored", 0),
            skipped=sum(n for k, n in outcomes.items() if k.startswith("skipped:")),
            errors=sum(n for k, n in outcomes.items() if k.startswith("error:")),
            off_host_redirects=outcomes.get("off-host", 0),
            robots_blocked=outcomes.get("robots", 0),
            elapsed=round(self._elapsed(), 3),
            queued=len(self.frontier),
            redirects_not_followed=tuple((url, target or "") for url, target in self.state.entries("off-host")),
        )

    def finish(self, starts: list[str], fmt: str, timestamp: str, index_name: str,
               info: dict[str, str]) -> CrawlReport:
        """Check the start URLs, write the output, teach the URL database, drop the state."""
        state = self.state
        outcomes = {url: state.outcome_of(url) for url in starts}
        failed = {url: o for url, o in outcomes.items() if o is not None and o not in _START_OK}
        if len(failed) == len(starts):
            reasons = "; ".join(f"{url} ({_why(state, url, o)})" for url, o in failed.items())
            state.remove()
            raise CrawlError(f"every start URL failed: {reasons}")
        report = self.report()
        try:
            if fmt == "warc":
                write_warc(self.output, state.pages(), state.linkinfo(), info=info)
            else:
                write_zip(self.output, state.pages(), state.linkinfo(), timestamp=timestamp,
                          index_name=index_name)
        except OSError as exc:
            raise CrawlError(f"{self.output}: cannot write ({exc.strerror or exc}); the pages are kept "
                             f"in {state.path}, run again with --resume to retry") from None
        if self.urldb is not None:
            seen = [url for page in state.pages() for url in (page.requested, *page.redirects, page.url)]
            self.urldb.mark(seen + [url for url, _ in state.entries("skipped:known")])
        state.remove()
        return report


def _outcome(exc: FetchFailed) -> str:
    """The queue outcome of a failed fetch: 'error:404', 'skipped:too-big', 'off-host', ..."""
    if exc.kind in ("off-host", "robots"):
        return exc.kind
    if exc.kind in _SKIP_KINDS:
        return f"skipped:{exc.kind}"
    if exc.kind == "http":
        return "error:" + exc.message.split()[1]
    return f"error:{exc.kind}"


def _why(state: CrawlState, url: str, outcome: str) -> str:
    """Why a start URL failed, in words."""
    detail = dict(state.entries(outcome)).get(url) or outcome
    if outcome == "off-host":
        return f"redirects off-host to {detail}; add --host {host_of(detail)}"
    if outcome == "robots":
        return "robots.txt forbids it"
    return detail
