"""A crawl's state in a SQLite sidecar file (``<output>.state``), so an interrupted crawl can resume.

Every fetched URL is settled in one transaction: its outcome, the page to
store, its anchors and the links it queues. A crawl stopped at any moment
therefore resumes with each URL either settled or still queued, never half
done; pages in flight when it stopped are fetched again.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from stemmer.crawl.fetch import Fetched
from stemmer.crawl.frontier import Entry
from stemmer.errors import CrawlError

STATE_VERSION = 1
# The parameters a resumed crawl must share with the crawl it resumes.
FIXED_PARAMS = ("start_urls", "depth", "hosts", "acl", "format")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE queue (
    seq INTEGER PRIMARY KEY,        -- discovery order
    url TEXT NOT NULL UNIQUE,
    level INTEGER NOT NULL,
    outcome TEXT,                   -- NULL while queued, else 'stored', 'skipped:...', 'error:...', ...
    fetched INTEGER NOT NULL DEFAULT 0,
    detail TEXT                     -- final URL, or the redirect target not followed
);
CREATE TABLE aliases (url TEXT PRIMARY KEY, final_url TEXT NOT NULL);
CREATE TABLE pages (
    seq INTEGER PRIMARY KEY, url TEXT NOT NULL, requested TEXT NOT NULL,
    status INTEGER NOT NULL, reason TEXT NOT NULL, protocol TEXT NOT NULL,
    headers TEXT NOT NULL, request_headers TEXT NOT NULL, body BLOB NOT NULL,
    date TEXT NOT NULL, redirects TEXT NOT NULL
);
CREATE TABLE anchors (id INTEGER PRIMARY KEY, target TEXT NOT NULL, text TEXT NOT NULL,
                      UNIQUE (target, text));
"""


