"""Analyze and extract whole crawls: sites in parallel, locally (joblib) or on a Dask cluster.

analyze_crawl:

1. streams the pages into per-site chunk files (`SiteSpill`): memory holds a
   buffer, not the crawl;
2. runs one task per site, biggest first, in `jobs` worker processes (joblib's
   loky backend) or on the Dask cluster at `scheduler` (joblib's dask
   backend); a site of several chunks is parsed by several workers at once,
   one task per chunk, and learned here from their compact results;
3. writes each site's pattern file (atomically, keeping pinned roles) here,
   in this process, as the site finishes.  A task lost with its worker runs
   again (Dask reschedules it; for joblib, the run goes on in a new pool with
   the sites not yet written), and a site is written once, so a killed worker
   neither loses nor duplicates a site's output.  A site whose task raised
   becomes a `SiteFailure` in the report.

extract_crawl cuts the page stream into batches, extracts them in the workers,
and yields the results in input order; each worker reads a site's pattern file
when a batch first needs it (`stemmer.layout.store.LazyPatterns`).

Every task is a pure function of its arguments (`stemmer.scale.jobs`), so the
pattern files and the extractions are byte for byte those of a plain loop.
"""
from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from stemmer import api
from stemmer.extract import Extraction
from stemmer.extract.fallback import GENERIC, load_fallback
from stemmer.layout.learn import thin_layouts
from stemmer.layout.model import AnalyzeParams, Patterns, SitePatterns
from stemmer.layout.store import LazyPatterns, open_patterns, save_patterns
from stemmer.pages import Page
from stemmer.scale.jobs import (ParsedChunk, SiteFailure, analyze_site, extract_batch, learn_chunks, parse_chunk, retell,
                                told)
from stemmer.scale.spill import CHUNK_PAGES, SiteChunks, SiteSpill, read_urls
from stemmer.update.history import check_date, today

log = logging.getLogger("stemmer")

