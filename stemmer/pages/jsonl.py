"""Read JSON Lines of pages, ``{"url": ..., "html": ...}`` per line, optionally gzipped."""
from __future__ import annotations

import contextlib
import gzip
import json
import logging
import os
import re
import zlib
from collections.abc import Iterable, Iterator
from itertools import islice

from stemmer.pages.decode import PYTHON_TWINS, drop_nuls, skip_reason, text_skip_reason
from stemmer.pages.page import DAMAGED_INPUT, SKIPPED_PAGE, Page, site_of

try:  # optional (pip install stemmer[fast]): decodes a page's line in half json's time
    from orjson import loads as _orjson_loads
except ImportError:
    _orjson_loads = None
try:  # compiled where the install built it, else the Python twin below (STEMMER_WALKER=python also means it)
    from stemmer.pages._utf8 import html_utf8 as _compiled_html_utf8
except ImportError:
    _compiled_html_utf8 = None
try:  # optional (pip install stemmer[fast]): inflates gzip in 40% of zlib's time
    from isal import igzip as _igzip
except ImportError:
    _igzip = None

log = logging.getLogger("stemmer")
# gzip's line reader decompresses 8 KB at a time, each through a few Python calls; a
# page's line is tens of KB.  Lines are cut from what one read of the gzip stream gives
# (what 8 KB of compressed bytes hold) instead: a third less time to read a page.
GZIP_READ = 1 << 20


