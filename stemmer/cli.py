"""The `stemmer` command: one subcommand per verb; the only module that prints or exits."""
from __future__ import annotations

import argparse
import atexit
import codecs
import contextlib
import gc
import json
import logging
import math
import os
import sys
import time
from pathlib import Path

from stemmer import api
from stemmer.blocks import WALKER, WALKER_ERROR
from stemmer.crawl import CrawlOptions, crawl
from stemmer.errors import InputError, StemmerError
from stemmer.extract.fallback import GENERIC
from stemmer.fields.label import label
from stemmer.files import atomic_output, write_atomic
from stemmer.layout.model import AnalyzeParams
from stemmer.layout.store import load_patterns, open_patterns
from stemmer.outputs import FORMATS, DriftStats, Writer
from stemmer.pages import read_pages
from stemmer.report import report
from stemmer.scale import analyze_crawl, extract_crawl
from stemmer.update.history import check_date, today
from stemmer.update.updater import load_for_update, save_update, update
from stemmer.version import package_version

log = logging.getLogger("stemmer")
# A run's cyclic garbage collection waits for this many new objects (Python's default: 700).
# The pages' blocks and the memos of their keys are small objects by the hundred a page,
# most freed with their page: at 700 the collector walks each page's several times, 5% of
# extract and analyze; at this, once per hundreds of pages.
GC_YOUNG_OBJECTS = 100_000
# At exit, what is left is frozen (`gc.freeze`): the interpreter's last collections, which would
# search every object of numpy, lxml and stemmer's modules for cycles, pass over them (0.06 s of
# the 0.4 s a command takes to start and end).  Outputs are closed by then; the process's end frees the rest.
atexit.register(gc.freeze)


# --- argument types --------------------------------------------------------

def _number(kind: type, low: float, high: float | None = None, *, above: bool = False):
    """An argparse type: a `kind` number of at least `low` (`above`: more than `low`), at most `high`."""
    name = "a whole number" if kind is int else "a number"
    want = (f"{name} from {low:g} to {high:g}" if high is not None
            else f"{name} above {low:g}" if above else f"{name} of at least {low:g}")

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if (value is None or not math.isfinite(value) or value < low or (above and value == low)
                or (high is not None and value > high)):
            raise argparse.ArgumentTypeError(f"expected {want}, got {text}")
        return value
    return parse


_SIMILARITY = _number(float, 0, 1)
_SCORE = _number(float, 0)
_COUNT = _number(int, 0)
_AT_LEAST_ONE = _number(int, 1)


# --- crawl ---------------------------------------------------------------

