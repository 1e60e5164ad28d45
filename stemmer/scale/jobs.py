"""The work of one task: pure, picklable functions of their arguments, run by any backend.

A task reads its pages from the spill files (`stemmer.scale.spill`) and returns
a small result: a site's patterns, a `SiteFailure`, a big site's parsed chunk,
or a batch's extractions.  Nothing here writes a file or keeps state between
tasks, so a plain loop, joblib's processes and a Dask cluster give the same
results, and a task lost with its worker can simply run again.
"""
from __future__ import annotations

import logging
import os
import traceback
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

from stemmer import api
from stemmer.blocks import Block, PageBlocks
from stemmer.classify.features import page_table
from stemmer.extract import Extraction
from stemmer.classify.site_model import SAMPLE_PAGES
from stemmer.layout.model import AnalyzeParams, Patterns, SitePage, SitePatterns
from stemmer.layout.store import LazyPatterns
from stemmer.pages import Page
from stemmer.scale.spill import SiteChunks, read_chunk, read_site
from stemmer.site import SiteCollector, collect_site
from stemmer.urls import normal_url


log = logging.getLogger("stemmer")


def told(parent: int, task: Callable, *args) -> tuple[object, list[logging.LogRecord]]:
    """`task(*args)`, and the warnings it logged where it ran in a worker process, for the parent to log (`retell`).

    A worker's own log goes nowhere: its skipped pages would be neither shown nor
    counted in the run's summary.  `parent`: the pid of the process that gives the
    tasks (where a task runs there, its warnings were logged as they came).
    """
    if os.getpid() == parent:
        return task(*args), []
    kept = _Kept()
    log.addHandler(kept)
    try:
        return task(*args), kept.records
    finally:
        log.removeHandler(kept)


def retell(result_and_records: tuple[object, list[logging.LogRecord]]):
    """Log again here the warnings of a `told` task; its result."""
    result, records = result_and_records
    for record in records:
        log.handle(record)
    return result


class _Kept(logging.Handler):
    """A task's warnings, made picklable (their message formatted, no exception objects)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        record.msg, record.args = record.getMessage(), None
        record.exc_info = record.exc_text = record.stack_info = None
        self.records.append(record)


@dataclass(frozen=True, slots=True)
class SiteFailure:
    """A site whose analysis failed; the other sites of the run go on.

    Attributes:
        site: the site.
        pages: its pages in the crawl.
        error: the exception, as ``Type: message``.
        detail: the traceback, for ``--debug``.
    """

    site: str
    pages: int
    error: str
    detail: str = ""


def analyze_site(site: SiteChunks, params: AnalyzeParams, date: str) -> SitePatterns | SiteFailure:
    """Analyze one site from its spill files, exactly as `stemmer.analyze` does.

    Returns:
        The site's patterns, or a `SiteFailure` if anything raised.
    """
    try:
        return collect_site(site.site, read_site(site)).learn(params, date)
    except Exception as exc:  # a failed site is reported; it must not end the run
        return _failure(site, exc)


@dataclass(frozen=True, slots=True)
class ParsedChunk:
    """One chunk of a big site, cut into blocks, in a compact form that pickles fast.

    Attributes:
        site: the site.
        number: the chunk's place among the site's chunks.
        paths: the distinct block paths of the chunk.
        pages: per page ``(id, url, anchors, own titles, away texts, title, path indexes, texts,
            weights, anchor weights)``.
        links: texts of the chunk's links to pages of the site, by the normalised
            URL they point to, in page order.
        sample: the chunk's candidates for the site model's sample: (key, page
            table) pairs (`stemmer.classify.site_model.keep_sample`).
        skipped: the chunk's pages that parsing raised on (skipped with a warning).
    """

    site: str
    number: int
    paths: list[tuple[str, ...]]
    pages: list[tuple]
    links: dict[str, list[str]]
    sample: list = field(default_factory=list)
    skipped: int = 0


def parse_chunk(site: SiteChunks, number: int, urls: list[str]) -> ParsedChunk | SiteFailure:
    """Cut the pages of one chunk of a big site into blocks and find its in-site link texts.

    Args:
        site: the site.
        number: which of its chunks.
        urls: the URLs of all the site's pages (the targets link texts may name).
    """
    try:
        paths: dict[tuple[str, ...], int] = {}
        pages = []
        collector = SiteCollector(site.site)
        for page in read_chunk(site.chunks[number]):
            if (sp := collector.add(page)) is None:
                continue  # parsing it raised: skipped with a warning, counted in the site's history
            blocks = sp.blocks
            pages.append((page.id, page.url, page.anchors, sp.titles, sp.away, sp.date, sp.author, blocks.title,
                          array("l", [paths.setdefault(b.path, len(paths)) for b in blocks.blocks]),
                          [b.text for b in blocks.blocks],
                          array("l", [b.weight for b in blocks.blocks]),
                          array("l", [b.anchor_weight for b in blocks.blocks])))
        links = collector.link_texts(normal_url(u) for u in urls)
        # lxml trees do not pickle: the chunk's best candidates travel as page tables
        sample = [(key, page_table(root)) for key, root in
                  sorted(collector.sample, key=lambda kv: kv[0])[:SAMPLE_PAGES]]
        return ParsedChunk(site.site, number, list(paths), pages, links, sample, collector.skipped)
    except Exception as exc:  # reported as the site's failure
        return _failure(site, exc)


def learn_chunks(site: str, chunks: list[ParsedChunk], params: AnalyzeParams, date: str) -> SitePatterns:
    """Learn a big site from its parsed chunks (in chunk order): the patterns `analyze_site` would give."""
    collector = SiteCollector(site)
    by_url: dict[str, SitePage] = {}
    for chunk in chunks:
        paths = chunk.paths
        for pid, url, anchors, titles, away, stated_date, author, title, idx, texts, weights, anchor_weights in chunk.pages:
            blocks = tuple(map(Block, (paths[i] for i in idx), texts, weights, anchor_weights))
            page = SitePage(pid, PageBlocks(blocks, title), list(anchors), titles, away, stated_date, author)
            collector.pages.append(page)
            if key := normal_url(url):
                by_url[key] = page
        collector.sample += chunk.sample
        collector.skipped += chunk.skipped
    for chunk in chunks:  # each chunk's links to every page of the site
        for url, texts in chunk.links.items():
            by_url[url].anchors.extend(texts)
    return collector.learn(params, date)


def extract_batch(pages: list[Page], patterns: Patterns | str | None, options: dict) -> list[Extraction]:
    """Extract a batch of pages; `patterns` is a pattern set or a directory read lazily."""
    if isinstance(patterns, str):
        patterns = LazyPatterns(patterns)
    return list(api.extract(pages, patterns, **options))


def _failure(site: SiteChunks, exc: Exception) -> SiteFailure:
    return SiteFailure(site.site, site.pages, f"{type(exc).__name__}: {exc}", traceback.format_exc())
