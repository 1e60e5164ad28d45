"""Bytes of a page to text: the charset sniffing of browsers, cut down, and the checks that skip non-pages."""
from __future__ import annotations

import codecs
import os
import re

from stemmer.pages.page import Page

try:  # compiled where the install built it, else the Python twins below (STEMMER_WALKER=python also means it)
    from stemmer.pages._utf8 import chars_end as _compiled_chars_end
    from stemmer.pages._utf8 import valid_utf8 as _compiled_valid_utf8
except ImportError:
    _compiled_chars_end = _compiled_valid_utf8 = None
# STEMMER_WALKER=python asks for the Python twins of the compiled readers here and in `stemmer.pages.jsonl`
# (read once for both: pages come before `stemmer.blocks.segment`, which reads it for the walkers).
PYTHON_TWINS = os.environ.get("STEMMER_WALKER", "").strip().lower() == "python"

# Pages above this are bombs or mislabelled binaries; Webstemmer itself stopped at 1 MB.
MAX_PAGE_BYTES = 50 * 2**20
# Browsers look for <meta charset> in the first 1024 bytes; crawled pages put long comments and
# scripts first often enough that 4 KB finds more declarations without false ones.
SNIFF_BYTES = 4096

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# WHATWG's labels that Python lacks, and codecs WHATWG replaces by their supersets (Python codec names).
_LABELS = {"x-sjis": "cp932", "windows-31j": "cp932", "x-gbk": "gb18030", "x-euc-jp": "euc_jp",
           "x-mac-roman": "mac-roman", "x-user-defined": "cp1252", "unicode-1-1-utf-8": "utf-8"}
_SUPERSETS = {"iso8859-1": "cp1252", "ascii": "cp1252", "gb2312": "gb18030", "gbk": "gb18030",
              "shift_jis": "cp932", "euc_kr": "cp949", "big5": "big5hkscs", "iso8859-9": "cp1254",
              "tis-620": "cp874", "iso8859-11": "cp874"}
# Python codecs no browser offers; utf-7 is refused by browsers because it smuggles markup.
_REFUSED = {"utf-7", "idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined"}
_META = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([\w.:-]+)", re.I)
_XML_DECL = re.compile(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([\w.:-]+)", re.I)
_HTTP_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.I)
# windows-1252 as WHATWG decodes it: the five bytes cp1252 leaves undefined become C1 controls.
_CP1252_C1 = {i: bytes([i]).decode("cp1252", "ignore") or chr(i) for i in range(0x80, 0xA0)}
_MAGIC = ((b"\x89PNG", "PNG image"), (b"GIF8", "GIF image"), (b"\xff\xd8\xff", "JPEG image"),
          (b"RIFF", "RIFF media"), (b"%PDF", "PDF"), (b"PK\x03\x04", "zip archive"),
          (b"\x1f\x8b", "gzip data"), (b"\x00\x00\x01\x00", "icon"), (b"\x7fELF", "executable"),
          (b"OggS", "Ogg media"), (b"ID3", "MP3 audio"), (b"\x1a\x45\xdf\xa3", "WebM media"),
          (b"wOFF", "font"), (b"wOF2", "font"), (b"\xfd7zXZ\x00", "xz data"), (b"BZh", "bzip2 data"),
          (b"7z\xbc\xaf", "7z archive"), (b"Rar!", "RAR archive"), (b"\xd0\xcf\x11\xe0", "Office document"))
# How much of a page's head `skip_reason` looks at for control characters.
SNIFF_CONTROLS = 8192
# C0 controls that text never holds: all but tab, LF, FF, CR, and ESC (ISO-2022-JP's shifts).
# Random or compressed bytes hold about 10% of them and NULs besides; pages hold a few stray
# NULs (browsers drop them) and hardly any other control, so NULs count apart.
_CONTROLS = bytes(set(range(1, 32)) - {9, 10, 12, 13, 27})
BINARY_CONTROL_SHARE = 0.02
BINARY_NUL_SHARE = 0.25