def _add_crawl(sub) -> None:
    p = sub.add_parser(
        "crawl", help="fetch a site politely into a WARC.gz or zip for analyze",
        description="Follow links breadth-first from the start URLs, obeying robots.txt, and write "
        "the HTML pages, with the anchor texts of the links to them, to a WARC.gz or a Webstemmer zip.")
    p.add_argument("urls", nargs="+", metavar="URL", help="start URL; its host is crawled")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the WARC.gz or .zip to write; FILE.state holds the state while crawling")
    p.add_argument("--format", choices=["warc", "zip"], help="output format (default: zip for *.zip, else warc)")
    p.add_argument("-m", "--depth", type=_COUNT, default=1, metavar="N",
                   help="levels of links to follow from the start URLs (default 1)")
    p.add_argument("--max-pages", type=_AT_LEAST_ONE, default=1000, metavar="N",
                   help="most URLs to request (default 1000)")
    p.add_argument("-a", "--accept", dest="acl", action="append", type=lambda regex: ("accept", regex),
                   metavar="REGEX", help="accept URLs matching REGEX; -a/-r are checked in the order given, "
                   "the first match decides, a URL matching none is rejected")
    p.add_argument("-r", "--reject", dest="acl", action="append", type=lambda regex: ("reject", regex),
                   metavar="REGEX", help="reject URLs matching REGEX (without -a/-r: images, media, archives)")
    p.add_argument("--host", dest="hosts", action="append", metavar="HOST",
                   help="also crawl HOST (repeatable)")
    p.add_argument("--any-host", action="store_true", help="follow links to any host")
    p.add_argument("--contact", metavar="EMAIL_OR_URL", help="put in the User-Agent: stemmer/0.1 (+CONTACT)")
    p.add_argument("-D", "--delay", type=_number(float, 0), default=1.0, metavar="SECS",
                   help="seconds between requests to one host (default 1.0)")
    p.add_argument("--per-host", type=_AT_LEAST_ONE, default=1, metavar="N",
                   help="most requests in flight per host (default 1)")
    p.add_argument("--timeout", type=_number(float, 0, above=True), default=30.0, metavar="SECS",
                   help="network timeout, also for reading a whole body (default 30)")
    p.add_argument("--max-bytes", type=_AT_LEAST_ONE, default=5_000_000, metavar="N",
                   help="skip responses longer than N bytes (default 5000000)")
    p.add_argument("-k", "--cookies", metavar="FILE", help="Mozilla-format cookies.txt to send")
    p.add_argument("-c", "--charset", metavar="NAME", help="charset of pages that declare none")
    p.add_argument("-i", "--index", dest="index_name", default="", metavar="NAME",
                   help="zip member name appended to URLs ending in / (default none)")
    p.add_argument("-U", "--urldb", metavar="FILE",
                   help="SQLite URL database: store only pages not seen by earlier crawls")
    p.add_argument("-b", "--timestamp", metavar="ID", help="zip base name (default: now, YYYYMMDDHHMM)")
    p.add_argument("--resume", action="store_true", help="go on with an interrupted crawl from FILE.state")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress, summary or warnings")
    p.set_defaults(run=_run_crawl)


def _run_crawl(args) -> int:
    live = not args.quiet and sys.stderr.isatty()

    def progress(report) -> None:
        print(f"\rstemmer: crawl: {report.fetched} fetched, {report.stored} stored, {report.queued} queued",
              end="", file=sys.stderr, flush=True)

    try:
        options = CrawlOptions(
            depth=args.depth, max_pages=args.max_pages, hosts=args.hosts or (), any_host=args.any_host,
            acl=args.acl, contact=args.contact, delay=args.delay, per_host=args.per_host, timeout=args.timeout,
            max_bytes=args.max_bytes, cookies=args.cookies, charset=args.charset, index_name=args.index_name,
            urldb=args.urldb, timestamp=args.timestamp, format=args.format, resume=args.resume)
        report = crawl(args.urls, args.output, options, progress=progress if live else None)
    except ValueError as exc:
        print(f"stemmer crawl: error: {exc}", file=sys.stderr)
        return 2
    finally:
        if live:
            print(file=sys.stderr)
    if not args.quiet:
        print(f"stemmer: crawl: {report.fetched} fetched, {report.stored} stored, {report.skipped} skipped, "
              f"{report.errors} errors, {report.robots_blocked} forbidden by robots.txt, "
              f"{report.off_host_redirects} off-host redirects, {report.queued} left queued "
              f"in {report.elapsed:.1f} s -> {report.output}", file=sys.stderr)
    return 0


# --- progress ------------------------------------------------------------

class _Progress:
    """A one-line counter on stderr, redrawn at most 5 times a second, only on a terminal."""

    def __init__(self, label: str, quiet: bool) -> None:
        self.label, self.n, self.shown = label, 0, 0.0
        self.live = not quiet and sys.stderr.isatty()
        self.start = time.perf_counter()

    def __call__(self, n: int = 1) -> None:
        self.n += n
        now = time.perf_counter()
        if self.live and now - self.shown > 0.2:
            self.shown = now
            rate = self.n / max(now - self.start, 1e-9)
            print(f"\rstemmer: {self.label}: {_n(self.n, 'page')} ({rate:.0f}/s)", end="", file=sys.stderr, flush=True)

    def close(self) -> float:
        """End the line; the seconds since the start."""
        if self.live and self.shown:
            print(file=sys.stderr)
        return time.perf_counter() - self.start


