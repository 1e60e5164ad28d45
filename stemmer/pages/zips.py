"""Read a zip in Webstemmer's layout: members ``<timestamp>/<host>/<path>`` and a ``linkinfo``."""
from __future__ import annotations

import logging
import os
import zipfile
import zlib
from collections.abc import Iterator

from stemmer.errors import InputError
from stemmer.pages.linkinfo import read_linkinfo
from stemmer.pages.page import DAMAGED_INPUT, SKIPPED_PAGE, Page, site_of
from stemmer.pages.decode import MAX_PAGE_BYTES, decoded_page, skip_reason

log = logging.getLogger("stemmer")

LINKINFO = "linkinfo"
# What zipfile raises for one member's bad data while the archive as a whole reads.
_MEMBER_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError)


def read_zip(path: str | os.PathLike, *, charset: str | None = None) -> Iterator[Page]:
    """Read the pages of a Webstemmer zip, in archive order.

    A member's name is the page's id, and ``http://`` plus the name without its timestamp its URL.
    The anchor texts in the ``linkinfo`` member become the pages' ``anchors``.

    Args:
        path: the zip file.
        charset: the charset of pages that declare none.

    Yields:
        One Page per member; unsafe names and damaged or binary members are skipped with a warning.

    Raises:
        InputError: the zip cannot be opened (not a zip, or its end cut off).
    """
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise InputError(f"{path}: not a readable zip file ({e}); if it was cut short, "
                         f"'zip -FF {path} --out fixed.zip' may recover its members") from None
    with archive:
        infos = archive.infolist()
        links = _linkinfo(archive, infos, path)
        for info in infos:
            name = info.filename
            if _is_linkinfo(name) or (name.endswith("/") and info.file_size == 0):
                continue
            if reason := _unsafe(name):
                log.warning("%s:%s: skipped, %s", path, name, reason, extra=SKIPPED_PAGE)
                continue
            try:
                with archive.open(info) as f:
                    data = f.read(MAX_PAGE_BYTES + 1)  # reading to the end checks the CRC
            except _MEMBER_ERRORS as e:
                log.warning("%s:%s: skipped, damaged member (%s)", path, name, e, extra=SKIPPED_PAGE)
                continue
            if reason := skip_reason(data):
                log.warning("%s:%s: skipped, %s", path, name, reason, extra=SKIPPED_PAGE)
                continue
            url = _as_url(name) if "/" in name else None
            anchors = tuple(links.get(url or name, ()))
            yield decoded_page(name, url, site_of(url), data, default=charset, anchors=anchors)


def _is_linkinfo(name: str) -> bool:
    """Whether a member is the linkinfo, at the top or beside the pages (``<timestamp>/linkinfo``)."""
    return name == LINKINFO or (name.endswith("/" + LINKINFO) and name.count("/") == 1)


def _unsafe(name: str) -> str | None:
    """Why a member name must not be trusted (it could escape a directory), or None."""
    if "\\" in name:
        return "unsafe member name (backslash)"
    if name.startswith("/"):
        return "unsafe member name (absolute path)"
    if ".." in name.split("/"):
        return "unsafe member name ('..' component)"
    return None


def _linkinfo(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], path) -> dict[str, list[str]]:
    """The anchor texts of the zip's linkinfo member, by target URL."""
    for info in infos:
        if _is_linkinfo(info.filename):
            try:
                text = archive.read(info).decode("utf-8", "replace")
            except _MEMBER_ERRORS as e:
                log.warning("%s:%s: skipped, damaged member (%s)", path, info.filename, e, extra=DAMAGED_INPUT)
                return {}
            by_url: dict[str, list[str]] = {}
            for target, texts in read_linkinfo(text.splitlines(), f"{path}:{info.filename}").items():
                by_url.setdefault(_as_url(target), []).extend(texts)
            return by_url
    return {}


def _as_url(target: str) -> str:
    """A repr-form target ``<timestamp>/<host>/<path>`` as ``http://<host>/<path>``; URLs stay."""
    if "://" in target or "/" not in target:
        return target
    return "http://" + target.split("/", 1)[1]
