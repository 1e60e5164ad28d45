"""Writers for a finished crawl: a WARC.gz (warcio) or a Webstemmer-layout zip, written atomically."""
from __future__ import annotations

import json
import logging
import os
import zipfile
from collections.abc import Iterable
from io import BytesIO
from pathlib import Path

from stemmer.crawl.fetch import Fetched, request_line
from stemmer.files import atomic_output

log = logging.getLogger("stemmer")

FORMATS = ("warc", "zip")
LINKINFO_CONTENT_TYPE = "application/x-stemmer-linkinfo+json"
LINKINFO_URI = "urn:x-stemmer:linkinfo"
LINKINFO_MEMBER = "linkinfo"


def format_of(path: str | os.PathLike, fmt: str | None = None) -> str:
    """The output format: `fmt` if given, else ``zip`` for a ``.zip`` path and ``warc`` otherwise.

    Raises:
        ValueError: `fmt` is not one of :data:`FORMATS`.
    """
    if fmt is None:
        return "zip" if os.fspath(path).lower().endswith(".zip") else "warc"
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    return fmt


def write_warc(path: str | os.PathLike, pages: Iterable[Fetched],
               linkinfo: Iterable[tuple[str, list[str]]], *, info: dict[str, str]) -> None:
    """Write a gzipped WARC: a warcinfo record, a request and a response per page, then the linkinfo.

    Args:
        path: the output file.
        pages: the pages, in the order to write them.
        linkinfo: (target URL, anchor texts); written as one ``metadata`` record of
            Content-Type :data:`LINKINFO_CONTENT_TYPE` whose body is JSON Lines
            ``{"url": ..., "anchors": [...]}``.
        info: fields of the warcinfo record (``software``, ``default-charset``, ...).
    """
    from warcio.statusandheaders import StatusAndHeaders  # here: every verb imports this module, few write WARCs
    from warcio.warcwriter import WARCWriter

    with atomic_output(path, fsync=True) as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(writer.create_warcinfo_record(Path(path).name, info))
        for page in pages:
            warc_headers = {"WARC-Date": page.date}
            response = writer.create_warc_record(
                page.url, "response", payload=BytesIO(page.body),
                http_headers=StatusAndHeaders(f"{page.status} {page.reason}".strip(),
                                              list(page.headers), protocol=page.protocol),
                warc_headers_dict=dict(warc_headers))
            request = writer.create_warc_record(
                page.url, "request",
                http_headers=StatusAndHeaders(request_line(page.url), list(page.request_headers),
                                              is_http_request=True),
                warc_headers_dict=dict(warc_headers))
            writer.write_request_response_pair(request, response)
        body = "".join(json.dumps({"url": url, "anchors": anchors}, ensure_ascii=False) + "\n"
                       for url, anchors in linkinfo).encode("utf-8")
        writer.write_record(writer.create_warc_record(
            LINKINFO_URI, "metadata", payload=BytesIO(body), length=len(body),
            warc_content_type=LINKINFO_CONTENT_TYPE))


def member_name(url: str, timestamp: str, index_name: str = "") -> str:
    """The zip member of `url`: ``<timestamp>/<host>/<path>``, `index_name` appended after a final ``/``.

    >>> member_name("https://example.com/news/?p=2#top", "202401010000")
    '202401010000/example.com/news/?p=2'
    >>> member_name("http://example.com/", "202401010000", "index.html")
    '202401010000/example.com/index.html'
    """
    rest = url.split("://", 1)[-1].split("#", 1)[0]
    if rest.endswith("/"):
        rest += index_name
    return f"{timestamp}/{rest}"


def write_zip(path: str | os.PathLike, pages: Iterable[Fetched],
              linkinfo: Iterable[tuple[str, list[str]]], *, timestamp: str, index_name: str = "") -> None:
    """Write a Webstemmer-layout zip: one member of raw page bytes per page, plus ``linkinfo``.

    Args:
        path: the output file.
        pages: the pages; a page whose member name is taken already is left out.
        linkinfo: (target URL, anchor texts); the ``linkinfo`` member has one line
            ``repr(('<timestamp>/<host>/<path>', ['anchor', ...]))`` per target.
        timestamp: the first part of every member name.
        index_name: appended to URLs that end in ``/``.
    """
    with atomic_output(path, fsync=True) as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        names = set()
        for page in pages:
            name = member_name(page.url, timestamp, index_name)
            if name in names:
                log.info("%s: same zip member as an earlier page (%s); left out", page.url, name)
                continue
            names.add(name)
            member = zipfile.ZipInfo(name, date_time=_zip_time(page.date))
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            archive.writestr(member, page.body)
        lines = "".join(repr((member_name(url, timestamp, index_name), anchors)) + "\n"
                        for url, anchors in linkinfo)
        archive.writestr(LINKINFO_MEMBER, lines.encode("utf-8"))


def _zip_time(iso_date: str) -> tuple[int, int, int, int, int, int]:
    """A zip date_time tuple from ``YYYY-MM-DDTHH:MM:SSZ``."""
    date, time = iso_date.rstrip("Z").split("T")
    return (*map(int, date.split("-")), *map(int, time.split(":")))  # type: ignore[return-value]