def decode_html(data: bytes, *, http_charset: str | None = None, default: str | None = None) -> str:
    """Decode a page's bytes the way a browser would, never failing.

    Tries, in order: a byte-order mark; ``http_charset``; a ``<meta>`` charset or XML declaration
    in the first 4 KB; ``default``; strict UTF-8; windows-1252. A label that names no known charset,
    or a charset the bytes do not decode in, passes on to the next step.

    Args:
        data: the page as served.
        http_charset: the ``charset`` of the HTTP Content-Type header, if any.
        default: the user's charset for pages that declare none.

    Returns:
        The page as text, without a byte-order mark.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return drop_nuls(data[len(bom):].decode(name, "replace"))
    if name := _utf16_without_bom(data[:SNIFF_CONTROLS]):
        return drop_nuls(data.decode(name, "replace"))
    return drop_nuls(_decode(data, http_charset, default))


def decoded_page(id: str, url: str | None, site: str, data: bytes, *, http_charset: str | None = None,
                 default: str | None = None, anchors: tuple[str, ...] = ()) -> Page:
    """The Page of a page's bytes as served, its HTML `decode_html` of them.

    Where they decode as UTF-8, the Page holds them (`Page.from_utf8`) and
    parse_html reads them as they are: no text is built from them and encoded again.
    """
    if (utf8 := _as_utf8(data, http_charset, default)) is not None:
        return Page.from_utf8(id, url, site, utf8, anchors)
    return Page(id, url, site, decode_html(data, http_charset=http_charset, default=default), anchors)


def _as_utf8(data: bytes, http_charset: str | None, default: str | None) -> bytes | None:
    """The UTF-8 bytes of `decode_html(data, ...)` where it decodes `data` as UTF-8 at its first
    charset (`data` without NULs); None where it may decode otherwise."""
    if data.startswith(tuple(bom for bom, _ in _BOMS)) or _utf16_without_bom(data[:SNIFF_CONTROLS]):
        return None
    name = next(filter(None, map(_codec, _labels(data, http_charset, default))))
    if name != "utf-8" or not valid_utf8(data):
        return None
    return data.replace(b"\x00", b"") if b"\x00" in data else data


def _valid_utf8_python(data: bytes) -> bool:
    """Whether `data` decodes as strict UTF-8: the Python twin of `stemmer.pages._utf8.valid_utf8`."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


valid_utf8 = _compiled_valid_utf8 if _compiled_valid_utf8 is not None and not PYTHON_TWINS else _valid_utf8_python


def _labels(data: bytes, http_charset: str | None, default: str | None) -> list[str | None]:
    """The charset labels `_decode` tries in turn: HTTP's, the page's own, the user's default, UTF-8."""
    head = data[:SNIFF_BYTES]
    declared = [m.group(1).decode("ascii") for m in (_XML_DECL.match(head), *_META.finditer(head)) if m]
    # A <meta> read as ASCII cannot be right about UTF-16, so WHATWG reads such pages as UTF-8.
    declared = ["utf-8" if label.lower().startswith("utf-16") else label for label in declared]
    return [http_charset, *declared, default, "utf-8"]


def _decode(data: bytes, http_charset: str | None, default: str | None) -> str:
    """`decode_html` for bytes without a byte-order mark."""
    for label in _labels(data, http_charset, default):
        name = _codec(label)
        if name == "cp1252":
            break
        if name:
            try:
                return data.decode(name)
            except (UnicodeDecodeError, LookupError):
                continue
    return data.decode("latin-1").translate(_CP1252_C1)


def charset_of(content_type: str | None) -> str | None:
    """The ``charset`` parameter of a Content-Type header value, if any."""
    m = _HTTP_CHARSET.search(content_type or "")
    return m.group(1) if m else None


def drop_nuls(html: str) -> str:
    """The text without NUL characters, which browsers drop from a page's text."""
    return html.replace("\x00", "") if "\x00" in html else html


