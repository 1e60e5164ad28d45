"""The URL database (``-U``): article URLs fetched by earlier crawls, so a daily crawl stores only new ones."""
from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable

from stemmer.errors import CrawlError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS urls (
    url TEXT PRIMARY KEY,
    first_seen REAL NOT NULL,  -- Unix time the URL was first stored
    last_seen REAL NOT NULL    -- Unix time a crawl last met it
)
"""


class UrlDB:
    """A SQLite table of URLs with the time they were first and last seen.

    Webstemmer kept md5(URL) -> last-seen time in a dbm file; the URL itself is
    kept here so that the file can be read and pruned with the sqlite3 shell.
    """

    def __init__(self, path: str | os.PathLike):
        """Open or create the database at `path`.

        Raises:
            CrawlError: the file exists but is not such a database.
        """
        self.path = os.fspath(path)
        try:
            self._conn = sqlite3.connect(self.path)
            self._conn.execute(_SCHEMA)
            self._conn.commit()
        except sqlite3.Error as exc:
            raise CrawlError(f"{self.path}: not a stemmer URL database ({exc})") from None

    def __contains__(self, url: str) -> bool:
        return self._conn.execute("SELECT 1 FROM urls WHERE url = ?", (url,)).fetchone() is not None

    def __len__(self) -> int:
        return self._conn.execute("SELECT count(*) FROM urls").fetchone()[0]

    def mark(self, urls: Iterable[str], when: float | None = None) -> None:
        """Record `urls` as seen at `when` (default now), keeping their first-seen time."""
        when = time.time() if when is None else when
        with self._conn:
            self._conn.executemany(
                "INSERT INTO urls (url, first_seen, last_seen) VALUES (?, ?, ?) "
                "ON CONFLICT(url) DO UPDATE SET last_seen = excluded.last_seen",
                ((url, when, when) for url in urls))

    def prune(self, older_than: float) -> int:
        """Forget URLs last seen before Unix time `older_than`; returns how many."""
        with self._conn:
            return self._conn.execute("DELETE FROM urls WHERE last_seen < ?", (older_than,)).rowcount

    def close(self) -> None:
        """Close the database."""
        self._conn.close()

    def __enter__(self) -> UrlDB:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
