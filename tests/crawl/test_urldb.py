import pytest

from stemmer.crawl.urldb import UrlDB
from stemmer.errors import CrawlError


def test_marked_urls_are_remembered_across_opens(tmp_path):
    with UrlDB(tmp_path / "urls.db") as db:
        db.mark(["http://example.com/a", "http://example.com/b"], when=100.0)
    with UrlDB(tmp_path / "urls.db") as db:
        assert "http://example.com/a" in db
        assert "http://example.com/c" not in db
        assert len(db) == 2


def test_prune_forgets_urls_not_seen_since(tmp_path):
    with UrlDB(tmp_path / "urls.db") as db:
        db.mark(["http://example.com/old"], when=100.0)
        db.mark(["http://example.com/new"], when=200.0)
        assert db.prune(older_than=150.0) == 1
        assert "http://example.com/old" not in db


def test_not_a_database_raises_crawl_error(tmp_path):
    path = tmp_path / "urls.db"
    path.write_text("not sqlite at all, just some text that is long enough" * 10)
    with pytest.raises(CrawlError, match="urls.db"):
        UrlDB(path)
