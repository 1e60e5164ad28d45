"""Group a crawl's pages by site on disk, in one streaming pass.

A crawl of many sites comes in any order (a WARC of a crawl interleaves hosts),
but analyze works site by site.  Holding every page until the last one is read
costs the whole crawl in memory; instead each page is appended, pickled, to a
*chunk file* of its site in a temporary directory, through a small in-memory
buffer per site.  A site's pages are its chunk files, read back in input order.
A chunk holds at most `chunk_pages` pages, so a big site can be parsed by
several workers at once.  The files hold only what this process wrote: pickle
is safe here, and fast.
"""
from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from stemmer.pages import Page

# Pages per chunk file: a worker's unit when one site is parsed by several.
CHUNK_PAGES = 500
# Bytes of pickled pages buffered in memory, over all sites, before the largest
# buffers go to disk (files are opened only to append, so 10,000 sites do not
# need 10,000 open files).
BUFFER_BYTES = 64 << 20


@dataclass(slots=True)
class SiteChunks:
    """Where one site's pages are: its chunk files, in input order.

    Attributes:
        site: the site.
        pages: how many pages it has.
        chunks: chunk file paths, in input order.
        urls: the file of its page URLs, one a line, in input order.
    """

    site: str
    pages: int = 0
    chunks: list[str] = field(default_factory=list)
    urls: str = ""


class SiteSpill:
    """Writes pages into per-site chunk files under `directory`.

    Args:
        directory: an empty or new directory (on a filesystem the workers
            see, for a cluster).
        chunk_pages: most pages per chunk file.
        buffer_bytes: most bytes buffered in memory before writing.

    Example:
        >>> spill = SiteSpill(tmp)                    # doctest: +SKIP
        >>> for page in read_pages("crawl.warc.gz"):  # doctest: +SKIP
        ...     spill.add(page)
        >>> sites = spill.close()                     # doctest: +SKIP
        >>> pages = list(read_site(sites["example.com"]))  # doctest: +SKIP
    """

    def __init__(self, directory: str | os.PathLike, *, chunk_pages: int = CHUNK_PAGES,
                 buffer_bytes: int = BUFFER_BYTES) -> None:
        if chunk_pages < 1:
            raise ValueError(f"chunk_pages must be at least 1, got {chunk_pages}")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.chunk_pages = chunk_pages
        self.buffer_bytes = buffer_bytes
        self.sites: dict[str, SiteChunks] = {}
        self._buffers: dict[str, list[bytes]] = {}
        self._urls: dict[str, list[str]] = {}
        self._buffered = 0
        self._in_chunk: dict[str, int] = {}

    def add(self, page: Page) -> None:
        """Append one page to its site's current chunk."""
        site = self.sites.get(page.site)
        if site is None:
            n = len(self.sites)
            site = self.sites[page.site] = SiteChunks(page.site, urls=str(self.directory / f"{n:06d}.urls"))
        if not site.chunks or self._in_chunk[page.site] >= self.chunk_pages:
            self._flush(page.site)
            site.chunks.append(str(self.directory / f"{_number(site)}.{len(site.chunks):05d}.pages"))
            self._in_chunk[page.site] = 0
        data = pickle.dumps((page.id, page.url, page.site, page.html, page.anchors), protocol=5)
        self._buffers.setdefault(page.site, []).append(data)
        if page.url:
            self._urls.setdefault(page.site, []).append(page.url)
        self._buffered += len(data)
        self._in_chunk[page.site] += 1
        site.pages += 1
        if self._buffered > self.buffer_bytes:
            for name in sorted(self._buffers, key=lambda s: -sum(map(len, self._buffers[s]))):
                self._flush(name)
                if self._buffered <= self.buffer_bytes // 2:
                    break

    def close(self) -> dict[str, SiteChunks]:
        """Write what is buffered; the sites, in the order they first appeared."""
        for name in list(self._buffers):
            self._flush(name)
        for site in self.sites.values():
            Path(site.urls).touch()
        return self.sites

    def _flush(self, name: str) -> None:
        """Append a site's buffered pages to its current chunk file, and its URLs to its URL file."""
        data = self._buffers.pop(name, None)
        urls = self._urls.pop(name, None)
        site = self.sites[name]
        if data:
            with open(site.chunks[-1], "ab") as f:
                f.writelines(data)
            self._buffered -= sum(map(len, data))
        if urls:
            with open(site.urls, "a", encoding="utf-8", errors="surrogatepass") as f:
                f.writelines(u.replace("\n", " ") + "\n" for u in urls)


def _number(site: SiteChunks) -> str:
    """The file-name stem of a site: the number in its URL file's name."""
    return Path(site.urls).stem


def read_chunk(path: str | os.PathLike) -> Iterator[Page]:
    """The pages of one chunk file, in the order they were added."""
    with open(path, "rb") as f:
        while True:
            try:
                pid, url, site, html, anchors = pickle.load(f)
            except EOFError:
                return
            yield Page(pid, url, site, html, tuple(anchors))


def read_site(site: SiteChunks) -> Iterator[Page]:
    """All pages of a site, in input order."""
    for chunk in site.chunks:
        yield from read_chunk(chunk)


def read_urls(site: SiteChunks) -> list[str]:
    """The URLs of a site's pages (pages without one left out), in input order."""
    with open(site.urls, encoding="utf-8", errors="surrogatepass") as f:
        return [line.rstrip("\n") for line in f]
