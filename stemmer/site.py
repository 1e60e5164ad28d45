"""One site's analysis, pages in, patterns out: the unit that analyze, update and both schedulers share.

A `SiteCollector` takes a site's pages one at a time: it cuts each into blocks,
keeps the texts of the site's links to it (for titles) and a sample for the
site's block classifier.  `learn` then learns the layouts, dates them and
trains the site model.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace

from stemmer.blocks import PageBlocks, parse_html, segment
from stemmer.classify.features import PageTable, page_table
from stemmer.cluster import KeyMaker
from stemmer.classify.site_model import chosen, keep_sample, train_site_model
from stemmer.layout.learn import learn_site
from stemmer.layout.model import AnalyzeParams, SitePage, SitePatterns
from stemmer.layout.titles import away_texts, own_titles
from stemmer.metadata import page_signals
from stemmer.pages import Page
from stemmer.update.history import stamp
from stemmer.urls import LinkResolver, normal_url

log = logging.getLogger("stemmer")


class SiteCollector:
    """A site's pages, cut into blocks, with what learning them needs besides.

    Args:
        site: the site.
        site_model: keep a sample of pages to train the site's block classifier on.

    Attributes:
        pages: the pages to learn from, in the order they came.
        sample: (key, parsed page or `PageTable`) candidates for the site model (`keep_sample`).
        skipped: pages left out because parsing them raised (each named in a warning).
    """

    def __init__(self, site: str, *, site_model: bool = True) -> None:
        self.site, self.site_model = site, site_model
        self.pages: list[SitePage] = []
        self.skipped = 0
        self.sample: list = []
        self._targets: dict[str, SitePage] = {}
        self._outlinks: list[tuple[str, list[tuple[str, str]]]] = []
        self._links = LinkResolver()

    def add(self, page: Page) -> SitePage | None:
        """Parse a page of the site and keep it to learn from; None, with a warning, if parsing raises."""
        try:
            root = parse_html(page.utf8, name=page.id)
            blocks = segment(root, with_links=True)
        except Exception as exc:  # noqa: BLE001  (one page must never cost its site)
            self.skipped += 1  # counted in the site's history: this may run in a worker process
            log.warning("%s: skipped, %s: %s", page.id, type(exc).__name__, exc)
            return None
        return self.add_parsed(page, root, blocks)

    def add_parsed(self, page: Page, root, blocks: PageBlocks, *, learn: bool = True) -> SitePage:
        """Keep a page parsed by the caller; with `learn` False only its links and sample count (update: it matched)."""
        # What the page states of itself votes for the layouts' date and byline slots: read only to learn.
        stated = (page_signals(root, page.url, lang=root.get("lang") if root is not None else None)
                  if learn else None)
        sp = SitePage(page.id, blocks, list(page.anchors), own_titles(root),
                      away_texts(page.url, blocks.links, self._links),
                      stated.date.value if stated and stated.date else "",
                      stated.author.value if stated and stated.author else "")
        if learn:
            self.pages.append(sp)
        if self.site_model and blocks.blocks:
            keep_sample(self.sample, page.id, root)
        if url := normal_url(page.url):
            if learn:
                self._targets[url] = sp
            self._outlinks.append((page.url, list(blocks.links)))
        return sp

    def link_texts(self, urls: Iterable[str] | None = None) -> dict[str, list[str]]:
        """The texts of the site's links, by the normalised URL of the page they point to.

        Args:
            urls: the targets (normalised); default the pages kept to learn from.
        """
        targets = set(self._targets) if urls is None else set(urls)
        texts: dict[str, list[str]] = {}
        for base, links in self._outlinks:
            source = normal_url(base)
            for href, text in links:
                if not text or href.startswith(("#", "javascript:", "mailto:")):
                    continue
                target = self._links.resolve(base, href).normal  # resolved once already, by `away_texts`
                if target and target != source and target in targets:
                    texts.setdefault(target, []).append(text)
        return texts

    def layouts(self, params: AnalyzeParams, *, keymaker: KeyMaker | None = None) -> SitePatterns:
        """The site's layouts learned from its pages, with the link texts to each; undated, no site model."""
        for url, texts in self.link_texts().items():
            self._targets[url].anchors.extend(texts)
        self._outlinks.clear()  # given to their pages: learning twice does not add them twice
        return learn_site(self.site, self.pages, params, keymaker=keymaker)

    def learn(self, params: AnalyzeParams, date: str, **history) -> SitePatterns:
        """The site's patterns: its layouts first seen on `date` (`history`: more of the run's entry) and its site model."""
        lost = {"skipped": self.skipped} if self.skipped else {}
        learned = stamp(self.layouts(params), date, pages=len(self.pages), **lost, **history)
        return self.with_site_model(learned)

    def with_site_model(self, patterns: SitePatterns) -> SitePatterns:
        """The patterns with the site's block classifier trained on the sample, if the patterns label enough of it."""
        if not self.site_model:
            return patterns
        tables = [item if isinstance(item, PageTable) else page_table(item) for item in chosen(self.sample)]
        model = train_site_model(patterns, tables)
        return replace(patterns, model=model) if model is not None else patterns


def collect_site(site: str, pages: Iterable[Page], *, site_model: bool = True) -> SiteCollector:
    """A collector holding `pages` (all of `site`)."""
    collector = SiteCollector(site, site_model=site_model)
    for page in pages:
        collector.add(page)
    return collector
