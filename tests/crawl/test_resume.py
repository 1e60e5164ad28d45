import logging
import zipfile

import pytest

from stemmer.errors import CrawlError

from .conftest import read_warc, warc_linkinfo, warc_pages


def stop_after(urls: int):
    """A progress callback that interrupts the crawl as Ctrl-C would, after `urls` URLs."""
    seen = []

    def progress(report) -> None:
        seen.append(report)
        if len(seen) >= urls:
            raise KeyboardInterrupt
    return progress


def counts(report):
    return (report.fetched, report.stored, report.skipped, report.errors,
            report.off_host_redirects, report.robots_blocked, report.redirects_not_followed)


def test_interrupted_crawl_resumes_to_the_same_result(run, site, tmp_path):
    full = run(output="full.warc.gz")
    with pytest.raises(KeyboardInterrupt):
        run(output="part.warc.gz", progress=stop_after(4))
    assert not (tmp_path / "part.warc.gz").exists()
    assert (tmp_path / "part.warc.gz.state").exists()
    site.requests.clear()

    resumed = run(output="part.warc.gz", resume=True)

    assert warc_pages(tmp_path / "part.warc.gz") == warc_pages(tmp_path / "full.warc.gz")
    uris = [r["uri"] for r in read_warc(tmp_path / "part.warc.gz") if r["type"] == "response"]
    assert len(uris) == len(set(uris)) == full.stored
    assert warc_linkinfo(tmp_path / "part.warc.gz") == warc_linkinfo(tmp_path / "full.warc.gz")
    assert counts(resumed) == counts(full)
    assert not {"/", "/a1.html", "/a2.html", "/a3.html"} & set(site.requests)  # settled before the stop
    assert not (tmp_path / "part.warc.gz.state").exists()


def test_resume_may_raise_the_page_cap(run, tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run(output="part.zip", max_pages=3, progress=stop_after(2), timestamp="202401010000")
    resumed = run(output="part.zip", max_pages=1000, resume=True)
    full = run(output="full.zip", timestamp="202401010000")
    assert (resumed.fetched, resumed.stored) == (full.fetched, full.stored) == (13, 6)
    with zipfile.ZipFile(tmp_path / "part.zip") as part, zipfile.ZipFile(tmp_path / "full.zip") as whole:
        assert part.namelist() == whole.namelist()
        assert part.read("linkinfo") == whole.read("linkinfo")


def test_resume_of_a_different_crawl_is_refused(run, tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run(output="part.warc.gz", progress=stop_after(1))
    with pytest.raises(CrawlError, match="part.warc.gz.state: made for depth=1, not 2"):
        run(output="part.warc.gz", depth=2, resume=True)


def test_resume_without_state_starts_afresh(run, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        report = run(output="x.warc.gz", depth=0, resume=True)
    assert report.stored == 1
    assert "no state file; starting afresh" in caplog.text


def test_a_new_crawl_replaces_a_stale_state(run, tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run(output="x.warc.gz", progress=stop_after(1))
    report = run(output="x.warc.gz", depth=0)
    assert report.fetched == 1
    assert not (tmp_path / "x.warc.gz.state").exists()


def test_failed_write_keeps_the_pages_for_resume(run, site, tmp_path):
    (tmp_path / "x.warc.gz").mkdir()  # os.replace onto a directory fails
    with pytest.raises(CrawlError, match="x.warc.gz: cannot write .* --resume"):
        run(output="x.warc.gz", depth=0)
    (tmp_path / "x.warc.gz").rmdir()
    site.requests.clear()
    report = run(output="x.warc.gz", depth=0, resume=True)
    assert report.stored == 1 and site.requests == ["/robots.txt"]  # no page fetched again
    assert warc_pages(tmp_path / "x.warc.gz") == {site.url("/"): site.routes["/"].body}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.warc.gz"]
