"""Read WARC (and ARC) files, gzipped or not, with warcio."""
from __future__ import annotations

import gzip
import logging
import os
import zlib
from collections.abc import Callable, Iterator
from typing import BinaryIO

from stemmer.errors import InputError
from stemmer.pages.linkinfo import read_linkinfo
from stemmer.pages.page import DAMAGED_INPUT, SKIPPED_PAGE, Page, site_of
from stemmer.pages.decode import MAX_PAGE_BYTES, charset_of, decoded_page, skip_reason

log = logging.getLogger("stemmer")

LINKINFO_TYPE = "application/x-stemmer-linkinfo+json"
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/xhtml")


def read_warc(path: str | os.PathLike, *, charset: str | None = None) -> Iterator[Page]:
    """Read the HTML pages of a WARC file, in record order.

    Pages come from ``response`` records with status 200 and an HTML Content-Type (or none and an
    HTML-looking body) and from ``text/html`` ``resource`` records; the id is the target URL.
    Anchor texts come from ``metadata`` records of type ``application/x-stemmer-linkinfo+json``,
    collected in a first pass, which is skipped when the file cannot seek (a pipe).

    Args:
        path: the WARC, WARC.gz, ARC or ARC.gz file.
        charset: the charset of pages that declare none in HTTP or HTML.

    Yields:
        One Page per HTML record. A file cut short yields the records before the damage, then
        logs a warning with the offset.

    Raises:
        InputError: the file is not a WARC (or ARC) file.
    """
    with open(path, "rb") as f:
        links: dict[str, list[str]] = {}
        if f.seekable():
            for record, body in _records(f, path, _is_linkinfo, warn=False):
                text = body.decode("utf-8", "replace").splitlines()
                links.update(read_linkinfo(text, f"{path}: linkinfo record"))
            f.seek(0)
        for record, body in _records(f, path, _is_html):
            url = record.rec_headers.get_header("WARC-Target-URI")
            if _content_type(record) is None and not _html_like(body):
                log.warning("%s: %s: skipped, no Content-Type and no <html> at its start", path, url,
                            extra=SKIPPED_PAGE)
                continue
            if reason := skip_reason(body):
                log.warning("%s: %s: skipped, %s", path, url, reason, extra=SKIPPED_PAGE)
                continue
            http = charset_of(_content_type(record))
            yield decoded_page(url, url, site_of(url), body, http_charset=http, default=charset,
                               anchors=tuple(links.get(url, ())))


def _records(f: BinaryIO, path, wanted: Callable, *, warn: bool = True) -> Iterator[tuple[object, bytes]]:
    """The wanted records with their payloads, stopping with a warning at a damaged record."""
    from warcio.archiveiterator import ArchiveIterator  # here: warcio takes a tenth of a second to import
    from warcio.exceptions import ArchiveLoadFailed

    records = ArchiveIterator(f, arc2warc=True)
    size = os.fstat(f.fileno()).st_size if f.seekable() else None
    record = None
    while True:
        start = records.offset
        try:
            record = next(records)
        except StopIteration:
            # warcio ends quietly inside a cut-off gzip member; only the members from here on tell.
            if size is not None and not _gzip_members_whole(f, start):
                _damaged(path, start, warn)
            return
        except ArchiveLoadFailed as e:
            head = _head(f)
            if record is None and not head.startswith((b"WARC/", b"filedesc://")):
                first_line = head.split(b"\n", 1)[0][:100].decode("utf-8", "replace").strip()
                raise InputError(f"{path}: not a WARC file (first line: {first_line!r})") from None
            if warn:  # e.g. a whole file gzipped as one member; warcio's message names the fix
                log.warning("%s: stopped at offset %d: %s", path, start, e, extra=DAMAGED_INPUT)
            return
        except Exception:  # noqa: BLE001  (warcio raises AttributeError, among others, on a cut-off header)
            return _damaged(path, start, warn)
        want = wanted(record)
        try:
            body = record.content_stream().read(MAX_PAGE_BYTES + 1) if want else b""
            while record.raw_stream.read(1 << 20):  # to the record's end, so that a short one shows
                pass
        except Exception:  # noqa: BLE001  (zlib, brotli and chunking errors in the payload)
            return _damaged(path, start, warn)
        if record.length is None or getattr(record.raw_stream, "limit", 0) > 0:
            return _damaged(path, start, warn)
        if want:
            yield record, body


def _gzip_members_whole(f: BinaryIO, start: int) -> bool:
    """Whether the gzip members from `start` to the file's end are complete (True if not gzip)."""
    f.seek(start)
    if (magic := f.read(2)) != b"\x1f\x8b":
        return magic != b"\x1f"  # a gzip member cut after its first byte
    f.seek(start)
    member, fed = zlib.decompressobj(31), False
    while chunk := f.read(1 << 20):
        while chunk:
            try:
                member.decompress(chunk)
            except zlib.error:
                return False
            fed = True
            if not member.eof:
                break
            chunk = member.unused_data
            member, fed = zlib.decompressobj(31), False
    return not fed


def _damaged(path, offset: int, warn: bool) -> None:
    """Log that the file is damaged (most often cut short) from the record at ``offset`` on."""
    if warn:
        log.warning("%s: truncated or damaged at offset %d; read the records before it", path, offset,
                    extra=DAMAGED_INPUT)


def _is_linkinfo(record) -> bool:
    """Whether a record holds the anchor texts that stemmer's crawler writes."""
    content_type = record.rec_headers.get_header("Content-Type") or ""
    return record.rec_type == "metadata" and content_type.startswith(LINKINFO_TYPE)


def _is_html(record) -> bool:
    """Whether a record is an HTML page: a 200 response or a resource with an HTML type."""
    if record.rec_type == "response":
        if not record.http_headers or record.http_headers.get_statuscode() != "200":
            return False
        content_type = _content_type(record)
        return content_type is None or content_type.split(";")[0].strip().lower() in HTML_TYPES
    if record.rec_type == "resource":
        return (_content_type(record) or "").split(";")[0].strip().lower() in HTML_TYPES
    return False


def _content_type(record) -> str | None:
    """The page's Content-Type: of the HTTP response, or of the WARC record for a resource."""
    headers = record.http_headers if record.rec_type == "response" else record.rec_headers
    return headers.get_header("Content-Type") if headers else None


def _html_like(body: bytes) -> bool:
    """Whether a body without a Content-Type looks like an HTML page."""
    head = body[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith(b"<!doctype html") or b"<html" in head


def _head(f: BinaryIO) -> bytes:
    """The file's first bytes, ungzipped if need be, to tell a WARC from another file."""
    if not f.seekable():
        return b"WARC/"  # a pipe cannot be re-read; report warcio's own error instead
    f.seek(0)
    magic = f.read(2)
    f.seek(0)
    try:
        return (gzip.GzipFile(fileobj=f) if magic == b"\x1f\x8b" else f).read(200)
    except (OSError, EOFError, zlib.error):
        return b""