class _SiteProgress(_Progress):
    """The progress line of a run over sites: pages read, then sites and pages done."""

    stage = ""

    def __call__(self, event) -> None:
        now = time.perf_counter()
        self.n = event.pages
        if self.live and (now - self.shown > 0.2 or event.stage != self.stage):  # a new stage shows at once
            self.shown, self.stage = now, event.stage
            if event.stage == "read":
                line = f"reading: {_n(event.pages, 'page')}, {_n(event.sites, 'site')}"
            else:
                line = (f"learning: {event.sites_done}/{_n(event.sites, 'site')} done, "
                        f"{event.pages_done}/{_n(event.pages, 'page')}")
            print(f"\rstemmer: {self.label}: {line}\033[K", end="", file=sys.stderr, flush=True)


def _n(count: int, noun: str) -> str:
    """``1 layout``, ``3 layouts``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs == 0 or jobs < -1:
        raise argparse.ArgumentTypeError(f"expected a number of processes or -1 (one per CPU), got {value}")
    return jobs


def _add_scale_options(p) -> None:
    p.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                   help="worker processes, one site (or a batch of pages) per task; -1: one per CPU (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the tasks on the Dask cluster of this scheduler, e.g. tcp://host:8786 "
                   "(needs stemmer[dask]; see docs/scale.md)")


class _BadInputs:
    """Reports an unreadable input on stderr and lets the run go on with the others."""

    def __init__(self, debug: bool = False) -> None:
        self.count = 0
        self.debug = debug

    def __call__(self, source, exc: Exception) -> None:
        if self.debug:
            raise exc
        self.count += 1
        print(f"stemmer: error: {exc}", file=sys.stderr)

    def status(self) -> int:
        """The exit status: 1 when an input could not be read."""
        return 1 if self.count else 0


class _Losses(logging.Handler):
    """Counts the pages a run left out and the inputs it read only in part, from the warnings
    that say so (`stemmer.pages.SKIPPED_PAGE`, `DAMAGED_INPUT`), for the summary and ``--strict``."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.pages = self.inputs = 0

    def emit(self, record: logging.LogRecord) -> None:
        lost = getattr(record, "stemmer_lost", None)
        self.pages += lost == "page"
        self.inputs += lost == "input"

    def note(self, bad: _BadInputs) -> str:
        """``, 2 pages skipped, 1 input damaged`` for the summary line; empty when nothing was lost."""
        inputs = self.inputs + bad.count
        return "".join((f", {_n(self.pages, 'page')} skipped" if self.pages else "",
                        f", {_n(inputs, 'input')} damaged" if inputs else ""))


def _no_pages(args) -> InputError:
    """The error of a run whose inputs held no page at all (a wrong path in a cron job must not pass)."""
    names = ", ".join("the file names on stdin" if i == "-" else i for i in args.inputs)
    return InputError(f"no readable HTML pages in {names}")


def _add_input_options(p) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="a wget mirror directory, Webstemmer .zip, .warc[.gz], .jsonl[.gz], an HTML file, "
                   "or - to read file names from stdin")
    p.add_argument("-c", "--charset", metavar="NAME", help="charset of pages that declare none (default: utf-8, "
                   "with a windows-1252 fallback for bytes that are not)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress, summary or warnings")


# --- analyze -------------------------------------------------------------