def read_jsonl(path: str | os.PathLike) -> Iterator[Page]:
    """Read pages from JSON Lines, such as the evaluation sets' ``pages.jsonl.gz``.

    Each line is an object with ``html`` (text) and ``url`` (or null), and optionally ``id``
    (else the URL, else ``file:line``), ``site`` (else the URL's host) and ``anchors``.

    Args:
        path: the ``.jsonl``/``.ndjson`` file, gzipped or not.

    Yields:
        One Page per line; a bad line is skipped with a warning naming its number, and a file cut
        short ends with a warning.
    """
    with open(path, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    name, number = os.path.basename(path), 0
    with contextlib.ExitStack() as opened:
        lines = opened.enter_context(contextlib.closing(_gzipped_lines(path)) if gzipped else open(path, "rb"))
        try:
            for number, line in enumerate(lines, 1):
                if not line or line.isspace():  # `not line.strip()`, without a copy of the line
                    continue
                try:
                    # JSON writes a NUL only as \u0000: a line without one has no NUL to drop
                    if (page := _utf8_page(line, f"{name}:{number}")) is not None:
                        reason = text_skip_reason(page.utf8)
                    else:
                        page = _page(_loads(line), f"{name}:{number}", nuls=b"\\u0000" in line)
                        reason = skip_reason(page.html)
                except (ValueError, TypeError) as e:  # bad JSON and bad UTF-8 are ValueErrors
                    log.warning("%s line %d: skipped, %s", path, number, e, extra=SKIPPED_PAGE)
                    continue
                if reason:
                    log.warning("%s line %d: %s: skipped, %s", path, number, page.id, reason, extra=SKIPPED_PAGE)
                    continue
                yield page
        except (EOFError, OSError, zlib.error) as e:
            log.warning("%s: truncated or damaged after line %d (%s)", path, number, e, extra=DAMAGED_INPUT)


def _gzipped_lines(path: str | os.PathLike) -> Iterator[bytes]:
    """The lines of a gzipped file as `_gzip_lines` of `gzip.open` gives them, inflated by isal where installed.

    isal raises where the stream is damaged before giving the whole lines ahead of the
    damage, and its errors differ from gzip's: there zlib reads the file again from
    the start, skips the lines already given, and gives the rest and its error as gzip does.
    """
    given = 0
    if _igzip is not None:
        try:
            with _igzip.open(path, "rb") as f:
                for line in _gzip_lines(f):
                    yield line
                    given += 1
            return
        except Exception:  # noqa: BLE001  (any error of isal's: zlib's reading tells the damage)
            pass
    with gzip.open(path, "rb") as f:
        lines = _gzip_lines(f)
        for _ in islice(lines, given):
            pass
        yield from lines


def _gzip_lines(f: gzip.GzipFile) -> Iterable[bytes]:
    """The lines of a gzipped file, each with its end of line, as iterating over it gives them.

    Every whole line decompressed is given before an error in the stream is raised, as there.
    Each line is cut from its read once (a page's line spans reads: its pieces are joined once).
    """
    start: list[bytes] = []  # the pieces of a line begun in an earlier read
    while chunk := f.read1(GZIP_READ):
        at = 0
        while end := chunk.find(b"\n", at) + 1:
            if start:
                start.append(chunk[at:end])
                yield b"".join(start)
                start = []
            else:
                yield chunk[at:end]
            at = end
        if at < len(chunk):
            start.append(chunk[at:] if at else chunk)
    if start:
        yield b"".join(start)


def _loads(line: bytes) -> object:
    """`json.loads`, by orjson where installed.

    What orjson refuses (json's extensions to RFC 8259: surrogates, NaN, UTF-16; or
    bad JSON) and a line with a number, which orjson may read otherwise (an integer
    past 64 bits becomes a float), go to json, for its answer or its error.
    """
    if _orjson_loads is not None:
        try:
            obj = _orjson_loads(line)
        except ValueError:
            return json.loads(line)
        if not isinstance(obj, dict) or not any(isinstance(v, (int, float)) for v in obj.values()):
            return obj
    return json.loads(line)


def _utf8_page(line: bytes, default_id: str) -> Page | None:
    """The Page of one line whose ``html`` is read straight into UTF-8 bytes (`html_utf8`), the
    other fields by `_loads`; None where that is not done (the caller reads the line as before).

    orjson would build the page's text, which parse_html encodes again: a third of a big
    page's reading and parsing.  Where the line without its html is refused, the whole line
    is read as before, for the same error.
    """
    found = _HTML_UTF8(line)
    if found is None:
        return None
    utf8, start, end = found
    try:
        obj = _loads(line[:start] + line[end:])
        page = _page(obj, default_id, nuls=False)
    except (ValueError, TypeError):
        return None
    return Page.from_utf8(page.id, page.url, page.site, utf8, page.anchors)


def _html_utf8_python(line: bytes) -> tuple[bytes, int, int] | None:
    """The Python twin of `stemmer.pages._utf8.html_utf8`: (the UTF-8 bytes, start, end) of the line's one
    top-level ``"html"`` string, whose content is ``line[start:end]``, its NULs dropped and lone
    surrogates as "surrogatepass" writes them; None where the line is not plainly an object holding
    one such string, or json.loads refuses the string."""
    i, n, span = _space(line, 0), len(line), None
    if line[i:i + 1] != b"{":
        return None
    i = _space(line, i + 1)
    while True:
        key = _STRING.match(line, i)
        if key is None or b"\\" in key.group():
            return None
        i = _space(line, key.end())
        if line[i:i + 1] != b":":
            return None
        i = _space(line, i + 1)
        if key.group() == b'"html"':
            value = _STRING.match(line, i)
            if span is not None or value is None:
                return None
            span, i = (i + 1, value.end() - 1), value.end()
        elif (i := _value_end(line, i)) < 0:
            return None
        i = _space(line, i)
        if line[i:i + 1] == b",":
            i = _space(line, i + 1)
        elif line[i:i + 1] == b"}":
            break
        else:
            return None
    if span is None:
        return None
    try:  # as text first, as json.loads decodes a line (it would guess the encoding of a string alone)
        html = json.loads('"' + line[span[0]:span[1]].decode("utf-8", "surrogatepass") + '"')
    except ValueError:
        return None
    return drop_nuls(html).encode("utf-8", "surrogatepass"), *span


_HTML_UTF8 = _compiled_html_utf8 if _compiled_html_utf8 is not None and not PYTHON_TWINS else _html_utf8_python
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SPACE = re.compile(rb"[ \t\n\r]*")


def _space(line: bytes, i: int) -> int:
    return _SPACE.match(line, i).end()


def _value_end(line: bytes, i: int) -> int:
    """After the JSON value at ``line[i]`` (its brackets matched, strings skipped); -1 where it does not end."""
    depth = 0
    while i < len(line):
        c = line[i:i + 1]
        if c == b'"':
            if (string := _STRING.match(line, i)) is None:
                return -1
            i = string.end()
            if depth == 0:
                return i
            continue
        if c in b"{[":
            depth += 1
        elif c in b"}]":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and c in b", \t\n\r":
            return i
        i += 1
    return -1


def _page(obj: object, default_id: str, *, nuls: bool = True) -> Page:
    """The Page of one parsed line; ValueError says what is wrong with it.  `nuls`: its html may hold NULs."""
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    html, url, anchors = obj.get("html"), obj.get("url"), obj.get("anchors") or []
    if not isinstance(html, str):
        raise ValueError("no 'html' string")
    if not (url is None or isinstance(url, str)):
        raise ValueError("'url' is not a string")
    if not (isinstance(anchors, list) and all(isinstance(a, str) for a in anchors)):
        raise ValueError("'anchors' is not a list of strings")
    site = obj.get("site")
    return Page(str(obj.get("id") or url or default_id), url,
                site if isinstance(site, str) and site else site_of(url), drop_nuls(html) if nuls else html,
                tuple(anchors))
