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
