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
    p = sub.add_parser("crawl", help="fetch a site politely into a WARC.gz or zip for analyze")
    p.set_defaults(run=_run_crawl)


def _run_crawl(args) -> int:
    raise StemmerError("crawl is not implemented yet")


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
