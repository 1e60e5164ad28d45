"""What a page says of itself: its dates, authors and titles in JSON-LD, meta tags, microdata, `<time>` and URL.

These are the machine-readable statements a publisher makes for search
engines and feed readers.  Each is kept with its source, best first, so a
caller can trust the more reliable ones (JSON-LD and meta tags are written by
the site's software; a `<time>` or an author link may belong to a comment or a
teaser; a date in the URL says only when the address was made).  Everything
is found in one walk of the elements in C (or by lxml's tag iteration and XPath): no walk of the
tree in Python.
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from operator import itemgetter

from stemmer.blocks.segment import walker_in_use
from stemmer.metadata.authors import clean_author
from stemmer.metadata.dates import parse_date

# Meta tags (name, property or itemprop, lower-cased) that give the publication date,
# best first within the meta source.
PUBLISHED_META = (
    "article:published_time", "og:article:published_time", "og:published_time", "published_time",
    "datepublished", "parsely-pub-date", "sailthru.date", "article.published", "publish-date", "publish_date",
    "publishdate", "pubdate", "published", "date", "dc.date.issued", "dc.date", "dcterms.date", "dcterms.issued",
    "dc.date.created", "dcterms.created", "citation_publication_date", "citation_date", "originalpublicationdate",
    "article_date_original", "datecreated", "og:updated_time",  # last: a page that gives only this was not edited since
)
MODIFIED_META = ("article:modified_time", "og:modified_time", "datemodified", "dc.date.modified",
                 "dcterms.modified", "last-modified", "og:updated_time")
AUTHOR_META = ("author", "article:author", "og:article:author", "dc.creator", "dcterms.creator", "sailthru.author",
               "parsely-author", "byl", "citation_author", "book:author")  # not twitter:creator: a handle
TITLE_META = ("og:title", "twitter:title", "headline", "dc.title", "parsely-title", "sailthru.title")
SITE_META = ("og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site")
# The meta tags read for their statements (a page's others, such as viewport or robots, are passed by).
_READ_META = frozenset(PUBLISHED_META + MODIFIED_META + AUTHOR_META + TITLE_META + SITE_META)
# Meta tags (property or name) of the page's stated image, tags and categories (`PageSignals.images`, ...).
IMAGE_META = ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src")
_FIELD_META = frozenset({*IMAGE_META, "article:tag", "article:section"})
# The JSON-LD types whose image, keywords and section are the page's own.
FIELD_TYPES = frozenset({"article", "newsarticle", "blogposting", "techarticle", "scholarlyarticle", "report",
                         "webpage", "product", "recipe", "creativework", "socialmediaposting"})
# Meta tags the title step reads by their first value (`PageSignals.og_title`, ...).
_SOCIAL_META = frozenset({"og:title", "twitter:title", "og:type"})
# JSON-LD types that describe the page's own content (their fields win over a WebSite's or an Organization's).
CREATIVE_TYPES = frozenset({
    "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
    "techarticle", "scholarlyarticle", "socialmediaposting", "discussionforumposting", "liveblogposting",
    "review", "recipe", "howto", "faqpage", "qapage", "question", "webpage", "itempage", "aboutpage",
    "medicalwebpage", "collectionpage", "creativework", "report", "blog", "videoobject", "podcastepisode",
    "product", "course", "event", "backgroundnewsarticle"})
try:
    from stemmer.blocks._walker import statement_elements as _compiled_statement_elements
except ImportError:  # no compiler at install time: lxml finds the same elements
    _compiled_statement_elements = None
try:  # optional (stemmer[fast]): reads the JSON that it accepts as json does, in a fraction of the time
    from orjson import loads as _orjson_loads
except ImportError:
    _orjson_loads = None

_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?:[/+_.-]|$)"
                       r"|[/_-]((?:19|20)\d{2})(\d{2})(\d{2})(?:[/_.-]|$)")  # /2024/03/05/, /2024-03-05-, /20240305/
_NOT_AUTHOR_URL = re.compile(r"^(?:https?:)?//|^www\.", re.I)


@dataclass(frozen=True, slots=True)
class Signal:
    """One statement of the page about itself.

    Attributes:
        value: the ISO date, the cleaned author or the title.
        source: the kind of statement: ``json-ld``, ``meta``, ``itemprop``, ``time``, ``url``,
            ``rel-author``.
        key: the field that held it (``datePublished``, ``article:published_time``, ...).
        raw: the text as the page wrote it.
    """

    value: str
    source: str
    key: str
    raw: str


@dataclass(frozen=True, slots=True)
class PageSignals:
    """A page's own statements of publication date, last change, author, title and site name, best first.

    Attributes:
        dates: publication dates (ISO 8601) by source reliability, each value once per source.
        modified: dates of the last change, the same way.
        authors: author names, cleaned (`clean_author`); several names in one value are joined by ", ".
        titles: the page's own titles (JSON-LD headline, og:title, ...), not `<title>`.
        site_names: the site's names (og:site_name, JSON-LD publisher/WebSite name).
        og_title, og_type, social_title: the first ``og:title``, ``og:type`` and (of the
            two, the one first in the page) ``og:title`` or ``twitter:title`` `<meta>` by its
            property or name, spaces collapsed, as the title step reads them
            (`stemmer.classify.title`); None, "" where the page has none.
        h1s: the page's `<h1>` elements in document order, found in the same walk, for its
            headline (`stemmer.metadata.visible.headline_element`); None where not read.
        images: the page's images as it states them, best first: its first image `<meta>`
            (``og:image``, ``twitter:image``, ... in `IMAGE_META` order), then the first
            ``image`` of its JSON-LD items of `FIELD_TYPES`; addresses as written.
        tags, categories: its ``article:tag`` metas and JSON-LD ``keywords`` (cut at commas),
            its ``article:section`` metas and JSON-LD ``articleSection``: each once (case-blind),
            spaces collapsed and entities decoded.  The built-in fields read these
            (`stemmer.fields.stated`).
    """

    dates: tuple[Signal, ...] = ()
    modified: tuple[Signal, ...] = ()
    authors: tuple[Signal, ...] = ()
    titles: tuple[Signal, ...] = ()
    site_names: tuple[Signal, ...] = ()
    og_title: str | None = None
    og_type: str = ""
    social_title: str | None = None
    h1s: tuple | None = field(default=None, repr=False, compare=False)
    images: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()

    @property
    def date(self) -> Signal | None:
        """The most reliable publication date, else None."""
        return self.dates[0] if self.dates else None

    @property
    def author(self) -> Signal | None:
        """The most reliable author, else None."""
        return self.authors[0] if self.authors else None


def page_signals(root, url: str | None = None, *, lang: str | None = None) -> PageSignals:
    """Everything the page states about itself, each value with its source, the most reliable first.

    Order of trust, for dates and authors alike: JSON-LD (of the page's own
    item before others), meta tags, microdata (``itemprop``), `<time datetime>`,
    then for dates the URL's ``/YYYY/MM/DD/`` and for authors ``rel=author``
    links.  (The byline shown by the headline is `visible_metadata`'s.)

    Args:
        root: the page's lxml root from `stemmer.blocks.parse_html`, or None.
        url: the page's URL, for a date in its path.
        lang: the page's language, for dates written in words in its meta tags.
    """
    if root is None:
        return PageSignals(dates=_url_dates(url))
    dates: list[Signal] = []
    modified: list[Signal] = []
    authors: list[Signal] = []
    titles: list[Signal] = []
    sites: list[Signal] = []
    metas, scripts, times, h1s = [], [], [], []
    tagged, props, rels = _statement_elements(root)
    for el in tagged:
        tag = el.tag
        (metas if tag == "meta" else scripts if tag == "script" else times if tag == "time" else h1s).append(el)
    stated: dict[str, list[str]] = {}  # meta tags of `_FIELD_META` and JSON-LD fields of `FIELD_TYPES` items
    _read_json_ld(scripts, dates, modified, authors, titles, sites, lang, url, stated)
    social = _read_meta(metas, dates, modified, authors, titles, sites, lang, stated)
    _read_microdata(props, dates, authors, lang)
    _read_time(times, dates, lang)
    dates.extend(_url_dates(url))
    _read_rel_author(rels, authors)
    images = [v[0] for k in IMAGE_META if (v := stated.get(k))][:1] + stated.get("image", [])[:1]
    return PageSignals(_unique(dates, by_source=True), _unique(modified, by_source=True), _unique(authors),
                       _unique(titles), _unique(sites),
                       social.get("og:title"), social.get("og:type", "").lower(), social.get("social"), tuple(h1s),
                       tuple(images), _terms(stated.get("article:tag", []) + stated.get("keywords", [])),
                       _terms(stated.get("article:section", []) + stated.get("articleSection", [])))


def _statement_elements(root) -> tuple[list, list, list]:
    """(`<meta>`, `<script>`, `<time>` and `<h1>` elements, elements with an ``itemprop``, `<a>` with a
    ``rel``), in page order: in one walk with the compiled walker (`stemmer.blocks._walker`), else by lxml."""
    if _compiled_statement_elements is not None and walker_in_use() == "compiled":
        return _compiled_statement_elements(root)
    return (list(root.iter("meta", "script", "time", "h1")), root.xpath("descendant::*[@itemprop]"),
            root.xpath("descendant::a[@rel]"))


def _unique(signals: list[Signal], by_source: bool = False) -> tuple[Signal, ...]:
    """The signals in order, each value once (its first, most reliable source); `by_source`: once per
    source (dates: that two kinds of statement agree is evidence for their date)."""
    seen: set = set()
    out = []
    for s in signals:
        key = (s.value, s.source) if by_source else s.value
        if key not in seen:
            seen.add(key)
            out.append(s)
    return tuple(out)


# --- JSON-LD ---------------------------------------------------------------------------------

def _read_json_ld(scripts, dates, modified, authors, titles, sites, lang, url, stated) -> None:
    """Dates, authors, headline and site names of the JSON-LD items, the page's own item first;
    into `stated`, the image, keywords and section of every item of `FIELD_TYPES` (nested ones included).

    Dates come from the page's own items only (`_own_items`): an item of a listing, a
    part of the page, or an article whose address is another page's states that one's
    date, not this page's.
    """
    items: list[dict] = []
    nested: set[int] = set()  # id() of the items inside a listing or a part of another item
    for script in scripts:
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        data = load_json(script.text or "")
        if data is not None:
            _collect_items(data, items, nested)
    if not items:
        return
    by_id = {it["@id"]: it for it in items if isinstance(it.get("@id"), str)}
    typed = [(it, item_types(it)) for it in items]
    _field_items([it for it, types in typed if types & FIELD_TYPES], stated)
    own = _own_items(typed, nested, url)
    own_ids = {id(it) for it, _ in own}
    # Authors and headlines: of every item of a creative type, the page's own first (a template's
    # placeholder address does not make its article's author another page's).
    creative = own + [item for item in typed if item[1] & CREATIVE_TYPES and id(item[0]) not in own_ids]
    creative_ids = {id(it) for it, _ in creative}
    dated = (("datePublished", dates), ("dateCreated", dates), ("uploadDate", dates), ("dateModified", modified))
    for it, types in creative + [item for item in typed if id(item[0]) not in creative_ids]:
        if id(it) in own_ids:
            for key, out in dated:
                value = it.get(key)
                if isinstance(value, str) and (iso := parse_date(value, lang=lang)):
                    out.append(Signal(iso, "json-ld", key, value))
        if id(it) in creative_ids:
            for key in ("author", "creator"):
                for name, raw, org in _names(it.get(key), by_id):
                    authors.append(Signal(name, "json-ld", f"{key} (Organization)" if org else key, raw))
            if isinstance(headline := it.get("headline"), str) and headline.strip():
                titles.append(Signal(" ".join(html.unescape(headline).split()), "json-ld", "headline", headline))
        if types & {"website", "organization", "newsmediaorganization"} and isinstance(it.get("name"), str):
            sites.append(Signal(" ".join(it["name"].split()), "json-ld", "name", it["name"]))
        publisher = it.get("publisher")
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            sites.append(Signal(" ".join(publisher["name"].split()), "json-ld", "publisher", publisher["name"]))


def _field_items(items: list[dict], stated: dict[str, list[str]]) -> None:
    """The first image of the items, and their keywords (cut at commas) and sections, into `stated`."""
    for it in items:
        value = it.get("image")
        for _ in range(3):  # a list of images, an ImageObject, its url
            if isinstance(value, list):
                value = value[0] if value else None
            elif isinstance(value, dict):
                value = value.get("url") or value.get("contentUrl")
        if isinstance(value, str) and value.strip() and "image" not in stated:
            stated["image"] = [value.strip()]
        for key, split in (("keywords", True), ("articleSection", False)):
            value = it.get(key)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str):
                    stated.setdefault(key, []).extend(v.split(",") if split else [v])


def _terms(values: list[str]) -> tuple[str, ...]:
    """Cleaned values once each, in order (case-blind)."""
    seen, out = set(), []
    for v in values:
        v = " ".join(html.unescape(v).split())
        if v and v.casefold() not in seen:
            seen.add(v.casefold())
            out.append(v)
    return tuple(out)


_PAGE_TYPES = frozenset({"webpage", "collectionpage", "itempage", "aboutpage", "medicalwebpage"})


def _own_items(typed: list[tuple[dict, set[str]]], nested: set[int], url: str | None) -> list[tuple[dict, set[str]]]:
    """The items that describe the page itself, best first.

    An item of a creative type (`CREATIVE_TYPES`) not inside a listing or another item's
    parts.  Where some of them name the page's URL as their address (``url``, ``@id``,
    ``mainEntityOfPage``), those come first and the ones naming another address are
    another page's (a teaser, a template's placeholder); where none does (the URL is a
    redirector's or unknown), all count.  Then an article before the WebPage that holds it.
    """
    page = _address(url)
    own = []
    for it, types in typed:
        if types & CREATIVE_TYPES and id(it) not in nested:
            named = {a for a in map(_address, _addresses(it)) if a}
            own.append((it, types, page in named if page else None, bool(named)))
    if any(names_page for _, _, names_page, _ in own):
        own = [o for o in own if o[2] or not o[3]]
    own.sort(key=lambda o: (not o[2], not (o[1] - _PAGE_TYPES)))  # sort is stable: page order within each rank
    return [(it, types) for it, types, _, _ in own]


def _addresses(item: dict):
    """The addresses an item gives for the page it describes."""
    for key in ("url", "@id", "mainEntityOfPage"):
        value = item.get(key)
        if isinstance(value, dict):
            value = value.get("@id") or value.get("url")
        if isinstance(value, str):
            yield value


def _address(url: str | None) -> str:
    """A page's address as compared here: without scheme, ``www.``, query, fragment and trailing
    slash, lower-cased ("" for one that names no page, such as ``#article``)."""
    if not url:
        return ""
    url = url.split("#", 1)[0].split("?", 1)[0].split("://", 1)[-1]
    if url.startswith("www."):
        url = url[4:]
    return url.rstrip("/").lower() if "." in url.split("/", 1)[0] else ""


def load_json(text: str):
    text = text.strip()
    if text.startswith("<!--"):
        text = text[4:].rsplit("-->", 1)[0]
    if _orjson_loads is not None:
        try:
            return _orjson_loads(text)
        except ValueError:  # what orjson refuses (control characters in strings, NaN, bad JSON): json's answer
            pass
    try:
        return json.loads(text, strict=False)
    except ValueError:
        try:  # a trailing comma, the commonest hand-written slip
            return json.loads(re.sub(r",\s*([}\]])", r"\1", text), strict=False)
        except ValueError:
            return None


def _collect_items(data, items: list[dict], nested: set[int], depth: int = 0, inside: bool = False) -> None:
    """Every JSON-LD object in `data` that has a type: top level, in ``@graph``, or nested in fields;
    the id() of those inside a listing or another item's parts (``itemListElement``, ``hasPart``)
    into `nested`."""
    if depth > 6:
        return
    if isinstance(data, list):
        for d in data:
            _collect_items(d, items, nested, depth + 1, inside)
    elif isinstance(data, dict):
        if "@type" in data:
            items.append(data)
            if inside:
                nested.add(id(data))
        for key in ("@graph", "mainEntity", "mainEntityOfPage", "itemListElement", "hasPart"):
            if key in data and not isinstance(data[key], str):
                _collect_items(data[key], items, nested, depth + 1, inside or key in ("itemListElement", "hasPart"))


def json_ld_items(data) -> list[dict]:
    """Every JSON-LD object in a script's decoded `data` that has a type (`_collect_items`), nested ones included."""
    items: list[dict] = []
    _collect_items(data, items, set())
    return items


def item_types(item: dict) -> set[str]:
    t = item.get("@type")
    return {x.lower() for x in (t if isinstance(t, list) else [t]) if isinstance(x, str)}


def _names(value, by_id: dict, depth: int = 0):
    """(clean name, raw, is an organization) of a JSON-LD ``author``: a string, an object, a reference or a list.

    A list gives one value, its names joined by ", " (an organization only if all are).
    """
    if depth > 3 or value is None:
        return
    if isinstance(value, list):
        found = [n for v in value for n in _names(v, by_id, depth + 1)]
        if found:
            joined = ", ".join(dict.fromkeys(name for name, _, _ in found))
            yield joined, joined, all(org for _, _, org in found)
        return
    org = False
    if isinstance(value, dict):
        if "name" not in value and isinstance(value.get("@id"), str) and value["@id"] in by_id:
            value = by_id[value["@id"]]
        org = bool(item_types(value) & {"organization", "newsmediaorganization", "corporation"})
        value = value.get("name")
        if isinstance(value, list):
            value = ", ".join(v for v in value if isinstance(v, str))
    if isinstance(value, str) and not _NOT_AUTHOR_URL.match(value.strip()):
        if name := clean_author(value):
            yield name, value, org


# --- meta tags, microdata, <time>, URL, author links ------------------------------------------------------------

def _read_meta(metas, dates, modified, authors, titles, sites, lang, stated) -> dict[str, str]:
    """The statements of the `<meta>`s; returns the first ``og:title``, ``og:type`` and as ``social``
    the first ``og:title`` or ``twitter:title`` (`PageSignals.og_title`, ...).  Into `stated`, the
    contents of the `_FIELD_META` tags (image, tags, section), spaces collapsed and entities decoded."""
    found: dict[str, list[str]] = {}
    social: dict[str, str] = {}
    for meta in metas:
        named = meta.get("property") or meta.get("name")
        key = named or meta.get("itemprop") or meta.get("http-equiv")
        if not key:
            continue
        read = (low := key.lower()) in _READ_META
        shared = bool(named) and low in _SOCIAL_META and low not in social  # `key` is `named` where it has one
        if not (read or shared):
            if named and (low := named.strip().lower()) in _FIELD_META \
                    and (content := " ".join((meta.get("content") or "").split())):
                stated.setdefault(low, []).append(html.unescape(content))
            continue  # a tag that states nothing read here (viewport, robots): its content unread
        content = meta.get("content")
        if not content or not (content := content.strip()):
            continue
        if read:
            found.setdefault(low, []).append(content)
        if shared:
            social[low] = " ".join(content.split())
            if low != "og:type":
                social.setdefault("social", social[low])
    if not found:
        return social
    for keys, out, kind in ((PUBLISHED_META, dates, "date"), (MODIFIED_META, modified, "date"),
                            (AUTHOR_META, authors, "author"), (TITLE_META, titles, "text"),
                            (SITE_META, sites, "text")):
        for key in keys:
            for raw in found.get(key, ()):
                value = _value(raw, kind, lang)
                if value:
                    source = "itemprop" if key in ("datepublished", "datecreated", "datemodified") else "meta"
                    out.append(Signal(value, source, key, raw))
    return social


def _read_microdata(props, dates, authors, lang) -> None:
    """``itemprop`` dates (``datetime`` or ``content``) and authors on elements other than `<meta>`."""
    for el in props:
        prop = el.get("itemprop")
        if prop in ("datePublished", "dateCreated") and el.tag != "meta":
            raw = el.get("datetime") or el.get("content")
            if raw and (iso := parse_date(raw, lang=lang)):
                dates.append(Signal(iso, "itemprop", prop, raw))
        elif prop == "author" and el.tag != "meta":
            names = el.xpath(".//*[@itemprop='name']")
            raw = (names[0].get("content") if names else None) or _text(names[0] if names else el)
            if name := clean_author(raw):
                authors.append(Signal(name, "itemprop", "author", raw.strip()))


def _value(raw: str, kind: str, lang) -> str | None:
    if kind == "date":
        return parse_date(raw, lang=lang)
    if kind == "author":
        if _NOT_AUTHOR_URL.match(raw) or raw.startswith("@"):  # a profile link or a handle, not a name
            return None
        return clean_author(raw)
    return " ".join(raw.split()) or None


def _read_time(times, dates, lang) -> None:
    """`<time>` elements: those marked ``pubdate`` first, then the others, in page order."""
    stamped = [(t.get("pubdate") is None and "publish" not in (t.get("class") or ""), raw)
               for t in times if (raw := t.get("datetime"))]  # (not marked, its datetime)
    for _, raw in sorted(stamped, key=itemgetter(0)):
        if iso := parse_date(raw, lang=lang):
            dates.append(Signal(iso, "time", "datetime", raw))


def _url_dates(url: str | None) -> list[Signal]:
    if not url:
        return []
    for m in _URL_DATE.finditer(url.split("?", 1)[0]):
        y, mo, d = (m[1], m[2], m[3]) if m[1] else (m[4], m[5], m[6])
        if iso := parse_date(f"{y}-{int(mo):02d}-{int(d):02d}"):
            return [Signal(iso, "url", "path", m[0])]
    return []


def _read_rel_author(links, authors) -> None:
    """Links marked ``rel=author``, in page order."""
    for a in links:
        if "author" in (rel := a.get("rel").lower()) and "author" in rel.split() \
                and (name := clean_author(text := _text(a))):
            authors.append(Signal(name, "rel-author", "rel", text))


def _text(el) -> str:
    """An element's text, its parts joined by spaces (block children do not run together)."""
    return " ".join(" ".join(el.itertext()).split())
