"""``read_pages``: pick a reader for each input by its kind, and read single HTML files."""
from __future__ import annotations

import gzip
import html as html_lib
import logging
import os
import re
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator

from stemmer.errors import InputError
from stemmer.pages.page import SKIPPED_PAGE, Page, site_of
from stemmer.pages.decode import MAX_PAGE_BYTES, decode_html, skip_reason
from stemmer.pages.jsonl import read_jsonl
from stemmer.pages.warc import read_warc
from stemmer.pages.wget import read_wget
from stemmer.pages.zips import read_zip
from stemmer.urls import split_url

log = logging.getLogger("stemmer")

SUFFIXES = {".zip": "zip", ".warc": "warc", ".warc.gz": "warc", ".arc": "warc", ".arc.gz": "warc",
            ".jsonl": "jsonl", ".jsonl.gz": "jsonl", ".ndjson": "jsonl", ".ndjson.gz": "jsonl",
            ".html": "html", ".htm": "html", ".xhtml": "html", ".shtml": "html"}
_TAG = re.compile(r"<(?:link|meta)\b[^>]*>", re.I)
_ATTR = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


def read_pages(inputs: str | os.PathLike | Iterable[str | os.PathLike], *,
               charset: str | None = None,
               on_error: Callable[[str | os.PathLike, InputError], None] | None = None) -> Iterator[Page]:
    """Read the pages of crawls, whatever their format, one at a time.

    Each input is a wget mirror directory, a Webstemmer ``.zip``, a ``.warc``/``.warc.gz`` (or
    ARC), a ``.jsonl``/``.jsonl.gz``/``.ndjson`` file, or a single HTML file; an unknown suffix is
    sniffed. ``-`` reads file names from standard input, one a line. Pages that repeat an earlier
    id are skipped with a warning.

    Args:
        inputs: a path, or an iterable of paths.
        charset: the charset of pages that declare none (HTTP header or ``<meta>``).
        on_error: called with an input and the error that makes it unreadable as a whole,
            instead of raising; the other inputs are still read.

    Yields:
        Page records in input order. A page that cannot be read (empty, binary, damaged) is
        skipped with a warning on the ``stemmer`` logger.

    Raises:
        InputError: an input is missing, of unknown format, or unreadable as a whole.

    Example:
        >>> for page in read_pages(["mirror/", "more.warc.gz"]):  # doctest: +SKIP
        ...     print(page.id, page.site)
    """
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    seen: set[str] = set()
    for source in inputs:
        pages = _read_listed(charset) if os.fspath(source) == "-" else _read(source, charset)
        try:
            for page in pages:
                if page.id in seen:
                    log.warning("%s: skipped, same id as an earlier page", page.id, extra=SKIPPED_PAGE)
                    continue
                seen.add(page.id)
                yield page
        except InputError as exc:
            if on_error is None:
                raise
            on_error(source, exc)


def _read_listed(charset: str | None) -> Iterator[Page]:
    """The pages of the files named on standard input; a missing one is skipped with a warning."""
    for line in sys.stdin:
        if name := line.strip():
            yield from _read(name, charset, listed=True)


def _read(path: str | os.PathLike, charset: str | None, *, listed: bool = False) -> Iterator[Page]:
    """The pages of one input, by its kind; a listed file of unknown kind is read as HTML."""
    if not os.path.exists(path):
        if not listed:
            raise InputError(f"{path}: no such file or directory")
        log.warning("%s: skipped, no such file or directory", path, extra=SKIPPED_PAGE)
        return
    kind = _kind(path)
    if kind == "wget":
        yield from read_wget(path, charset=charset)
    elif kind == "zip":
        yield from read_zip(path, charset=charset)
    elif kind == "warc":
        yield from read_warc(path, charset=charset)
    elif kind == "jsonl":
        yield from read_jsonl(path)
    elif kind == "html" or listed:
        yield from _read_html(path, charset)
    else:
        raise InputError(f"{path}: unknown input format (expected a directory, .zip, .warc, "
                         f".warc.gz, .jsonl, .jsonl.gz or an HTML file)")


def _kind(path: str | os.PathLike) -> str | None:
    """The reader for an input: by being a directory, by suffix, else by its first bytes."""
    if os.path.isdir(path):
        return "wget"
    name = os.path.basename(path).lower()
    for suffix, kind in SUFFIXES.items():
        if name.endswith(suffix):
            return kind
    try:
        with open(path, "rb") as f:
            head = f.read(512)
        gzipped = head.startswith(b"\x1f\x8b")
        if gzipped:
            with gzip.open(path) as f:
                head = f.read(512)
    except (OSError, EOFError, zlib.error):
        return None
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"WARC/", b"filedesc://")):
        return "warc"
    if text.startswith(b"{"):
        return "jsonl"
    if gzipped:
        return None
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    return "html" if text.startswith(b"<") else None


def _read_html(path: str | os.PathLike, charset: str | None) -> Iterator[Page]:
    """One HTML file as a Page; its URL from ``<link rel=canonical>`` or ``og:url`` if any."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PAGE_BYTES + 1)
    except OSError as e:
        log.warning("%s: skipped, %s", path, e.strerror or e, extra=SKIPPED_PAGE)
        return
    if reason := skip_reason(data):
        log.warning("%s: skipped, %s", path, reason, extra=SKIPPED_PAGE)
        return
    html = decode_html(data, default=charset)
    url = _declared_url(html)
    yield Page(os.fspath(path), url, site_of(url), html)


def _declared_url(html: str) -> str | None:
    """The page's own absolute URL from ``<link rel=canonical>``, else ``<meta property=og:url>``."""
    canonical = og = None
    for tag in _TAG.finditer(html):
        attrs = {m.group(1).lower(): html_lib.unescape(m.group(2) or m.group(3) or m.group(4) or "").strip()
                 for m in _ATTR.finditer(tag.group())}
        if "canonical" in attrs.get("rel", "").lower().split():
            canonical = canonical or attrs.get("href")
        elif attrs.get("property", "").lower() == "og:url":
            og = og or attrs.get("content")
    for url in (canonical, og):
        parts = split_url(url) if url else None
        if parts and parts.scheme in ("http", "https") and parts.hostname:
            return url
    return None
