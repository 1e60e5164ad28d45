"""The `stemmer` command: one subcommand per verb; the only module that prints or exits."""
from __future__ import annotations

import argparse
import logging
import sys

from stemmer.errors import StemmerError

log = logging.getLogger("stemmer")


# --- crawl ---------------------------------------------------------------
# (owned by the crawler work: flags and the call of stemmer.crawl.crawl)

def _add_crawl(sub) -> None:
    p = sub.add_parser(
        "crawl", help="fetch a site politely into a WARC.gz or zip for analyze",
        description="Follow links breadth-first from the start URLs, obeying robots.txt, and write "
        "the HTML pages, with the anchor texts of the links to them, to a WARC.gz or a Webstemmer zip.")
    p.add_argument("urls", nargs="+", metavar="URL", help="start URL; its host is crawled")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the WARC.gz or .zip to write; FILE.state holds the state while crawling")
    p.add_argument("--format", choices=["warc", "zip"], help="output format (default: zip for *.zip, else warc)")
    p.add_argument("-m", "--depth", type=int, default=1, metavar="N",
                   help="levels of links to follow from the start URLs (default 1)")
    p.add_argument("--max-pages", type=int, default=1000, metavar="N", help="most URLs to request (default 1000)")
    p.add_argument("-a", "--accept", dest="acl", action="append", type=lambda regex: ("accept", regex),
                   metavar="REGEX", help="accept URLs matching REGEX; -a/-j are checked in the order given, "
                   "the first match decides, a URL matching none is rejected")
    p.add_argument("-j", "--reject", dest="acl", action="append", type=lambda regex: ("reject", regex),
                   metavar="REGEX", help="reject URLs matching REGEX (without -a/-j: images, media, archives)")
    p.add_argument("--host", dest="hosts", action="append", metavar="HOST",
                   help="also crawl HOST (repeatable)")
    p.add_argument("--any-host", action="store_true", help="follow links to any host")
    p.add_argument("--contact", metavar="EMAIL_OR_URL", help="put in the User-Agent: stemmer/0.1 (+CONTACT)")
    p.add_argument("-D", "--delay", type=float, default=1.0, metavar="SECS",
                   help="seconds between requests to one host (default 1.0)")
    p.add_argument("--per-host", type=int, default=1, metavar="N", help="most requests in flight per host (default 1)")
    p.add_argument("-T", "--timeout", type=float, default=30.0, metavar="SECS",
                   help="network timeout, also for reading a whole body (default 30)")
    p.add_argument("--max-bytes", type=int, default=5_000_000, metavar="N",
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
    from stemmer.crawl import crawl

    live = not args.quiet and sys.stderr.isatty()

    def progress(report) -> None:
        print(f"\rstemmer: crawl: {report.fetched} fetched, {report.stored} stored, {report.queued} queued",
              end="", file=sys.stderr, flush=True)

    try:
        report = crawl(
            args.urls, args.output, depth=args.depth, max_pages=args.max_pages, hosts=args.hosts,
            any_host=args.any_host, acl=args.acl, contact=args.contact, delay=args.delay,
            per_host=args.per_host, timeout=args.timeout, max_bytes=args.max_bytes, cookies=args.cookies,
            charset=args.charset, index_name=args.index_name, urldb=args.urldb, timestamp=args.timestamp,
            format=args.format, resume=args.resume, progress=progress if live else None)
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


# --- main ----------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stemmer",
        description="Learn a website's page layouts from a crawl, then extract the title "
        "and main text of its new pages.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_crawl(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    quiet = getattr(args, "quiet", False)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else (logging.ERROR if quiet else logging.WARNING),
        format="stemmer: %(levelname)s: %(message)s",
    )
    try:
        return args.run(args)
    except StemmerError as exc:
        if args.debug:
            raise
        print(f"stemmer: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stemmer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
