"""Read a mirror as ``wget -r`` leaves it: ``<root>/<host>/<path>``."""
from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from stemmer.pages.page import SKIPPED_PAGE, Page, site_of
from stemmer.pages.decode import MAX_PAGE_BYTES, decoded_page, skip_reason

log = logging.getLogger("stemmer")

HTML_SUFFIXES = {".html", ".htm", ".shtml", ".php", ".asp", ".aspx", ".xhtml", ".jsp", ".cgi", ""}
# Files a mirror holds beside its pages; skipped quietly, as a warning for each would bury real ones.
ASSET_SUFFIXES = {".css", ".js", ".mjs", ".map", ".json", ".xml", ".rss", ".atom", ".txt", ".csv",
                  ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".ico", ".bmp", ".tif",
                  ".tiff", ".pdf", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar",
                  ".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".webm", ".ogg",
                  ".wav", ".avi", ".mov", ".swf", ".exe", ".dmg", ".doc", ".docx", ".xls", ".xlsx",
                  ".ppt", ".pptx", ".odt", ".epub", ".wasm"}


def read_wget(root: str | os.PathLike, *, charset: str | None = None) -> Iterator[Page]:
    """Read the HTML pages of a wget mirror, in sorted path order.

    A root whose name has a dot (``example.com``) is one host's directory; otherwise each
    directory in it is a host. A page's id is ``host/path`` and its URL ``http://host/path``,
    with ``index.html`` standing for its directory's URL.

    Args:
        root: the mirror directory.
        charset: the charset of pages that declare none.

    Yields:
        One Page per HTML file; other files are skipped, unreadable pages with a warning.
    """
    top = os.path.abspath(root)
    base = os.path.dirname(top) if "." in os.path.basename(top) else top
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for filename in sorted(filenames):
            path = Path(dirpath, filename)
            rel = Path(os.path.relpath(path, base)).as_posix()
            if filename == "robots.txt" or not _looks_html(path):
                continue
            try:
                with path.open("rb") as f:
                    data = f.read(MAX_PAGE_BYTES + 1)
            except OSError as e:
                log.warning("%s: skipped, %s", path, e.strerror or e, extra=SKIPPED_PAGE)
                continue
            if reason := skip_reason(data):
                log.warning("%s: skipped, %s", path, reason, extra=SKIPPED_PAGE)
                continue
            url = _url_of(rel)
            yield decoded_page(rel, url, site_of(url), data, default=charset)


def _looks_html(path: Path) -> bool:
    """Whether a mirrored file is a page: by its suffix (query string aside), else by its first byte."""
    suffix = PurePosixPath(path.name.split("?", 1)[0]).suffix.lower()
    if suffix in HTML_SUFFIXES:
        return True
    if suffix in ASSET_SUFFIXES:
        return False
    try:
        with path.open("rb") as f:
            head = f.read(512)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def _url_of(rel: str) -> str | None:
    """``http://host/path`` for a ``host/path``; None for a file outside any host directory."""
    if "/" not in rel:
        return None
    if rel == "index.html" or rel.endswith("/index.html"):
        rel = rel[: -len("index.html")]
    return "http://" + quote(rel, safe="/:@!$&'()*+,;=?~%")
