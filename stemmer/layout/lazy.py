"""A pattern directory read site by site, as extract meets the sites.

`load_patterns` reads every file of a directory up front: fine for a few sites,
slow and memory-hungry for the thousands of files of a crawl of many sites.
`LazyPatterns` answers `get(site)` like a `PatternSet`, reading the site's file
(``<site>.json``, as `save_patterns` names it) the first time the site is asked
for and keeping the most recently used sites.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from stemmer.errors import PatternFileError
from stemmer.layout.model import SitePatterns
from stemmer.layout.store import is_pattern_file, load_patterns, site_filename

# Sites kept in memory; a pattern file is some 10-50 kB as objects.
CACHE_SITES = 1000


class LazyPatterns:
    """The pattern files of a directory, each read on first use.

    Webstemmer ``.pat`` files, whose names do not say their site, are read up front.

    Args:
        directory: a pattern directory, as `stemmer analyze -o` writes it.
        cache: how many sites to keep in memory.

    Raises:
        PatternFileError: `directory` is not a directory or holds no pattern
            file; later, from `get`, a site's file is broken.

    Example:
        >>> patterns = LazyPatterns("patterns/")    # doctest: +SKIP
        >>> patterns.get("example.com").layouts[0].id  # doctest: +SKIP
        'L0'
    """

    def __init__(self, directory: str | Path, *, cache: int = CACHE_SITES) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise PatternFileError(f"{directory}: not a directory")
        if cache < 1:
            raise ValueError(f"cache must be at least 1, got {cache}")
        names = [p for p in self.directory.iterdir() if is_pattern_file(p)]
        if not names:
            raise PatternFileError(f"{directory}: no pattern files (*.json, *.pat); run `stemmer analyze` first")
        self._pat = {}
        for path in sorted(p for p in names if p.suffix == ".pat"):
            self._pat.update(load_patterns(path).sites)
        self.cache = cache
        self._sites: OrderedDict[str, SitePatterns | None] = OrderedDict()

    def get(self, site: str) -> SitePatterns | None:
        """The patterns of `site`, or None when the directory has none for it."""
        if site in self._sites:
            self._sites.move_to_end(site)
            return self._sites[site]
        patterns = None
        path = self.directory / site_filename(site)
        if path.is_file():
            patterns = load_patterns(path).get(site)  # None for another site of the same file name
        if patterns is None:
            patterns = self._pat.get(site)
        self._sites[site] = patterns
        if len(self._sites) > self.cache:
            self._sites.popitem(last=False)
        return patterns

    def __contains__(self, site: object) -> bool:
        return isinstance(site, str) and self.get(site) is not None
