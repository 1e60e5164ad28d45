"""Crawl a site politely into a WARC.gz (or a Webstemmer zip) for ``stemmer analyze``.

Modules, in the order of the flow: ``frontier`` (URL normalisation, ACL, queue),
``robots``, ``fetch`` (requests, caps, redirects), ``links`` (anchor texts),
``state`` (resume), ``urldb`` (URLs of earlier crawls), ``store`` (writers),
and ``crawler``, which runs them.
"""
from stemmer.crawl.crawler import CrawlOptions, CrawlReport, crawl

__all__ = ["CrawlOptions", "CrawlReport", "crawl"]
