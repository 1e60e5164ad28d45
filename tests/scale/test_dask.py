"""The same jobs on a Dask cluster (a LocalCluster): the same files, the same extractions."""
import os
import signal

import pytest

pytest.importorskip("distributed", reason="Dask is optional: pip install 'stemmer[dask]'")

from distributed import Client, LocalCluster  # noqa: E402

from stemmer import analyze, extract, load_patterns, save_patterns  # noqa: E402
from stemmer.cli import main  # noqa: E402
from stemmer.errors import ClusterError  # noqa: E402
from stemmer.scale import analyze_crawl, extract_crawl  # noqa: E402
from stemmer.scale import dask_cluster  # noqa: E402

from .conftest import files  # noqa: E402

DATE = "2024-05-01"


@pytest.fixture(scope="module")
def cluster():
    # threads in this process, talking over Dask's in-process transport: no network
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address="127.0.0.1:0") as cluster:
        yield cluster


@pytest.fixture
def reference(tmp_path, crawl):
    out = tmp_path / "reference"
    save_patterns(analyze(crawl, date=DATE), out)
    return out


def test_a_dask_run_writes_byte_identical_files(tmp_path, crawl, reference, cluster):
    report = analyze_crawl(crawl, tmp_path / "out", date=DATE, scheduler=cluster.scheduler_address)
    assert files(tmp_path / "out") == files(reference)
    assert not report.failures


def test_a_big_site_parsed_in_chunks_on_dask_learns_the_same(tmp_path, crawl, reference, cluster):
    analyze_crawl(crawl, tmp_path / "out", date=DATE, scheduler=cluster.scheduler_address, chunk_pages=3)
    assert files(tmp_path / "out") == files(reference)


def test_dask_extraction_is_identical_and_in_input_order(crawl, reference, cluster):
    expected = list(extract(crawl, load_patterns(reference)))
    assert list(extract_crawl(crawl, reference, scheduler=cluster.scheduler_address, batch_pages=4)) == expected


def test_cli_output_on_dask_is_byte_identical(tmp_path, crawl, cluster, write_jsonl, capsys):
    crawl_file = write_jsonl([{"id": p.id, "url": p.url, "html": p.html} for p in crawl])
    for name, extra in (("local", []), ("dask", ["--scheduler", cluster.scheduler_address])):
        assert main(["analyze", "-q", str(crawl_file), "-o", str(tmp_path / name), "--date", DATE, *extra]) == 0
        assert main(["extract", "-q", "-p", str(tmp_path / name), str(crawl_file),
                     "-o", str(tmp_path / f"{name}.jsonl"), *extra]) == 0
    assert files(tmp_path / "dask") == files(tmp_path / "local")
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_an_unreachable_scheduler_is_one_error(monkeypatch, crawl, tmp_path):
    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 0.5)
    with pytest.raises(ClusterError, match="127.0.0.1:9"):
        analyze_crawl(crawl, tmp_path, scheduler="tcp://127.0.0.1:9")


def test_a_killed_dask_worker_neither_loses_nor_duplicates_a_site(tmp_path, crawl, reference):
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                      worker_dashboard_address="127.0.0.1:0", host="127.0.0.1") as cluster, Client(cluster) as client:
        pids = list(client.run(os.getpid).values())
        killed = []

        def kill_a_worker(event):
            if event.stage == "analyze" and not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        report = analyze_crawl(crawl, tmp_path / "out", date=DATE, scheduler=cluster.scheduler_address,
                               chunk_pages=1, progress=kill_a_worker)
    assert killed and not report.failures
    assert files(tmp_path / "out") == files(reference)
    assert len(report.sites) == len({s.site for s in report.sites}) == 5


@pytest.mark.parametrize("left", ["nothing", "the headline alone"])
def test_a_dask_workers_warning_about_an_empty_page_reaches_this_process(site_pages, site_parts, caplog, left):
    from dataclasses import replace

    from stemmer import Page
    from stemmer.layout.model import PatternSet

    # its main slots made sub (and its title slot main, to leave the headline alone as main text)
    roles = {"main": "sub", **({"title": "main"} if left != "nothing" else {})}
    learned = analyze(site_pages).get("example.com")
    no_main = replace(learned, layouts=tuple(
        replace(lay, sections=tuple(replace(s, role=roles.get(s.role, s.role)) for s in lay.sections))
        for lay in learned.layouts))
    patterns = PatternSet({"example.com": no_main})
    pages = [Page(f"p{k}", None, "example.com", site_parts.article(8, paragraphs=6)) for k in range(2)]
    # two workers: joblib runs the tasks of a cluster of one core here, in this process
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                      worker_dashboard_address="127.0.0.1:0", host="127.0.0.1") as cluster, \
            caplog.at_level("WARNING", logger="stemmer"):
        results = list(extract_crawl(pages, patterns, scheduler=cluster.scheduler_address, batch_pages=1,
                                     fallback=None))
    assert [r.text for r in results] == ["", ""]  # a layout that reads the headline alone is foreign: unmatched
    warned = [r for r in caplog.records if "no main text found" in r.getMessage()]
    assert [r.getMessage().split(":")[0] for r in warned] == ["p0", "p1"]
    assert all(r.process != os.getpid() for r in warned)
