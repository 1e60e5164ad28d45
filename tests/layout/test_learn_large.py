"""learn_site on a big site: clustering without the n x n matrix, big clusters aligned on samples."""
from pathlib import Path

import stemmer
from stemmer import read_pages
from stemmer.layout import learn
from stemmer.layout.learn import learn_site

from .conftest import site_pages_of


def demo_pages():
    return site_pages_of(read_pages(Path(stemmer.__file__).parent / "demo" / "site"))


def test_big_site_path_learns_what_the_exact_path_learns(monkeypatch):
    pages = demo_pages()
    exact = learn_site("demo.stemmer.test", pages)
    monkeypatch.setattr(learn, "EXACT_MAX_PAGES", 5)  # the demo's 41 pages count as a big site
    assert learn_site("demo.stemmer.test", pages) == exact


def test_big_clusters_are_aligned_on_a_sample_and_keep_their_page_counts(monkeypatch):
    pages = demo_pages()
    exact = learn_site("demo.stemmer.test", pages)
    monkeypatch.setattr(learn, "EXACT_MAX_PAGES", 5)
    monkeypatch.setattr(learn, "FIXATE_SAMPLE", 8)
    sampled = learn_site("demo.stemmer.test", pages)
    assert [(lay.pages, lay.members) for lay in sampled.layouts] == [(lay.pages, lay.members) for lay in exact.layouts]
    for lay, ref in zip(sampled.layouts, exact.layouts):
        assert {s.key for s in lay.sections if s.role in ("title", "main")} == \
            {s.key for s in ref.sections if s.role in ("title", "main")}