def _add_analyze(sub) -> None:
    d = AnalyzeParams()
    p = sub.add_parser(
        "analyze", help="learn the layouts of each site in a crawl into pattern files",
        description="Group the crawl's pages by site, cluster each site's pages by layout and write one "
        "JSON pattern file per site (patterns/<site>.json) for `stemmer extract`.")
    _add_input_options(p)
    p.add_argument("-o", "--output", default="patterns", metavar="DIR",
                   help="directory for the pattern files (default: patterns)")
    p.add_argument("-t", "--cluster-threshold", type=_SIMILARITY, default=d.cluster_threshold, metavar="SIM",
                   help=f"least layout similarity of pages in one cluster (default {d.cluster_threshold})")
    p.add_argument("-T", "--title-threshold", type=_SIMILARITY, default=d.title_threshold, metavar="SIM",
                   help=f"least similarity of a title block to the link texts (default {d.title_threshold})")
    p.add_argument("-M", "--main-threshold", type=_SCORE, default=d.main_threshold, metavar="SCORE",
                   help=f"least MainScore of the slot that anchors the main-text container (default {d.main_threshold:g})")
    p.add_argument("-S", "--score-threshold", type=_SCORE, default=d.score_threshold, metavar="SCORE",
                   help=f"least score of a layout to keep (default {d.score_threshold:g})")
    p.add_argument("--min-pages", type=_AT_LEAST_ONE, default=d.min_pages, metavar="N",
                   help=f"least pages of a layout to keep (default {d.min_pages})")
    _add_date_option(p)
    _add_scale_options(p)
    p.add_argument("--spill-dir", metavar="DIR",
                   help="where pages wait, grouped by site, until their site's task runs (default: the "
                   "system's temporary directory; with --scheduler, one every worker sees)")
    p.set_defaults(run=_run_analyze)


def _run_analyze(args) -> int:
    params = AnalyzeParams(cluster_threshold=args.cluster_threshold, title_threshold=args.title_threshold,
                           main_threshold=args.main_threshold, score_threshold=args.score_threshold,
                           min_pages=args.min_pages)
    progress = _SiteProgress("analyze", args.quiet)
    bad = _BadInputs(args.debug)
    # Pages wait on disk grouped by site; each site's file is written (keeping the roles a
    # user pinned in the file replaced) as the site finishes.
    report = analyze_crawl(read_pages(args.inputs, charset=args.charset, on_error=bad), args.output,
                           params=params, date=args.date, jobs=args.jobs, scheduler=args.scheduler,
                           progress=progress, spill_dir=args.spill_dir)
    seconds = progress.close()
    if not report.sites and not report.failures:
        if bad.count:
            return 1
        raise _no_pages(args)
    for failure in sorted(report.failures, key=lambda f: f.site):
        print(f"stemmer: error: {failure.site}: analyze failed: {failure.error}", file=sys.stderr)
        if args.debug and failure.detail:
            print(failure.detail, file=sys.stderr)
    args.losses.pages += sum(site.skipped for site in report.sites)
    if not args.quiet:
        for site in sorted(report.sites, key=lambda s: s.site):
            print(f"stemmer: analyze: {site.site}: {_n(site.layouts, 'layout')} learned from {site.covered} "
                  f"of its {_n(site.pages, 'page')}", file=sys.stderr)
            if site.suspect:
                print(f"stemmer: analyze: {site.site}: suspect: {', '.join(site.suspect)} "
                      f"{'give their pages' if len(site.suspect) > 1 else 'gives its pages'} "
                      "little or no main text (see `stemmer report`)", file=sys.stderr)
        print(f"stemmer: analyze: {_n(report.pages, 'page')}{args.losses.note(bad)}, "
              f"{_n(len(report.sites), 'pattern file')} in {args.output} ({seconds:.1f} s)", file=sys.stderr)
    return 1 if report.failures else bad.status()


# --- extract -------------------------------------------------------------

