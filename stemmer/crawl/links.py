"""Links and their anchor texts out of a fetched page (Webstemmer's ``linkinfo``)."""
from __future__ import annotations

import codecs
import re
from lxml import etree

from stemmer.urls import join_url

# A <meta charset> or http-equiv declaration must come early in the document
# (HTML5 says within the first 1024 bytes); 4 KiB allows for long <head>s.
_META_SCAN_BYTES = 4096
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.I)
_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.I)
_SPACE = re.compile(r"\s+")
_SKIPPED_TAGS = frozenset({"script", "style", "noscript"})


def charset_of(content_type: str | None) -> str | None:
    """The charset named in a Content-Type header value, or None."""
    match = _HEADER_CHARSET.search(content_type or "")
    return match.group(1) if match else None


def guess_encoding(body: bytes, content_type: str | None = None, default: str | None = None) -> str:
    """The encoding to decode `body` with.

    Tries, in order: the Content-Type charset, a ``<meta>`` charset, `default`,
    then UTF-8 if the bytes decode as UTF-8, else windows-1252. Unknown names are skipped.
    """
    meta = _META_CHARSET.search(body[:_META_SCAN_BYTES])
    candidates = [charset_of(content_type), meta.group(1).decode("ascii") if meta else None, default]
    for name in candidates:
        if name:
            try:
                return codecs.lookup(name).name
            except LookupError:
                continue
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def extract_links(body: bytes, base_url: str, *, encoding: str = "utf-8") -> list[tuple[str, str]]:
    """Every ``<a href>`` and ``<area href>`` of a page, with its anchor text.

    Args:
        body: the raw page bytes.
        base_url: the page's URL; a ``<base href>`` in the page overrides it.
        encoding: the page's encoding (see :func:`guess_encoding`).

    Returns:
        ``(absolute URL, anchor text)`` pairs in document order. The text is
        whitespace-collapsed and includes the ``alt`` of images inside the link
        (for ``<area>``, its own ``alt``); it may be empty. Fragments are kept,
        other URL normalisation is left to the caller. Unparsable pages give ``[]``.
    """
    if not body.strip():
        return []
    options = {"recover": True, "no_network": True, "remove_comments": True, "remove_pis": True}
    try:
        parser = etree.HTMLParser(encoding=encoding, **options)
    except LookupError:  # a codec Python has and libxml2 lacks (iso2022_jp): decode here
        body, parser = body.decode(encoding, "replace").encode("utf-8"), etree.HTMLParser(encoding="utf-8", **options)
    try:
        root = etree.fromstring(body, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError, LookupError):
        return []
    if root is None:
        return []
    base = root.find(".//base[@href]")
    if base is not None:
        base_url = join_url(base_url, base.get("href").strip()) or base_url
    links = []
    for element in root.iter("a", "area"):
        href = element.get("href")
        if href is None or not href.strip():
            continue
        if element.tag == "area":
            text = element.get("alt", "")
        else:
            parts: list[str] = []
            _collect_text(element, parts)
            text = "".join(parts)
        url = join_url(base_url, href.strip())
        if url is None:
            continue
        links.append((url, _SPACE.sub(" ", text).strip()))
    return links


def _collect_text(element, parts: list[str]) -> None:
    """Append the text inside `element`, and the alt text of its images, to `parts`."""
    if element.text:
        parts.append(element.text)
    for child in element:
        if isinstance(child.tag, str):
            if child.tag == "img":
                parts.append(f" {child.get('alt', '')} ")
            elif child.tag not in _SKIPPED_TAGS:
                _collect_text(child, parts)
        if child.tail:
            parts.append(child.tail)