# A site of at least this many chunk files is parsed by several workers, one
# task per chunk (when there are several workers): parsing is 80% of analyze.
BIG_SITE_CHUNKS = 2
# A run whose worker died goes on in a new pool, up to this many rounds in all.
MAX_ROUNDS = 3
# Pages per extract task: big enough that sending a batch costs little beside
# extracting it (about 5 ms a page), small enough to keep the workers even.
BATCH_PAGES = 100


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a run stands, for a progress line.

    Attributes:
        stage: ``read`` (grouping the pages by site), ``analyze`` or ``extract``.
        sites, pages: known so far (``read``) or in all.
        sites_done, pages_done: finished.
    """

    stage: str
    sites: int
    pages: int
    sites_done: int = 0
    pages_done: int = 0


@dataclass(frozen=True, slots=True)
class SiteDone:
    """A site whose pattern file was written."""

    site: str
    pages: int
    layouts: int
    covered: int
    path: Path
    suspect: tuple[str, ...] = ()  # layouts whose pages give little main text (`thin_layouts`)
    skipped: int = 0  # pages left out because they raised


@dataclass(slots=True)
class AnalyzeReport:
    """What analyze_crawl did: pages read, sites written (in the order they finished), failures."""

    pages: int = 0
    sites: list[SiteDone] = field(default_factory=list)
    failures: list[SiteFailure] = field(default_factory=list)


def analyze_crawl(pages: Iterable[Page], output: str | os.PathLike, *, params: AnalyzeParams | None = None,
                  date: str | None = None, jobs: int = 1, scheduler: str | None = None,
                  progress: Callable[[Progress], None] | None = None, spill_dir: str | None = None,
                  chunk_pages: int = CHUNK_PAGES) -> AnalyzeReport:
    """Learn every site of a crawl and write one pattern file per site into `output`.

    The files are those `stemmer.analyze` + `save_patterns` write (pinned roles of
    files replaced are kept, as ``stemmer analyze`` does), whatever `jobs` or `scheduler`.

    Args:
        pages: the crawl's pages, any sites, any order; read once.
        output: the pattern directory.
        params: analyze thresholds.
        date: the crawl's date (``YYYY-MM-DD``); default today (UTC), taken once for all sites.
        jobs: worker processes; 1 runs everything here, -1 one per CPU.
        scheduler: a Dask scheduler address (``tcp://host:8786``) to run the tasks on instead.
        progress: called with a `Progress` as pages are read, when learning starts and as sites finish.
        spill_dir: where the temporary per-site files go (default: the system's
            temporary directory; on a cluster, a directory every worker sees).
        chunk_pages: pages per spill file, a big site's unit of parallel parsing.

    Returns:
        The report; failed sites are in ``failures``, not raised.

    Raises:
        ValueError: `jobs` is 0.
        ClusterError: the scheduler cannot be used.
    """
    _check_jobs(jobs)
    params = params or AnalyzeParams()
    date = check_date(date) if date is not None else today()
    report = AnalyzeReport()
    start = time.perf_counter()
    local = jobs == 1 and scheduler is None
    # connect first: a cluster that cannot be used fails before the crawl is read
    with _backend(jobs, scheduler) as parallel, \
            tempfile.TemporaryDirectory(prefix="stemmer-spill-", dir=spill_dir) as tmp:
        spill = SiteSpill(tmp, chunk_pages=chunk_pages)
        for page in pages:
            spill.add(page)
            report.pages += 1
            if progress:
                progress(Progress("read", len(spill.sites), report.pages))
        sites = sorted(spill.close().values(), key=lambda s: (-s.pages, s.site))
        log.debug("read %d pages of %d sites in %.1f s", report.pages, len(sites), time.perf_counter() - start)
        if not sites:
            return report
        run = _AnalyzeRun(sites, Path(output), params, date, report, progress)
        if progress:  # the reading is over: a run of one big site shows it is learning, not stuck
            progress(Progress("analyze", len(sites), report.pages))
        if local:
            for site in sites:
                run.take(analyze_site(site, params, date))
        else:
            _run_rounds(run, parallel)
    return report


class _AnalyzeRun:
    """The state of one analyze run: what is done, what each big site's chunks gave."""

    def __init__(self, sites: list[SiteChunks], output: Path, params: AnalyzeParams, date: str,
                 report: AnalyzeReport, progress) -> None:
        self.sites = {s.site: s for s in sites}
        self.output, self.params, self.date = output, params, date
        self.report, self.progress = report, progress
        self.done: set[str] = set()
        self.chunks: dict[str, dict[int, ParsedChunk]] = {}
        self.pages_done = 0
        output.mkdir(parents=True, exist_ok=True)

    def tasks(self, parallel_parse: bool) -> list:
        """The tasks still to run: a chunk task per chunk of a big site not yet parsed, else a site task."""
        from joblib import delayed

        tasks = []
        for name, site in self.sites.items():  # biggest first: the long tasks start first
            if name in self.done:
                continue
            if parallel_parse and len(site.chunks) >= BIG_SITE_CHUNKS:
                urls = read_urls(site)
                got = self.chunks.setdefault(name, {})
                tasks += [delayed(told)(os.getpid(), parse_chunk, site, k, urls)
                          for k in range(len(site.chunks)) if k not in got]
            else:
                tasks.append(delayed(told)(os.getpid(), analyze_site, site, self.params, self.date))
        return tasks

    def take(self, result: SitePatterns | SiteFailure | ParsedChunk) -> None:
        """Write a finished site, or keep a chunk until its site's chunks are all in."""
        if isinstance(result, ParsedChunk):
            got = self.chunks.setdefault(result.site, {})
            got[result.number] = result
            site = self.sites[result.site]
            if len(got) < len(site.chunks) or result.site in self.done:
                return
            del self.chunks[result.site]
            result = self._learn(site, [got[k] for k in range(len(site.chunks))])
        name = result.site
        if name in self.done:  # a task that ran twice (its first worker was lost late)
            return
        site = self.sites[name]
        self.done.add(name)
        self.chunks.pop(name, None)
        if isinstance(result, SiteFailure):
            self.report.failures.append(result)
        else:
            skipped = result.history[-1].get("skipped", 0) if result.history else 0
            path = save_patterns(result, self.output)[0]  # keeping the pins of the file it replaces
            covered = sum(lay.pages for lay in result.layouts)
            self.report.sites.append(SiteDone(name, site.pages, len(result.layouts), covered, path,
                                              thin_layouts(result), skipped))
        self.pages_done += site.pages
        if self.progress:
            self.progress(Progress("analyze", len(self.sites), self.report.pages, len(self.done),
                                   self.pages_done))

    def _learn(self, site: SiteChunks, chunks: list[ParsedChunk]) -> SitePatterns | SiteFailure:
        """Learn a big site here from its parsed chunks, as `stemmer.analyze` would."""
        try:
            start = time.perf_counter()
            learned = learn_chunks(site.site, chunks, self.params, self.date)
            log.debug("%s: learned from %d parsed pages in %.1f s", site.site, site.pages, time.perf_counter() - start)
            return learned
        except Exception as exc:  # a failed site is reported; it must not end the run
            import traceback

            return SiteFailure(site.site, site.pages, f"{type(exc).__name__}: {exc}", traceback.format_exc())

    def fail_rest(self, error: str) -> None:
        """Report every site not done as failed with `error`."""
        for name, site in self.sites.items():
            if name not in self.done:
                self.take(SiteFailure(name, site.pages, error))


def _run_rounds(run: _AnalyzeRun, parallel: Callable) -> None:
    """Run the tasks; when a worker dies, run what is not done in a new pool, up to MAX_ROUNDS."""
    lost = None
    for _ in range(MAX_ROUNDS):
        tasks = run.tasks(parallel_parse=True)
        if not tasks:
            return
        results = iter(parallel("generator_unordered")(tasks))
        while True:
            try:
                result = next(results)
            except StopIteration:
                lost = None
                break
            except Exception as exc:  # the tasks never raise: a worker or the cluster failed
                lost = exc
                log.warning("a worker failed (%s: %s); running the sites not done again",
                            type(exc).__name__, exc)
                break
            run.take(retell(result))
    if run.tasks(parallel_parse=True):
        run.fail_rest(f"lost with its worker {MAX_ROUNDS} times ({type(lost).__name__}: {lost})")


def extract_crawl(pages: Iterable[Page], patterns: Patterns | str | os.PathLike | None, *, jobs: int = 1,
                  scheduler: str | None = None, batch_pages: int = BATCH_PAGES,
                  **options) -> Iterator[Extraction]:
    """`stemmer.extract` over batches of pages in worker processes or on a Dask cluster.

    Args:
        pages: pages of any sites, streamed (at most a few batches per worker are read ahead).
        patterns: patterns, or a pattern directory or file (`open_patterns`: a
            directory's files are read as their sites come); None: the fallback only.
        jobs: worker processes; 1 extracts here, -1 one per CPU.
        scheduler: a Dask scheduler address to run the batches on instead.
        batch_pages: pages per task.
        options: passed to `stemmer.extract` (``threshold``, ``strict``, ``fallback``:
            a model path must be one the workers can read).

    Yields:
        One `Extraction` per page, in input order, as `stemmer.extract` yields them.

    Raises:
        ValueError: `jobs` is 0 or `batch_pages` below 1.
        ModelError: the fallback's model file cannot be read (before the first page).
        ClusterError: the scheduler cannot be used.
    """
    _check_jobs(jobs)
    if batch_pages < 1:
        raise ValueError(f"batch_pages must be at least 1, got {batch_pages}")
    if isinstance(patterns, (str, os.PathLike)):
        patterns = open_patterns(patterns)
    fallback = options.get("fallback", GENERIC)
    if jobs == 1 and scheduler is None:
        if isinstance(fallback, (str, os.PathLike)) and fallback != GENERIC:
            fallback = load_fallback(fallback)
            fallback.classifier  # a bad model file fails here, before any output
        yield from api.extract(pages, patterns, **{**options, "fallback": fallback})
        return
    # The classifier is loaded once here and sent with each batch, not read again per batch;
    # a bad model file fails here.
    fallback = load_fallback(fallback)
    if fallback is not None:
        fallback.classifier
    options = {**options, "fallback": fallback}
    # workers read a directory's files themselves, as their sites come
    shipped = os.fspath(patterns.directory) if isinstance(patterns, LazyPatterns) else patterns
    from joblib import delayed

    with _backend(jobs, scheduler) as parallel:
        tasks = (delayed(told)(os.getpid(), extract_batch, batch, shipped, options)
                 for batch in _batches(pages, batch_pages))
        for results in parallel("generator")(tasks):
            yield from retell(results)


def _batches(pages: Iterable[Page], size: int) -> Iterator[list[Page]]:
    batch: list[Page] = []
    for page in pages:
        batch.append(page)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


@contextlib.contextmanager
def _backend(jobs: int, scheduler: str | None):
    """A maker of joblib.Parallel (given its ``return_as``): local processes, or the Dask cluster.

    The cluster is connected to once, on entry.
    """
    import joblib

    if scheduler is None:
        yield lambda mode: joblib.Parallel(n_jobs=jobs, return_as=mode, batch_size=1)
        return
    from stemmer.scale.dask_cluster import connect

    with connect(scheduler), joblib.parallel_config(backend="dask"):
        yield lambda mode: joblib.Parallel(n_jobs=-1, return_as=mode, batch_size=1)


def _check_jobs(jobs: int) -> None:
    if not isinstance(jobs, int) or jobs == 0:
        raise ValueError(f"jobs must be a positive number of processes or -1 (one per CPU), got {jobs!r}")
