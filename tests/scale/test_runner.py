import os
import signal

import pytest

from stemmer import analyze, extract, load_patterns, save_patterns
from stemmer.scale import analyze_crawl, extract_crawl, runner
from stemmer.scale.jobs import SiteFailure

from .conftest import files

DATE = "2024-05-01"


@pytest.fixture
def reference(tmp_path, crawl):
    """The pattern files of `stemmer.analyze` + `save_patterns`."""
    out = tmp_path / "reference"
    save_patterns(analyze(crawl, date=DATE), out)
    return out


def test_one_job_writes_the_files_of_analyze(tmp_path, crawl, reference):
    report = analyze_crawl(crawl, tmp_path / "out", date=DATE)
    assert files(tmp_path / "out") == files(reference)
    assert report.pages == len(crawl) and not report.failures
    assert sorted(s.site for s in report.sites) == sorted({p.site for p in crawl})


def test_two_workers_write_the_same_files(tmp_path, crawl, reference):
    report = analyze_crawl(crawl, tmp_path / "out", date=DATE, jobs=2)
    assert files(tmp_path / "out") == files(reference)
    assert len(report.sites) * 2 == len(files(reference))  # a pattern file and a noise library each


def test_a_big_site_parsed_in_chunks_learns_the_same(tmp_path, crawl, reference):
    # 2 pages a chunk: every site is parsed by both workers and learned here
    analyze_crawl(crawl, tmp_path / "out", date=DATE, jobs=2, chunk_pages=2)
    assert files(tmp_path / "out") == files(reference)


def test_progress_counts_sites_and_pages(tmp_path, crawl):
    events = []
    analyze_crawl(crawl, tmp_path / "out", date=DATE, progress=events.append)
    assert events[len(crawl) - 1].stage == "read" and events[len(crawl) - 1].pages == len(crawl)
    last = events[-1]
    assert (last.stage, last.sites_done, last.sites, last.pages_done) == ("analyze", 5, 5, len(crawl))


def test_a_failed_site_is_reported_and_the_others_written(tmp_path, crawl, monkeypatch):
    real = runner.analyze_site

    def failing(site, params, date):
        if site.site == "site2.example":
            return SiteFailure(site.site, site.pages, "RuntimeError: boom")
        return real(site, params, date)

    monkeypatch.setattr(runner, "analyze_site", failing)
    report = analyze_crawl(crawl, tmp_path / "out", date=DATE)
    assert [(f.site, f.error) for f in report.failures] == [("site2.example", "RuntimeError: boom")]
    assert "site2.example.json" not in files(tmp_path / "out") and len(files(tmp_path / "out")) == 8


def test_an_exception_in_a_site_becomes_its_failure(tmp_path, crawl, monkeypatch):
    from stemmer.scale import jobs

    def broken(*args, **kwargs):
        raise MemoryError("out of memory")

    monkeypatch.setattr(jobs, "collect_site", broken)
    report = analyze_crawl(crawl[:2], tmp_path / "out", date=DATE)
    assert {f.error for f in report.failures} == {"MemoryError: out of memory"}
    assert "Traceback" in report.failures[0].detail


def test_no_pages_no_output_directory(tmp_path):
    report = analyze_crawl([], tmp_path / "out")
    assert report.pages == 0 and not report.sites and not (tmp_path / "out").exists()


def test_jobs_zero_is_refused(tmp_path, crawl):
    with pytest.raises(ValueError, match="jobs"):
        analyze_crawl(crawl, tmp_path, jobs=0)
    with pytest.raises(ValueError, match="batch_pages"):
        list(extract_crawl(crawl, tmp_path, batch_pages=0))


def _loky_workers() -> list[int]:
    """The pids of this process's loky worker processes."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read()
            except (OSError, ValueError, IndexError):
                continue
            if ppid == os.getpid() and b"LokyProcess" in cmdline:
                pids.append(int(entry))
    return pids


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the worker processes in /proc")
def test_a_killed_worker_neither_loses_nor_duplicates_a_site(tmp_path, crawl, reference, caplog):
    # A task per page: when the first site is written, most tasks are usually still to run.
    # Not always (a slow first site can let the workers finish the rest), so up to three tries.
    for attempt in range(3):
        killed = []

        def kill_a_worker(event):
            if event.stage == "analyze" and not killed:
                workers = _loky_workers()
                if workers:
                    os.kill(workers[0], signal.SIGKILL)
                    killed.append(workers[0])

        caplog.clear()
        out = tmp_path / f"out{attempt}"
        report = analyze_crawl(crawl, out, date=DATE, jobs=2, chunk_pages=1, progress=kill_a_worker)
        assert files(out) == files(reference)
        assert sorted(s.site for s in report.sites) == sorted(set(s.site for s in report.sites))
        assert len(report.sites) == 5 and not report.failures
        if killed and "a worker failed" in caplog.text:
            break
    assert killed and "a worker failed" in caplog.text


@pytest.mark.parametrize("jobs", [1, 2])
def test_extract_crawl_yields_what_extract_yields_in_input_order(tmp_path, crawl, reference, jobs):
    expected = list(extract(crawl, load_patterns(reference)))
    assert list(extract_crawl(crawl, reference, jobs=jobs, batch_pages=4)) == expected
    assert list(extract_crawl(iter(crawl), load_patterns(reference), jobs=jobs, batch_pages=3)) == expected


def test_progress_says_learning_has_started_before_the_first_site_is_done(tmp_path):
    from .conftest import site

    events = []
    analyze_crawl(site("one.example"), tmp_path / "out", date=DATE, progress=events.append)
    stages = [(e.stage, e.sites_done) for e in events]
    assert stages[-2:] == [("analyze", 0), ("analyze", 1)] and stages[0] == ("read", 0)
