import logging
import os
import subprocess
import sys
from pathlib import Path

from stemmer.cli import main
from stemmer.pages import SKIPPED_PAGE
from stemmer.scale.jobs import retell, told

from .conftest import files

DATE = "2024-05-01"


def crawl_file(write_jsonl, crawl):
    return write_jsonl([{"id": p.id, "url": p.url, "html": p.html} for p in crawl])


def test_two_jobs_write_the_same_files_and_output(capsys, tmp_path, crawl, write_jsonl):
    source = crawl_file(write_jsonl, crawl)
    for jobs in ("1", "2"):
        assert main(["analyze", "-q", str(source), "-o", str(tmp_path / jobs), "--date", DATE, "-j", jobs]) == 0
        assert main(["extract", "-q", "-p", str(tmp_path / jobs), str(source), "-j", jobs,
                     "-o", str(tmp_path / f"{jobs}.jsonl")]) == 0
    # per site: a pattern file and a noise library
    assert files(tmp_path / "2") == files(tmp_path / "1") and len(files(tmp_path / "1")) == 10
    assert (tmp_path / "2.jsonl").read_bytes() == (tmp_path / "1.jsonl").read_bytes()


def test_analyze_summary_lists_every_site(capsys, tmp_path, crawl, write_jsonl):
    assert main(["analyze", str(crawl_file(write_jsonl, crawl)), "-o", str(tmp_path / "p"), "-j", "2"]) == 0
    err = capsys.readouterr().err
    assert [line.split(":")[2].strip() for line in err.splitlines() if " learned from " in line] == \
        [f"site{k}.example" for k in range(5)]
    assert f"{len(crawl)} pages, 5 pattern files in" in err


def test_jobs_zero_is_a_usage_error(capsys, tmp_path):
    import pytest

    with pytest.raises(SystemExit) as exit_:
        main(["analyze", "-j", "0", str(tmp_path)])
    assert exit_.value.code == 2
    assert "-1 (one per CPU), got 0" in capsys.readouterr().err


def test_scheduler_without_dask_is_one_error_line(capsys, tmp_path, crawl, write_jsonl, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if Dask were not installed
    code = main(["analyze", str(crawl_file(write_jsonl, crawl)), "-o", str(tmp_path / "p"),
                 "--scheduler", "tcp://127.0.0.1:8786"])
    assert code == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == \
        "stemmer: error: a --scheduler needs Dask: pip install 'stemmer[dask]'"


def test_a_workers_warnings_are_shown_and_counted(tmp_path):
    # a worker process's log goes nowhere of itself: its warnings travel back with its results
    site = tmp_path / "s.example"
    site.mkdir()
    for k in range(3):
        (site / f"p{k}.html").write_text(f"<html><body>{'<div>' * 300}deep {k}{'</div>' * 300}<p>after</p></body></html>")
    for verb in (["extract", str(site), "-o", str(tmp_path / "x.jsonl")], ["analyze", str(site), "-o", str(tmp_path / "p")]):
        done = subprocess.run([sys.executable, "-m", "stemmer", *verb, "-j", "2"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
        assert done.stderr.count("nested deeper than 256") == 3, done.stderr


def _lose(page_id: str) -> str:
    logging.getLogger("stemmer").warning("%s: skipped, on purpose", page_id, extra=SKIPPED_PAGE)
    return page_id


def test_a_page_a_worker_skipped_counts_as_lost_here(caplog):
    from joblib import Parallel, delayed

    got = Parallel(n_jobs=2)(delayed(told)(os.getpid(), _lose, f"p{k}") for k in range(4))
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        assert [retell(r) for r in got] == ["p0", "p1", "p2", "p3"]
    assert [(r.getMessage(), r.stemmer_lost) for r in caplog.records] == [(f"p{k}: skipped, on purpose", "page")
                                                                       for k in range(4)]
