"""The public API: what `import stemmer` offers, and the verbs' contracts across its types."""
from pathlib import Path

import pytest

import stemmer
from stemmer.layout.store import LazyPatterns

DEMO = Path(stemmer.__file__).parent / "demo" / "site"


def test_the_public_names_are_exported():
    for name in stemmer.__all__:
        assert getattr(stemmer, name) is not None, name
    assert issubclass(stemmer.CrawlError, stemmer.StemmerError) and callable(stemmer.crawl)
    with pytest.raises(ValueError, match="depth must be >= 0"):
        stemmer.CrawlOptions(depth=-1)


def test_loaded_and_lazy_patterns_extract_alike(tmp_path):
    stemmer.save_patterns(stemmer.analyze(stemmer.read_pages(DEMO), date="2024-01-01"), tmp_path)
    pages = list(stemmer.read_pages(DEMO))
    loaded, lazy = stemmer.load_patterns(tmp_path), LazyPatterns(tmp_path)
    assert "demo.stemmer.test" in loaded and "demo.stemmer.test" in lazy and "other.org" not in lazy
    assert list(stemmer.extract(pages, loaded)) == list(stemmer.extract(pages, lazy))


def test_the_version_is_written_in_one_place():
    import re

    from stemmer.crawl.crawler import user_agent

    pyproject = (Path(stemmer.__file__).parents[1] / "pyproject.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    assert stemmer.__version__ == version
    assert user_agent() == "stemmer/" + ".".join(version.split(".")[:2])


ARTICLE = """<html lang="en"><head><title>Storm hits coast | Daily News</title>
<meta property="og:site_name" content="Daily News"></head><body>
<nav><a href="/">Home</a> <a href="/world">World</a></nav>
<article><h1>Storm hits coast</h1><p class="byline">By Jane Doe | March 5, 2024</p>
<p>The storm reached the coast on Tuesday night, bringing heavy rain and strong winds to the towns along the bay.</p>
<p>Residents were asked to stay indoors while crews cleared fallen trees from the main roads of the region.</p>
</article><footer>Copyright Daily News</footer></body></html>"""


def test_extract_html_gives_title_text_date_and_author():
    ex = stemmer.extract_html(ARTICLE, "https://news.example.com/storm")
    assert isinstance(ex, stemmer.Extraction) and ex.method == "classifier"
    assert ex.title == "Storm hits coast" and "reached the coast" in ex.text
    assert (ex.date, ex.date_from, ex.author, ex.author_from) == ("2024-03-05", "visible", "Jane Doe", "byline")


def test_extract_html_does_not_depend_on_earlier_calls():
    first = stemmer.extract_html(ARTICLE, "https://news.example.com/storm")
    stemmer.extract_html("<html><body><h1>Other</h1><p>By Sam Roe, 1 May 2020</p></body></html>")
    assert stemmer.extract_html(ARTICLE.encode(), "https://news.example.com/storm") == first


def test_extract_html_uses_a_sites_patterns(tmp_path):
    stemmer.save_patterns(stemmer.analyze(stemmer.read_pages(DEMO), date="2024-01-01"), tmp_path)
    page = next(p for p in stemmer.read_pages(DEMO) if p.url and "/news/" in p.url)
    ex = stemmer.extract_html(page.html, page.url, tmp_path)
    assert ex.method == "pattern" and ex.matched
    assert stemmer.extract_html(page.html, None, stemmer.load_patterns(tmp_path)).method == "pattern"
    with pytest.raises(stemmer.PatternFileError):
        stemmer.extract_html(page.html, page.url, tmp_path / "missing")


def test_metadata_set_before_the_finishing_step_stays():
    from dataclasses import replace

    from stemmer.blocks import parse_html
    from stemmer.extract import unmatched
    from stemmer.metadata.choose import add_metadata

    root = parse_html(ARTICLE)
    slot = replace(unmatched("a", None, "x"), date="2023-01-01", date_from="slot")
    filled = add_metadata(slot, root)
    assert (filled.date, filled.date_from, filled.author, filled.author_from) == ("2023-01-01", "slot", "Jane Doe", "byline")
    assert add_metadata(unmatched("a", None, "x"), None).date is None
