"""Tiny labelled pages and a fitted classifier for the classify tests (no model download, no torch)."""
from __future__ import annotations

import pytest

from stemmer.blocks import parse_html
from stemmer.classify.features import page_table
from stemmer.classify.label import label_blocks
from stemmer.classify.model import BlockClassifier

NAV = '<ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul>'
FOOT = '<div class="footer"><p>© 2024 The Example Times. All rights reserved.</p><a href="/privacy">Privacy</a></div>'


def article(n: int) -> tuple[str, str]:
    """Page n of a synthetic news site and its gold main text."""
    paras = [f"Story {n} paragraph {k}: the council met on Tuesday and agreed that the bridge over "
             f"the river will be repaired before winter, officials said." for k in range(3)]
    body = "".join(f"<p>{p}</p>" for p in paras)
    html = (f"<html><head><title>Story {n} | Example Times</title></head><body>{NAV}"
            f'<div class="content"><h1>Story {n}</h1>{body}</div>'
            f'<div class="sidebar"><h3>Related</h3><ul><li><a href="/a">Other story {n + 1}</a></li>'
            f'<li><a href="/b">Another one</a></li></ul></div>{FOOT}</body></html>')
    return html, "\n".join(paras)


@pytest.fixture(scope="session")
def labelled():
    """(tables, labels, sites) of 12 synthetic pages from 6 sites."""
    tables, labels, sites = [], [], []
    for n in range(12):
        html, gold = article(n)
        t = page_table(parse_html(html))
        tables.append(t)
        labels.append(label_blocks([b.text for b in t.blocks], gold))
        sites.append(f"site{n % 6}.example")
    return tables, labels, sites


@pytest.fixture(scope="session")
def fitted(labelled):
    """A small logistic-regression classifier with its second stage."""
    tables, labels, sites = labelled
    return BlockClassifier(estimator="logreg", context=True, n_tags=10, n_attrs=10).fit(
        tables, labels, groups_of_pages=sites)