def _add_extract(sub) -> None:
    p = sub.add_parser(
        "extract", help="take the title and main text of pages with their sites' patterns",
        description="Match each page to the best layout of its site and print its title and main text. "
        "Pages of unknown sites or layouts go to the block classifier (unless --no-fallback).")
    _add_input_options(p)
    p.add_argument("-p", "--patterns", default=None, metavar="DIR|FILE",
                   help="pattern directory, a site's .json file, or a Webstemmer .pat file (default: ./patterns "
                   "if it exists, else none: every page goes to the block classifier)")
    p.add_argument("--no-fallback", action="store_true",
                   help="patterns only: pages no layout covers are reported as unmatched")
    p.add_argument("--model", metavar="FILE",
                   help="block classifier model (.json beside its .npz; default: the generic model shipped with "
                   "stemmer) for sites without a site model of their own (written by analyze)")
    p.add_argument("-f", "--format", choices=FORMATS, default="jsonl",
                   help="jsonl (default), webstemmer (!MATCHED/TITLE:/MAIN-n:), text or markdown")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (atomically) instead of stdout")
    p.add_argument("--threshold", type=_SIMILARITY, metavar="SIM",
                   help="least similarity to a layout (default: the one stored in the patterns)")
    p.add_argument("--strict", action="store_true",
                   help="reject a layout when the page lacks a slot that every training page of it had")
    p.add_argument("--stats", metavar="FILE",
                   help="write per-site page counts and unmatched shares (the drift signal) as JSON here")
    _add_scale_options(p)
    p.set_defaults(run=_run_extract)


class _NothingRead(Exception):
    """No input could be read: leave no output file behind."""


def _run_extract(args) -> int:
    patterns = open_patterns(args.patterns)  # without -p: ./patterns if analyze wrote there
    progress = _Progress("extract", args.quiet)
    bad = _BadInputs(args.debug)
    matched = classified = 0
    drift = DriftStats(patterns if patterns is not None else ())
    try:
        with _output(args.output) as out:
            writer = Writer(out, args.format)
            pages = read_pages(args.inputs, charset=args.charset, on_error=bad)
            for ex in extract_crawl(pages, patterns, jobs=args.jobs, scheduler=args.scheduler,
                                    threshold=args.threshold, strict=args.strict,
                                    fallback=None if args.no_fallback else args.model or GENERIC):
                writer.write(ex)
                matched += ex.matched
                classified += ex.method == "classifier"
                drift.add(ex)
                progress()
            if not progress.n:
                if bad.count:
                    raise _NothingRead
                raise _no_pages(args)
    except _NothingRead:
        progress.close()
        return 1
    seconds = progress.close()
    if not args.quiet:
        by_classifier = f", {classified} by the classifier" if classified else ""
        print(f"stemmer: extract: {_n(progress.n, 'page')}, {matched} matched a layout "
              f"({matched / progress.n:.0%}){by_classifier}{args.losses.note(bad)} in {seconds:.1f} s",
              file=sys.stderr)
        for line in drift.lines():
            print(f"stemmer: extract: {line}", file=sys.stderr)
    if args.stats:
        write_atomic(args.stats, json.dumps(drift.to_json(), indent=1) + "\n")
    return bad.status()


@contextlib.contextmanager
def _output(path: str | None):
    """stdout, or a file that appears only whole: written beside, renamed at the end.

    Binary where it takes UTF-8 with ``\\n`` line ends (`Writer` encodes): a file, and
    stdout where its text layer would write the same bytes.
    """
    if path is None or path == "-":
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None or os.linesep != "\n" or codecs.lookup(sys.stdout.encoding or "ascii").name != "utf-8":
            yield sys.stdout
            return
        sys.stdout.flush()
        yield buffer
        buffer.flush()
        return
    with atomic_output(path) as out:
        yield out


# --- html2txt ------------------------------------------------------------

def _add_html2txt(sub) -> None:
    p = sub.add_parser("html2txt", help="print all visible text of pages, one block a line",
                       description="Print the text of each page's blocks, one a line, with no pattern: "
                       "a quick look at what analyze sees.")
    _add_input_options(p)
    p.set_defaults(run=_run_html2txt)


def _run_html2txt(args) -> int:
    bad = _BadInputs(args.debug)
    pages = 0
    for page in read_pages(args.inputs, charset=args.charset, on_error=bad):
        print(f"==> {page.url or page.id} <==\n{api.html2txt(page.html)}\n")
        pages += 1
    if not pages and not bad.count:
        raise _no_pages(args)
    if (note := args.losses.note(bad)) and not args.quiet:
        print(f"stemmer: html2txt: {_n(pages, 'page')}{note}", file=sys.stderr)
    return bad.status()