class CrawlState:
    """The queue, the outcomes, the spooled pages and the anchors of one crawl."""

    def __init__(self, path: Path, conn: sqlite3.Connection):
        """Use :meth:`create` or :meth:`open`."""
        self.path = path
        self._conn = conn
        self._seen: set[str] = {url for (url,) in conn.execute("SELECT url FROM queue")}

    @classmethod
    def create(cls, path: str | os.PathLike, params: dict) -> CrawlState:
        """A fresh state file at `path` (an old one is replaced) for a crawl with `params`."""
        path = Path(path)
        path.unlink(missing_ok=True)
        conn = sqlite3.connect(path)
        conn.executescript(_SCHEMA)
        with conn:
            conn.execute("INSERT INTO meta VALUES ('version', ?)", (json.dumps(STATE_VERSION),))
            conn.execute("INSERT INTO meta VALUES ('params', ?)", (json.dumps(params),))
            conn.execute("INSERT INTO meta VALUES ('elapsed', '0')")
        return cls(path, conn)

    @classmethod
    def open(cls, path: str | os.PathLike, params: dict) -> CrawlState:
        """The state file at `path`, checked against the `params` of the crawl that resumes it.

        Raises:
            CrawlError: the file is not a state file, or was made for a different crawl.
        """
        path = Path(path)
        try:
            conn = sqlite3.connect(path)
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            version = json.loads(meta["version"])
            stored = json.loads(meta["params"])
        except (sqlite3.Error, KeyError, ValueError) as exc:
            raise CrawlError(f"{path}: not a crawl state file ({exc}); delete it or drop --resume") from None
        if version != STATE_VERSION:
            raise CrawlError(f"{path}: state version {version}, expected {STATE_VERSION}; "
                             "delete it or drop --resume")
        for key in FIXED_PARAMS:
            if stored.get(key) != params.get(key):
                raise CrawlError(f"{path}: made for {key}={stored.get(key)!r}, not {params.get(key)!r}; "
                                 "resume with the same settings, or drop --resume")
        return cls(path, conn)

    @property
    def params(self) -> dict:
        """The parameters the crawl started with."""
        return json.loads(self._meta("params"))

    @property
    def elapsed(self) -> float:
        """Seconds spent crawling before this run."""
        return float(self._meta("elapsed"))

    def _meta(self, key: str) -> str:
        return self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]

    # --- the queue ---------------------------------------------------------

    def seen(self, url: str) -> bool:
        """Whether `url` was ever queued."""
        return url in self._seen

    def add(self, url: str, level: int, outcome: str | None = None) -> Entry | None:
        """Queue `url` at `level` (or settle it at once with `outcome`); None if it was seen before."""
        if url in self._seen:
            return None
        self._seen.add(url)
        seq = self._conn.execute("INSERT INTO queue (url, level, outcome) VALUES (?, ?, ?)",
                                 (url, level, outcome)).lastrowid
        return Entry(seq, url, level)

    def add_start(self, entries: Iterable[tuple[str, int, str | None]]) -> None:
        """Queue the (URL, level, outcome) start entries of a fresh crawl."""
        with self._conn:
            for url, level, outcome in entries:
                self.add(url, level, outcome)

    def queued(self) -> list[Entry]:
        """The entries still waiting, in discovery order."""
        rows = self._conn.execute("SELECT seq, url, level FROM queue WHERE outcome IS NULL ORDER BY seq")
        return [Entry(*row) for row in rows]

    def claimed(self) -> set[str]:
        """URLs already fetched or settled, under their own name or as a redirect hop."""
        rows = self._conn.execute(
            "SELECT url FROM queue WHERE outcome IS NOT NULL "
            "UNION SELECT url FROM aliases UNION SELECT final_url FROM aliases")
        return {url for (url,) in rows}

    def settle(self, entry: Entry, outcome: str, *, fetched: bool, detail: str | None = None,
               page: Fetched | None = None, store: bool = False, aliases: Iterable[tuple[str, str]] = (),
               anchors: Iterable[tuple[str, str]] = (), links: Iterable[tuple[str, int, str | None]] = (),
               elapsed: float | None = None) -> list[Entry]:
        """Record what became of `entry`, in one transaction.

        Args:
            entry: the queue entry.
            outcome: 'stored', 'skipped:<why>', 'error:<why>', 'robots' or 'off-host'.
            fetched: whether a request was sent for it.
            detail: the final URL, or a redirect target not followed.
            page: the fetched page.
            store: whether to spool `page` for the output.
            aliases: (redirect hop, URL it led to) pairs.
            anchors: (target URL, text) pairs found on the page.
            links: (URL, level, outcome) of links to queue; a non-None outcome settles them at once.
            elapsed: total crawl seconds so far.

        Returns:
            The new queue entries still to fetch.
        """
        new = []
        with self._conn:
            self._conn.execute("UPDATE queue SET outcome = ?, fetched = ?, detail = ? WHERE seq = ?",
                               (outcome, int(fetched), detail, entry.seq))
            self._conn.executemany("INSERT OR REPLACE INTO aliases VALUES (?, ?)", aliases)
            if page is not None and store:
                self._conn.execute(
                    "INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (entry.seq, page.url, page.requested, page.status, page.reason, page.protocol,
                     json.dumps(page.headers), json.dumps(page.request_headers), page.body,
                     page.date, json.dumps(page.redirects)))
            self._conn.executemany("INSERT OR IGNORE INTO anchors (target, text) VALUES (?, ?)",
                                   ((t, text) for t, text in anchors if text))
            for url, level, link_outcome in links:
                added = self.add(url, level, link_outcome)
                if added is not None and link_outcome is None:
                    new.append(added)
            if elapsed is not None:
                self._conn.execute("UPDATE meta SET value = ? WHERE key = 'elapsed'", (repr(elapsed),))
        return new

    # --- results -----------------------------------------------------------

    def outcomes(self) -> dict[str, int]:
        """How many URLs ended with each outcome."""
        return dict(self._conn.execute(
            "SELECT outcome, count(*) FROM queue WHERE outcome IS NOT NULL GROUP BY outcome"))

    def fetched_count(self) -> int:
        """How many URLs were requested."""
        return self._conn.execute("SELECT count(*) FROM queue WHERE fetched").fetchone()[0]

    def entries(self, outcome: str) -> list[tuple[str, str | None]]:
        """(URL, detail) of the entries with `outcome`, in discovery order."""
        return list(self._conn.execute(
            "SELECT url, detail FROM queue WHERE outcome = ? ORDER BY seq", (outcome,)))

    def outcome_of(self, url: str) -> str | None:
        """The outcome of `url`; None while queued or if never seen."""
        row = self._conn.execute("SELECT outcome FROM queue WHERE url = ?", (url,)).fetchone()
        return row[0] if row else None

    def pages(self) -> Iterator[Fetched]:
        """The spooled pages, in discovery order."""
        rows = self._conn.execute(
            "SELECT url, requested, status, reason, protocol, headers, request_headers, body, date, "
            "redirects FROM pages ORDER BY seq")
        for url, requested, status, reason, protocol, headers, req_headers, body, date, hops in rows:
            yield Fetched(url=url, requested=requested, status=status, reason=reason, protocol=protocol,
                          headers=tuple(map(tuple, json.loads(headers))),
                          request_headers=tuple(map(tuple, json.loads(req_headers))),
                          body=bytes(body), date=date, redirects=tuple(json.loads(hops)))

    def linkinfo(self) -> list[tuple[str, list[str]]]:
        """(target URL, anchor texts) in order of first sight; redirected targets under their final URL."""
        aliases = dict(self._conn.execute("SELECT url, final_url FROM aliases"))
        grouped: dict[str, list[str]] = {}
        for target, text in self._conn.execute("SELECT target, text FROM anchors ORDER BY id"):
            texts = grouped.setdefault(aliases.get(target, target), [])
            if text not in texts:
                texts.append(text)
        return list(grouped.items())

    def close(self) -> None:
        """Close the file, keeping it."""
        self._conn.close()

    def remove(self) -> None:
        """Close and delete the file."""
        self._conn.close()
        self.path.unlink(missing_ok=True)
