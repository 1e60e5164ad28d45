import pytest

from stemmer.errors import PatternFileError
from stemmer.layout.lazy import LazyPatterns
from stemmer.layout.model import SitePatterns
from stemmer.layout.store import save_patterns

from .test_store import WEBSTEMMER_PAT


def empty_site(name: str) -> SitePatterns:
    return SitePatterns(name, (), {}, {"match_threshold": 0.5})


@pytest.fixture
def directory(tmp_path):
    for name in ("a.example", "b.example", "c.example"):
        save_patterns(empty_site(name), tmp_path)
    return tmp_path


def test_a_site_is_read_when_first_asked_for(directory):
    patterns = LazyPatterns(directory)
    (directory / "b.example.json").write_text("{broken")  # never read: no page of b.example comes
    assert patterns.get("a.example") == empty_site("a.example")
    assert "a.example" in patterns and "nowhere.example" not in patterns
    assert patterns.get("nowhere.example") is None


def test_a_broken_file_fails_when_its_site_comes(directory):
    (directory / "b.example.json").write_text("{broken")
    patterns = LazyPatterns(directory)
    with pytest.raises(PatternFileError, match="b.example.json"):
        patterns.get("b.example")


def test_the_cache_keeps_the_latest_sites(directory):
    patterns = LazyPatterns(directory, cache=2)
    for name in ("a.example", "b.example", "c.example"):
        patterns.get(name)
    (directory / "a.example.json").unlink()
    assert patterns.get("c.example") is not None
    assert patterns.get("a.example") is None  # evicted, then read again: gone


def test_webstemmer_files_are_read_up_front(tmp_path):
    (tmp_path / "example.pat").write_text(WEBSTEMMER_PAT)
    patterns = LazyPatterns(tmp_path)
    [site] = [s for s in ("example.com", "www.example.com") if patterns.get(s) is not None]
    assert patterns.get(site).layouts


def test_a_directory_without_pattern_files_is_an_error(tmp_path):
    with pytest.raises(PatternFileError, match="no pattern files"):
        LazyPatterns(tmp_path)
    with pytest.raises(PatternFileError, match="not a directory"):
        LazyPatterns(tmp_path / "nope")