# --- update --------------------------------------------------------------

def _add_date_option(p) -> None:
    def date(value: str) -> str:
        try:
            return check_date(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    p.add_argument("--date", type=date, metavar="YYYY-MM-DD",
                   help="the crawl's date, recorded as the layouts' first/last seen (default: today, UTC)")


def _add_update(sub) -> None:
    p = sub.add_parser(
        "update", help="match a new crawl against the patterns and learn the layouts it adds",
        description="Match each page of a new crawl to its site's layouts; cluster the pages that match "
        "none into new layouts; keep first/last-seen dates and counts; flag layouts not seen for a while. "
        "Writes the pattern files back in place, all or none; the same input twice changes nothing.")
    p.add_argument("patterns", metavar="PATTERNS", help="pattern directory (sites without a file get one) "
                   "or one site's .json file")
    _add_input_options(p)
    p.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    p.add_argument("--stale-after", type=_COUNT, default=90, metavar="DAYS",
                   help="flag layouts no page matched for more than DAYS days (default 90)")
    p.add_argument("--threshold", type=_SIMILARITY, metavar="SIM",
                   help="least similarity to a layout (default: the one stored in the patterns)")
    _add_date_option(p)
    p.set_defaults(run=_run_update)


def _run_update(args) -> int:
    source = Path(args.patterns)
    patterns = load_for_update(source)
    progress = _Progress("update", args.quiet)
    bad = _BadInputs(args.debug)
    result = update(read_pages(args.inputs, charset=args.charset, on_error=bad), patterns, date=args.date,
                    stale_after=args.stale_after, threshold=args.threshold, new_sites=source.is_dir(),
                    progress=progress)
    seconds = progress.close()
    if not result.sites and not result.left_out:
        if bad.count:
            return 1
        raise _no_pages(args)
    written = [] if args.dry_run else save_update(result, source)
    if not args.quiet:
        for change in result.sites:
            print(f"stemmer: update: {change.summary()}", file=sys.stderr)
        for site, n in result.left_out.items():
            print(f"stemmer: update: {site}: {_n(n, 'page')} left out, no patterns for this site in "
                  f"{args.patterns}", file=sys.stderr)
        done = ("dry run: nothing written" if args.dry_run
                else f"{_n(len(written), 'pattern file')} written" if written else "nothing changed")
        print(f"stemmer: update: {_n(progress.n, 'page')}{args.losses.note(bad)}, {done} ({seconds:.1f} s)",
              file=sys.stderr)
    return bad.status()


# --- report --------------------------------------------------------------

def _add_report(sub) -> None:
    p = sub.add_parser(
        "report", help="write an HTML report of the learned layouts, and of how pages fare with them",
        description="Write one self-contained HTML file: per site its layouts, their blocks with roles and "
        "scores, and for pages given as INPUT their blocks coloured by role beside the extracted text; "
        "unmatched pages with their nearest layout; charts of layout sizes and page similarities.")
    p.add_argument("patterns", metavar="PATTERNS", help="pattern directory or a site's .json (or .pat) file")
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="pages of the sites to show (any input of extract)")
    p.add_argument("-o", "--output", default="report.html", metavar="FILE",
                   help="the HTML file to write, atomically (default: report.html; - for stdout)")
    p.add_argument("-n", "--pages-per-layout", type=_COUNT, default=3, metavar="N",
                   help="pages shown block by block per layout (default 3)")
    p.add_argument("--threshold", type=_SIMILARITY, metavar="SIM",
                   help="least similarity to a layout (default: the one stored in the patterns)")
    p.add_argument("-c", "--charset", metavar="NAME", help="charset of pages that declare none")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress, summary or warnings")
    p.set_defaults(run=_run_report)


