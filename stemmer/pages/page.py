"""The record every reader yields: one decoded page of a crawl, and the site it belongs to."""
from __future__ import annotations

from dataclasses import dataclass, field

from stemmer.urls import split_url

# The ``extra`` of a warning about a page left out, or an input read only in part:
# the command line counts them for its summary line and ``--strict``.
SKIPPED_PAGE = {"stemmer_lost": "page"}
DAMAGED_INPUT = {"stemmer_lost": "input"}


@dataclass(frozen=True, slots=True)
class Page:
    """One web page of a crawl, already decoded.

    Attributes:
        id: a name unique within the input (relative path, archive member or URL).
        url: the page's URL where known.
        site: the host, lower-cased without ``www.``; pages of one site share it.
        html: the page's HTML as text.
        anchors: texts of links that point to this page (Webstemmer's ``linkinfo``).
    """

    id: str
    url: str | None
    site: str
    html: str
    anchors: tuple[str, ...] = ()
    # The HTML's UTF-8 bytes where a reader had them and not the text (`from_utf8`): parse_html
    # reads the bytes, and the text is decoded from them only where something asks for it.
    _utf8: bytes | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def from_utf8(cls, id: str, url: str | None, site: str, utf8: bytes, anchors: tuple[str, ...] = ()) -> Page:
        """The page whose HTML is the text that `utf8` encodes (lone surrogates as "surrogatepass"
        writes them), decoded only when `html` is read: its slot is left empty until then."""
        page = object.__new__(cls)
        for name, value in (("id", id), ("url", url), ("site", site), ("anchors", anchors), ("_utf8", utf8)):
            object.__setattr__(page, name, value)
        return page

    def __getattr__(self, name: str):
        """Only asked for an empty slot: the `html` of a page `from_utf8`, decoded now and kept."""
        if name != "html":
            raise AttributeError(name)
        value = self._utf8.decode("utf-8", "surrogatepass")
        object.__setattr__(self, "html", value)
        return value

    def __reduce__(self):
        """Pickled as its bytes where it holds them (workers of `extract --jobs`), the text not decoded."""
        if self._utf8 is None:
            return Page, (self.id, self.url, self.site, self.html, self.anchors)
        return Page.from_utf8, (self.id, self.url, self.site, self._utf8, self.anchors)

    @property
    def utf8(self) -> bytes:
        """The HTML as UTF-8 bytes, as parse_html reads it."""
        if self._utf8 is not None:
            return self._utf8
        return self.html.encode("utf-8", "surrogatepass")


def site_of(url: str | None, default: str = "local") -> str:
    """The site key of a URL: its host, lower-cased, without a leading ``www.``."""
    if not url:
        return default
    parts = split_url(url if "//" in url else "//" + url)
    host = (parts.hostname or "").lower() if parts else ""
    if host.startswith("www."):
        host = host[4:]
    return host or default
