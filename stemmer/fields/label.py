"""Fields by example: name the slot that holds an example value, in its layout and the site's others.

`label` matches a page to its layout, finds the block whose text holds each
example (the same text once normalised, else the text within a block, else the
nearest by rapidfuzz), names that block's slot, then the slot that aligns with it
in each of the site's other layouts: the slot of the same key, else the one after
(or before) the same static text, such as a "Price:" label.  The pattern file is
written once, atomically, when every example was found; else nothing is written.
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urljoin

from rapidfuzz import fuzz

from stemmer.blocks import PageBlocks, parse_html, segment, sig
from stemmer.errors import StemmerError
from stemmer.extract.match import SiteMatcher
from stemmer.fields.values import FieldValue, block_urls, field_values, page_links
from stemmer.files import write_atomic
from stemmer.layout.bylines import slot_date
from stemmer.layout.model import Layout, PatternSet, Section, SitePatterns
from stemmer.layout.store import load_patterns, site_filename, to_json
from stemmer.metadata import page_signals
from stemmer.pages import Page, read_pages
from stemmer.update.history import add_history, today

# A block whose text is this like the example (rapidfuzz ratio, 0-100) holds it, where
# no block holds it exactly (a quote with other dashes, a name with another space), if
# the example is this long: a short one (a price, a code) that differs is another value.
FUZZY_MIN = 85
FUZZY_LENGTH = 12
# The closest blocks an example found nowhere names in its error.
CLOSEST_SHOWN = 3
# An example is an address (a ``url`` field) when it looks like one.
_URL = re.compile(r"^(?:https?:)?//\S+$|^/\S*$", re.I)
# What ends a label before a value in the same block ("SKU: AB-12", "Preis：").
_LABEL_END = (":", "：")
# A label longer than this is text, not a label.
MAX_PREFIX = 40
# A static slot this near (in slots) to a named one is its label, for aligning the layouts,
# if its text is this short ("Price:", "Specifications"; not a footer).
NEIGHBOUR_SLOTS = 2
MAX_LABEL = 30


class LabelError(StemmerError):
    """An example that no block of the page holds, or a page that no layout of its site matches."""


@dataclass(slots=True)
class FieldLabel:
    """What `label` did with one example.

    Attributes:
        name, example: the field and its example value.
        layout, key: the layout the page matched and the slot that holds the example.
        how: ``exact``, ``within`` (the example is part of the block's text), ``fuzzy``,
            ``date`` (the block's text is the same date) or ``url`` (a link's address).
        many, field_type, prefix, day_first: as named (`Section`).
        named: the ids of the layouts now naming a slot so; not_named: the others, each with why.
        values: by layout id, (page id, value) on the pages looked at; a ``date`` field's
            value with its reading as a date: (page id, value, ISO date).
    """

    name: str
    example: str
    layout: str
    key: str
    how: str
    many: bool
    field_type: str
    prefix: str = ""
    day_first: bool | None = None
    named: list[str] = field(default_factory=list)
    not_named: dict[str, str] = field(default_factory=dict)
    values: dict[str, list[tuple]] = field(default_factory=dict)


@dataclass(slots=True)
class LabelResult:
    """What `label` did: the patterns with the slots named (all the sites given, for `extract`),
    the labelled site's, what was done per field, and the file written (or None)."""

    patterns: PatternSet
    site: SitePatterns
    fields: list[FieldLabel]
    written: Path | None = None


def label(patterns: PatternSet | SitePatterns | str | Path, page: Page | str | Path,
          examples: Mapping[str, str], *, many: Iterable[str] = (), pages: Iterable[Page] | None = None,
          write: bool = True, charset: str | None = None) -> LabelResult:
    """Name the slots that hold `examples` on `page`, in its layout and in the site's others.

    Args:
        patterns: a pattern file or directory (written back, atomically, when `write`),
            or learned patterns (never written: the result holds the new ones).
        page: a page of a learned layout: a `Page`, or a file (any input of extract; its first page).
        examples: field name -> a value the page shows: its text, or a link's or image's
            address (a ``url`` field); a date also gives ``NAME_iso``.
        many: the fields whose slot repeats (a list); a slot with several blocks on the page is so anyway.
        pages: pages to show the new fields' values on (the crawl analyzed); default: the
            layouts' member pages (seen at analyze) where they lie beside the file `page`
            in its mirror, else `page`.
        charset: the charset of page files that declare none.

    Raises:
        LabelError: the page matches no layout, or an example is in no block of a slot;
            nothing is written then.
        PatternFileError: the patterns cannot be read.
    """
    source = Path(patterns) if isinstance(patterns, (str, Path)) else None
    if source is not None and source.suffix == ".pat":
        raise LabelError(f"{source}: a Webstemmer .pat file; label writes JSON pattern files: convert it first "
                         "(stemmer.save_patterns(stemmer.load_patterns(FILE), DIR))")
    loaded = load_patterns(source) if source is not None else patterns
    page_path = Path(page) if isinstance(page, (str, Path)) else None
    if page_path is not None:
        page = _first_page(page_path, charset)
    site = _site_of(loaded, page)
    if not examples:
        raise LabelError("no field to name: give NAME=VALUE examples")
    root = parse_html(page.utf8, name=page.id)
    blocks = segment(root)
    match = SiteMatcher(site).match(blocks)
    if match.layout is None:
        raise LabelError(f"{page.id}: matches no layout of {site.site} (best similarity {match.similarity:.2f}); "
                         "give a page of a layout that analyze learned")
    layout = match.layout
    labels = []
    for name, example in examples.items():
        name, example = name.strip(), str(example).strip()
        if not name or not example:
            raise LabelError(f"field {name!r}: a name and a non-empty example are needed")
        i, how = _find(example, layout, match.keys, blocks, root, page.url, name, page.id)
        key = match.keys[i]
        count = sum(k == key for k in match.keys)
        kind = "url" if how == "url" else "date" if slot_date(example) else "text"
        # A text slot with several blocks on the page is a list (tags, specs); a date or an
        # address is one value, from the slot's first block that gives one (a date slot
        # beside "5 min read", a byline holding the author and then the dates).
        listed = name in set(many) or (count > 1 and kind == "text")
        labels.append(FieldLabel(name, example, layout.id, key, how, listed, kind,
                                 _prefix(blocks.blocks[i].text, example) if kind == "text" else "",
                                 _day_first(example, root, page.url) if kind == "date" else None))
    keys = {}
    for lab in labels:
        if (other := keys.setdefault(lab.key, lab.name)) != lab.name:
            raise LabelError(f"{lab.name}: {lab.example!r} is in the same slot as {other}'s example "
                             f"({_short(lab.key, 60)!r} of layout {layout.id}); a slot gives one field")
    for lab in labels:
        site = _name_everywhere(site, layout.id, lab)
    site = add_history(site, {"date": today(), "command": "label", "fields": [lab.name for lab in labels],
                              "page": page.id})
    shown = list(pages) if pages is not None else _members(site, page, page_path, charset) or [page]
    _show_values(site, shown, labels)
    written = None
    if source is not None and write:
        written = source if source.is_file() else source / site_filename(site.site)
        write_atomic(written, json.dumps(to_json(site), ensure_ascii=False, indent=1) + "\n")
    others = {} if isinstance(loaded, SitePatterns) else dict(loaded.sites)
    return LabelResult(PatternSet({**others, site.site: site}), site, labels, written)


def _members(site: SitePatterns, page: Page, path: Path | None, charset: str | None) -> list[Page]:
    """The layouts' member pages (seen at analyze) found in the mirror that holds the page file `path`.

    A member's id is its path in the mirror (``site/dir/file.html``): the mirror's
    root is the page file's folder above the one named after its site.
    """
    if path is None or not path.is_file():
        return []
    parts = path.resolve().parts
    if page.site not in parts:
        return []
    root = Path(*parts[:len(parts) - parts[::-1].index(page.site) - 1])
    if root.is_relative_to(Path.cwd()):
        root = root.relative_to(Path.cwd())  # ids as the reader would type them
    found = [root / m for lay in site.layouts for m in lay.members if (root / m).is_file()]
    return list(read_pages([str(f) for f in found], charset=charset)) if found else []


def _first_page(path: str | Path, charset: str | None = None) -> Page:
    for page in read_pages([str(path)], charset=charset):
        return page
    raise LabelError(f"{path}: no readable HTML page")


def _site_of(patterns: PatternSet | SitePatterns, page: Page) -> SitePatterns:
    """The site's patterns for `page`: of its site, or the only site there is."""
    if isinstance(patterns, SitePatterns):
        return patterns
    site = patterns.get(page.site)
    if site is None and len(patterns.sites) == 1:
        site = next(iter(patterns.sites.values()))
    if site is None or not site.layouts:
        raise LabelError(f"{page.id}: no layouts for site {page.site!r} in the patterns; run `stemmer analyze` first")
    return site


def normalised(text: str) -> str:
    """The text as examples are compared: NFKC, case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _find(example: str, layout: Layout, keys: tuple[str, ...], page: PageBlocks, root, url: str | None,
          name: str, page_id: str) -> tuple[int, str]:
    """The index of the page's block in a slot of `layout` that holds `example`, and how it was found."""
    slots = {s.key: s for s in layout.sections}
    inside = [i for i, k in enumerate(keys) if k in slots]
    if _URL.match(example):
        want = urljoin(url or "", example)
        links = page_links(root)
        for i in inside:
            b = page.blocks[i]
            if any(urljoin(url or "", u) == want for u in block_urls([b], links)):
                return i, "url"
        raise LabelError(f"{name}: no link or image of {page_id} in a slot of layout {layout.id} "
                         f"has the address {example!r}")
    want = normalised(example)
    day = slot_date(example)
    best, best_rank = None, None
    for i in inside:
        text = normalised(page.blocks[i].text)
        # Of blocks that hold it alike, the one of the slot that varies most from page to
        # page: a field's value changes, a menu item that reads the same ("Energy") does not.
        varies = slots[keys[i]].diff
        if text == want:
            rank = (4, varies, 0.0)
        elif want in text:
            rank = (3, varies, -len(text))
        elif day and slot_date(page.blocks[i].text) == day:
            rank = (2, varies, -len(text))
        elif len(want) >= FUZZY_LENGTH and (score := fuzz.ratio(want, text)) >= FUZZY_MIN:
            rank = (1, score, varies)
        else:
            continue
        if best_rank is None or rank > best_rank:
            best, best_rank = i, rank
    if best is not None:
        return best, ("fuzzy", "date", "within", "exact")[best_rank[0] - 1]
    closest = sorted(((fuzz.ratio(want, normalised(b.text)), i) for i, b in enumerate(page.blocks)), reverse=True)
    named = ", ".join(f"{_short(page.blocks[i].text)!r} ({score:.0f}%{'' if keys[i] in slots else ', no slot'})"
                      for score, i in closest[:CLOSEST_SHOWN])
    raise LabelError(f"{name}: {example!r} is in no block of {page_id}; closest: {named or 'none (no text)'}")


def _day_first(example: str, root, url: str | None) -> bool | None:
    """How the example writes a numeric date: day first (True), month first (False), or
    None where both read the same; an ambiguous one ("03/04/2024") takes the order that
    gives the day the page states for machines, else day first."""
    day, month = slot_date(example, True), slot_date(example, False)
    if day == month:
        return None
    stated = next((s.value[:10] for s in page_signals(root, url).dates), None)
    return not (month and stated == month[:10])


def _short(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


def _prefix(text: str, example: str) -> str:
    """The label before the example in its block's text ("SKU:" of "SKU: AB-12"), or ""."""
    at = text.casefold().find(example.casefold())
    before = text[:at].strip() if at > 0 else ""
    return before if before.endswith(_LABEL_END) and len(before) <= MAX_PREFIX else ""


def _named(s: Section, lab: FieldLabel) -> Section:
    day_first = lab.day_first if lab.day_first is not None else s.day_first
    return replace(s, field=lab.name, many=lab.many, field_type=lab.field_type, prefix=lab.prefix, day_first=day_first)


def _unnamed(s: Section) -> Section:
    return replace(s, field="", many=False, field_type="text", prefix="")


def _name_everywhere(site: SitePatterns, layout_id: str, lab: FieldLabel) -> SitePatterns:
    """The site with the field named in its layout `layout_id` and in every other layout where a slot aligns."""
    source = next(lay for lay in site.layouts if lay.id == layout_id)
    layouts = []
    for lay in site.layouts:
        key = lab.key if lay is source else aligned_key(source, lab.key, lay)
        taken = next((s.field for s in lay.sections if s.key == key and s.field and s.field != lab.name
                      and lay is not source), None)  # the example's own slot takes the new name
        if key is None or taken:
            lab.not_named[lay.id] = f"its slot is field {taken!r}" if taken else "no slot aligns"
            layouts.append(lay)
            continue
        lab.named.append(lay.id)
        layouts.append(replace(lay, sections=tuple(
            _named(s, lab) if s.key == key else _unnamed(s) if s.field == lab.name else s for s in lay.sections)))
    return replace(site, layouts=tuple(layouts))


def aligned_key(source: Layout, key: str, target: Layout) -> str | None:
    """The key of `target`'s slot that is `source`'s slot `key`: the same key, else the
    slot next to the same static text (a "Price:" label), or None."""
    if any(s.key == key for s in target.sections):
        return key
    at = next(j for j, s in enumerate(source.sections) if s.key == key)
    for step in (-1, 1):  # the label before the slot, then the one after it
        for d in range(1, NEIGHBOUR_SLOTS + 1):
            j = at + step * d
            if not 0 <= j < len(source.sections):
                break
            label_text = _static_text(source.sections[j])
            if not label_text:
                continue
            for t, s in enumerate(target.sections):
                if _static_text(s) == label_text and 0 <= t - step * d < len(target.sections):
                    found = target.sections[t - step * d]
                    if found.role != "static":
                        return found.key
            break
    return None


def _static_text(s: Section) -> str:
    """The letters of a static slot's short text (the same on every page: a label), "" for another slot."""
    return sig(s.sample) if s.role == "static" and len(s.sample) <= MAX_LABEL else ""


def _show_values(site: SitePatterns, pages: list[Page], labels: list[FieldLabel]) -> None:
    """Each field's value on the pages, by the layout each matches (the first `SHOWN_PER_LAYOUT` of each)."""
    matcher = SiteMatcher(site)
    for page in pages:
        if page.site != site.site and len(pages) > 1:
            continue
        root = parse_html(page.utf8, name=page.id)
        blocks = segment(root)
        match = matcher.match(blocks)
        if match.layout is None:
            continue
        values = field_values(match.layout, match.keys, blocks, root, page.url)
        for lab in labels:
            if lab.name in values:
                shown = lab.values.setdefault(match.layout.id, [])
                if len(shown) < SHOWN_PER_LAYOUT:
                    shown.append((page.id, values[lab.name], *(
                        (values.get(f"{lab.name}_iso"),) if lab.field_type == "date" else ())))


# Pages whose values `label` shows per layout.
SHOWN_PER_LAYOUT = 5