def _run_report(args) -> int:
    patterns = load_patterns(args.patterns)
    progress = _Progress("report", args.quiet)
    bad = _BadInputs(args.debug)
    pages = read_pages(args.inputs, charset=args.charset, on_error=bad) if args.inputs else ()
    html = report(patterns, pages, pages_per_layout=args.pages_per_layout, threshold=args.threshold,
                  source=args.patterns, generated=today(), progress=progress)
    seconds = progress.close()
    if bad.count and not progress.n:
        return 1  # no input could be read: no report
    if args.output == "-":
        sys.stdout.write(html)
    else:
        write_atomic(args.output, html)
    if not args.quiet:
        print(f"stemmer: report: {_n(len(patterns.sites), 'site')}, {_n(progress.n, 'page')}{args.losses.note(bad)} "
              f"-> {args.output} ({seconds:.1f} s)", file=sys.stderr)
    return bad.status()


# --- label ---------------------------------------------------------------

def _example(text: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def _add_label(sub) -> None:
    p = sub.add_parser(
        "label", help="name a slot from one example value: extract then gives it on every page of its layout",
        description="Match PAGE to its layout, find the block that shows each example value (the same text, "
        "else the text within a block, else the nearest by fuzzy match), and name its slot: extract then gives "
        "the field's value on every page of the layout (the `fields` of JSON Lines, FIELD-name: lines, Markdown "
        "front matter). The same slot is named in the site's other layouts where one aligns (the same key, or "
        "the slot beside the same static text such as a 'Price:' label). An address (http://..., /...) names "
        "the slot of the link or image that has it, and the field gives the address; a date also gives "
        "NAME_iso; a text slot with several blocks on the page (tags, specs) gives a list. Prints, per field, the "
        "layouts that got it and its value on each layout's pages seen at analyze (found beside PAGE, or "
        "--pages), else on PAGE. Writes the pattern file "
        "atomically, or nothing when an example is found nowhere.",
        epilog="example: stemmer label -p patterns shop.example/p/123.html --field price='$19.99' "
        "--field tags=Energy --pages shop.example")
    p.add_argument("page", metavar="PAGE", help="a page of a learned layout (an HTML file, or any input of "
                   "extract: its first page)")
    p.add_argument("-p", "--patterns", default="patterns", metavar="DIR|FILE",
                   help="the pattern directory or the site's .json file, written back (default: patterns)")
    p.add_argument("--field", dest="examples", action="append", type=_example, required=True, metavar="NAME=VALUE",
                   help="a field and a value PAGE shows for it (repeatable)")
    p.add_argument("--many", action="append", default=[], metavar="NAME",
                   help="the field's slot repeats: its value is a list (so anyway for text where PAGE has several blocks of it)")
    p.add_argument("--pages", nargs="+", metavar="INPUT",
                   help="show the fields' values on these pages (default: the layouts' member pages, seen at "
                   "analyze, where they lie beside PAGE in its mirror; else PAGE)")
    p.add_argument("--dry-run", action="store_true", help="print what would be named, write nothing")
    p.add_argument("-c", "--charset", metavar="NAME", help="charset of pages that declare none")
    p.set_defaults(run=_run_label)


def _run_label(args) -> int:
    bad = _BadInputs(args.debug)
    pages = read_pages(args.pages, charset=args.charset, on_error=bad) if args.pages else None
    result = label(args.patterns, args.page, dict(args.examples), many=args.many, pages=pages,
                   write=not args.dry_run, charset=args.charset)
    for f in result.fields:
        kind = ", a list" if f.many else ""
        kind += f", {f.field_type}" if f.field_type != "text" else ""
        print(f"{f.name}: {f.example!r} found in layout {f.layout} ({f.how}), slot {f.key!r}{kind}")
        print(f"  named in: {', '.join(f.named) or 'none'}")
        for lid, why in f.not_named.items():
            print(f"  not in {lid}: {why}")
        for lid in sorted(f.values):
            for page_id, value, *iso in f.values[lid]:
                date = f" (read as {json.dumps(iso[0])})" if iso else ""
                print(f"  {lid} {page_id}: {json.dumps(value, ensure_ascii=False)}{date}")
    done = f"wrote {result.written}" if result.written else "dry run: nothing written" if args.dry_run else ""
    if done:
        print(f"stemmer: label: {done}", file=sys.stderr)
    return bad.status()


# --- train ---------------------------------------------------------------

def _add_train(sub) -> None:
    p = sub.add_parser(
        "train", help="train a block classifier from the blocks a crawl's patterns label",
        description="Label the blocks of the analyzed sites' pages by their layouts (main and title slots: main "
        "text; static and sub slots: not; blocks no slot knows: left out) and train a block classifier for "
        "pages of sites never analyzed. Use it with `stemmer extract --model MODEL.json`.")
    p.add_argument("patterns", metavar="PATTERNS", help="pattern directory or a site's .json file")
    _add_input_options(p)
    p.add_argument("-o", "--output", required=True, metavar="MODEL", help="write MODEL.json + MODEL.npz")
    p.add_argument("--pages-per-site", type=_AT_LEAST_ONE, default=api.TRAIN_PAGES_PER_SITE, metavar="N",
                   help=f"pages labelled per site (default {api.TRAIN_PAGES_PER_SITE})")
    p.set_defaults(run=_run_train)


def _run_train(args) -> int:
    patterns = open_patterns(args.patterns)
    bad = _BadInputs(args.debug)
    clf = api.train(read_pages(args.inputs, charset=args.charset, on_error=bad), patterns,
                    pages_per_site=args.pages_per_site)
    json_path, _ = clf.save(args.output)
    if not args.quiet:
        got = clf.info_["trained_on"]["patterns"]
        print(f"stemmer: train: {got['pages']} pages of {got['sites']} sites, {got['main_blocks']} main-text and "
              f"{got['other_blocks']} other blocks -> {json_path}", file=sys.stderr)
    return bad.status()


# --- main ----------------------------------------------------------------

class _ShowVersion(argparse.Action):
    """``-V``: the version is read only when asked (`stemmer.version`)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"stemmer {package_version()} ({WALKER} block walker)")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stemmer",
        description="Learn a website's page layouts from a crawl, then extract the title "
        "and main text of its new pages.",
    )
    parser.add_argument("-V", "--version", action=_ShowVersion, help="show the version and block walker, then exit")
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    parser.add_argument("--strict", dest="no_losses", action="store_true",
                        help="exit 1 when a page was skipped or an input read only in part (for cron jobs)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_analyze(sub)
    _add_extract(sub)
    _add_html2txt(sub)
    _add_crawl(sub)
    _add_update(sub)
    _add_report(sub)
    _add_label(sub)
    _add_train(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if WALKER_ERROR:
        print(f"stemmer: error: {WALKER_ERROR}", file=sys.stderr)
        return 1
    parser = build_parser()
    args = parser.parse_args(argv)
    quiet = getattr(args, "quiet", False)
    shown = logging.StreamHandler()
    shown.setLevel(logging.ERROR if quiet else logging.NOTSET)  # -q hides warnings, which are still counted
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.WARNING,
                        format="stemmer: %(levelname)s: %(message)s", handlers=[shown])
    args.losses = _Losses()
    logger = logging.getLogger("stemmer")
    logger.addHandler(args.losses)
    collected = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_OBJECTS, *collected[1:])
    try:
        code = args.run(args)
        return 1 if code == 0 and args.no_losses and (args.losses.pages or args.losses.inputs) else code
    except StemmerError as exc:
        if args.debug:
            raise
        print(f"stemmer: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stemmer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `stemmer extract ... | head`
        sys.stderr.close()
        return 0
    except OSError as exc:
        if args.debug:
            raise
        print(f"stemmer: error: {exc.filename or ''}{': ' if exc.filename else ''}{exc.strerror or exc}",
              file=sys.stderr)
        return 1
    finally:
        gc.set_threshold(*collected)
        logger.removeHandler(args.losses)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