def skip_reason(data: bytes | str) -> str | None:
    """Why ``data`` is not a page to read (empty, too large, binary), or None if it is one.

    Binary is told by a file type's magic number, or by the share of control
    characters in the first 8 KB (`BINARY_CONTROL_SHARE`, `BINARY_NUL_SHARE`), never by one byte.
    """
    if not data or data.isspace():  # `not data.strip()`, without a copy of the page
        return "empty"
    if len(data) > MAX_PAGE_BYTES:
        return f"larger than {MAX_PAGE_BYTES >> 20} MiB"
    head = data[:SNIFF_CONTROLS]
    if isinstance(head, str):
        head = head.encode("utf-8", "surrogatepass")
    elif head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _utf16_without_bom(head):
        return None
    return _binary(head)


def text_skip_reason(utf8: bytes) -> str | None:
    """`skip_reason` of the text that the UTF-8 bytes `utf8` encode (lone surrogates as
    "surrogatepass" writes them), read from the bytes: the text is decoded only where it must be."""
    start = _ASCII_SPACES.match(utf8).end()
    if start == len(utf8) or (utf8[start] >= 0x80 and _first_char(utf8[start:start + 4]).isspace()
                              and utf8[start:].decode("utf-8", "surrogatepass").isspace()):
        return "empty"
    if len(utf8) > MAX_PAGE_BYTES and len(text := utf8.decode("utf-8", "surrogatepass")) > MAX_PAGE_BYTES:
        return f"larger than {MAX_PAGE_BYTES >> 20} MiB"
    head = utf8[:SNIFF_CONTROLS]
    if not head.isascii():  # the bytes of the first SNIFF_CONTROLS characters
        head = utf8[:chars_end(utf8, SNIFF_CONTROLS)]
    return _binary(head)


_ASCII_SPACES = re.compile(rb"[ \t\n\r\x0b\x0c\x1c-\x1f]*")  # the ASCII characters str.isspace counts


def _first_char(utf8: bytes, count: int = 1) -> str:
    """The first `count` characters the UTF-8 bytes `utf8` encode."""
    return codecs.getincrementaldecoder("utf-8")("surrogatepass").decode(utf8[:4 * count])[:count]


def _chars_end_python(utf8: bytes, count: int) -> int:
    """The length of the bytes that encode the first `count` characters of `utf8` (lone surrogates as
    "surrogatepass" writes them): the Python twin of `stemmer.pages._utf8.chars_end`."""
    return len(_first_char(utf8, count).encode("utf-8", "surrogatepass"))


chars_end = _compiled_chars_end if _compiled_chars_end is not None and not PYTHON_TWINS else _chars_end_python


def _binary(head: bytes) -> str | None:
    """Why the page that starts with `head` is binary, or None."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return f"binary content ({kind})"
    controls = len(head) - len(head.translate(None, _CONTROLS))
    if controls > BINARY_CONTROL_SHARE * len(head):
        return f"binary content ({controls / len(head):.0%} control bytes)"
    nuls = head.count(0)
    if nuls > BINARY_NUL_SHARE * len(head):
        return f"binary content ({nuls / len(head):.0%} NUL bytes)"
    return None


def _utf16_without_bom(head: bytes) -> str | None:
    """``utf-16-le`` or ``-be`` for text that has the NULs of ASCII in UTF-16 at every other byte."""
    if len(head) < 16 or head.count(0) < len(head) // 4:
        return None
    odd, even = head[1::2].count(0), head[0::2].count(0)
    half = len(head) // 2
    if odd >= 0.9 * half and even <= half // 20:  # a few of the others: U+0100, U+0200, ...
        return "utf-16-le"
    if even >= 0.9 * half and odd <= half // 20:
        return "utf-16-be"
    return None


def _codec(label: str | None) -> str | None:
    """The Python codec for a charset label, mapped as WHATWG maps it; None if unknown or refused."""
    if not label:
        return None
    label = label.strip().lower()
    try:
        info = codecs.lookup(_LABELS.get(label, label))
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _REFUSED:
        return None
    return _SUPERSETS.get(info.name, info.name)
