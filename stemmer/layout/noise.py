"""The common-noise library of a site: leaf blocks whose text recurs on many of its pages.

The template+SVM paper (DIGEST section 001) removes a site's *common* noise
(copyright lines, fixed menus, "Share this" boxes) before any classifier sees
the page: short, fixed texts that a template catches exactly, where a model
is weakest.  An entry is a block's tag and its text normalised so that
near-identical texts meet: whitespace collapsed, lower case, every run of
digits one ``0`` ("© 2023" and "© 2024", "12 comments" and "3 comments").
The paper compares texts by edit distance; folding digits catches what it
was for (counters and dates) with a set lookup instead of a pairwise scan.

The library is written beside the site's pattern file as ``<site>.noise.json``.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from stemmer.blocks import Block, PageBlocks
from stemmer.errors import PatternFileError
from stemmer.files import read_json, write_atomic
from stemmer.version import package_version

FORMAT = "stemmer-noise"
VERSION = 1
# An entry recurs on at least this share of the site's pages, and on at least
# MIN_PAGES of them (the paper's N2 = 3 of N1 = 10 pages).  On the multi-page dev
# sets (generic model, every test page of a learned site, SH F1 pooled over 570
# pages) shares 0.1 / 0.2 / 0.3 / 0.5 / 0.7 give 0.949 / 0.951 / 0.952 / 0.947 /
# 0.952: flat, with 0.3 as good as any and catching the chrome of layouts that
# only some of the pages have (an article's "share" box), which 0.7 misses.
MIN_SHARE = 0.3
MIN_PAGES = 3
# Texts longer than this are never noise entries: a long block that recurs is a
# static slot the patterns already know, and long texts would bloat the file.
MAX_TEXT = 500
_DIGITS = re.compile(r"\d+")
_ASCII_DIGITS = b"0123456789"


def normalize(text: str) -> str:
    """The text as the library compares it: whitespace collapsed, lower case, digit runs folded to ``0``."""
    text = " ".join(text.split()).lower()  # split(): the whitespace of `\s`, faster
    if text.isascii() and len(text.encode("ascii").translate(None, _ASCII_DIGITS)) == len(text):
        return text  # no digit: most texts, told by bytes faster than by the regex
    return _DIGITS.sub("0", text)


def entry(block: Block) -> tuple[str, str]:
    """The (tag, normalised text) of a block."""
    return block.tag, normalize(block.text)


@dataclass(frozen=True, slots=True)
class NoiseLibrary:
    """A site's common-noise entries.

    Attributes:
        site: the site.
        entries: (tag, normalised text) pairs, sorted.
        pages: the pages it was learned from.
        min_share, min_pages: the thresholds it was learned with.
    """

    site: str
    entries: tuple[tuple[str, str], ...]
    pages: int = 0
    min_share: float = MIN_SHARE
    min_pages: int = MIN_PAGES
    _lookup: frozenset = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_lookup", frozenset(self.entries))

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, block: Block) -> bool:
        return len(block.text) <= MAX_TEXT and entry(block) in self._lookup

    def save(self, path: str | Path) -> Path:
        """Write the library as JSON, atomically."""
        path = Path(path)
        write_atomic(path, json.dumps(to_json(self), ensure_ascii=False, indent=1) + "\n")
        return path


def learn_noise(site: str, pages: Iterable[PageBlocks], *, min_share: float = MIN_SHARE,
                min_pages: int = MIN_PAGES) -> NoiseLibrary:
    """The leaf (tag, text) entries on at least `min_share` of the pages and at least `min_pages` pages.

    Args:
        site: the site.
        pages: the site's pages, cut into blocks.

    Returns:
        The library; no entries for a site of fewer than `min_pages` pages.
    """
    counter = NoiseCounter(site)
    for page in pages:
        counter.add(page)
    return counter.library(min_share=min_share, min_pages=min_pages)


class NoiseCounter:
    """`learn_noise` one page at a time, for pages that stream past (`update`)."""

    def __init__(self, site: str) -> None:
        self.site = site
        self.pages = 0
        self._counts: Counter[tuple[str, str]] = Counter()
        self._normal: dict[str, str] = {}  # the same texts recur on every page: normalise each once

    def add(self, page: PageBlocks) -> None:
        normal = self._normal
        self.pages += 1
        self._counts.update({(b.tag, normal.get(b.text) or normal.setdefault(b.text, normalize(b.text)))
                             for b in page.blocks if len(b.text) <= MAX_TEXT})

    def library(self, *, min_share: float = MIN_SHARE, min_pages: int = MIN_PAGES) -> NoiseLibrary:
        least = max(min_pages, math.ceil(min_share * self.pages))
        return NoiseLibrary(self.site, tuple(sorted(e for e, c in self._counts.items() if c >= least and e[1])),
                            self.pages, min_share, min_pages)


def to_json(library: NoiseLibrary) -> dict:
    """The JSON document of a library (deterministic)."""
    return {"format": FORMAT, "version": VERSION, "stemmer": package_version(), "site": library.site,
            "pages": library.pages, "params": {"min_pages": library.min_pages, "min_share": library.min_share},
            "entries": [{"tag": tag, "text": text} for tag, text in library.entries]}


def from_json(doc, path: str | Path = "<noise>") -> NoiseLibrary:
    """Check and convert a library document; the inverse of `to_json`.

    Raises:
        PatternFileError: another format, an unsupported version or a bad field; names file and field.
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PatternFileError(f"{path}: not a stemmer noise library (format {_format(doc)!r})")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PatternFileError(f"{path}: field 'version' must be a positive integer")
    if version > VERSION:
        raise PatternFileError(f"{path}: noise library version {version} is newer than supported "
                               f"(1-{VERSION}); upgrade stemmer")
    site, entries, params = doc.get("site"), doc.get("entries"), doc.get("params", {})
    if not isinstance(site, str):
        raise PatternFileError(f"{path}: field 'site' must be str")
    if not isinstance(entries, list):
        raise PatternFileError(f"{path}: field 'entries' must be list")
    pairs = []
    for i, e in enumerate(entries):
        if not (isinstance(e, dict) and isinstance(e.get("tag"), str) and isinstance(e.get("text"), str)):
            raise PatternFileError(f"{path}: field 'entries[{i}]' must be an object with str 'tag' and 'text'")
        pairs.append((e["tag"], e["text"]))
    try:
        return NoiseLibrary(site, tuple(sorted(pairs)), int(doc.get("pages", 0)),
                            float(params.get("min_share", MIN_SHARE)), int(params.get("min_pages", MIN_PAGES)))
    except (TypeError, ValueError, AttributeError) as exc:
        raise PatternFileError(f"{path}: field 'params' or 'pages' is not a number ({exc})") from None


def _format(doc):
    return doc.get("format") if isinstance(doc, dict) else None


def load_noise(path: str | Path) -> NoiseLibrary:
    """Read a library written by `NoiseLibrary.save`.

    Raises:
        PatternFileError: the file cannot be read, is not valid JSON or fails `from_json`.
    """
    path = Path(path)
    return from_json(read_json(path), path)
