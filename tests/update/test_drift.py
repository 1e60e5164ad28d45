import json

from stemmer.cli import main
from stemmer.extract import Extraction
from stemmer.outputs.drift import DriftStats

from .conftest import SITE


def extract_stats(capsys, patterns, crawl, stats_file) -> tuple[dict, str]:
    assert main(["extract", "-p", str(patterns), str(crawl), "--stats", str(stats_file)]) == 0
    return json.loads(stats_file.read_text()), capsys.readouterr().err


def test_stats_file_gives_each_site_its_unmatched_share(capsys, tmp_path, analyzed, crawls):
    stats, err = extract_stats(capsys, analyzed.parent, crawls[1], tmp_path / "stats.json")
    site = stats["sites"][SITE]
    assert stats["format"] == "stemmer-extract-stats"
    assert site["pages"] == stats["pages"] == site["matched"] + site["unmatched"]
    assert site["unmatched_share"] < 0.1 and site["patterns"] is True
    assert sum(site["layouts"].values()) == site["matched"]
    assert f"stemmer: extract: {SITE}: {site['unmatched']} of {site['pages']} pages unmatched" in err


def test_drift_signal_jumps_after_a_redesign_and_falls_after_update(capsys, tmp_path, analyzed, crawls):
    before, _ = extract_stats(capsys, analyzed.parent, crawls[1], tmp_path / "before.json")
    redesigned, err = extract_stats(capsys, analyzed.parent, crawls[2], tmp_path / "redesigned.json")
    assert redesigned["sites"][SITE]["unmatched_share"] == 1.0 > before["sites"][SITE]["unmatched_share"]
    assert "pages unmatched (100%)" in err
    assert main(["update", "-q", str(analyzed.parent), str(crawls[2]), "--date", "2024-02-01"]) == 0
    after, _ = extract_stats(capsys, analyzed.parent, crawls[2], tmp_path / "after.json")
    assert after["sites"][SITE]["unmatched_share"] <= before["sites"][SITE]["unmatched_share"] + 0.05


def test_stats_file_is_not_written_to_a_missing_directory(capsys, tmp_path, analyzed, crawls):
    target = tmp_path / "missing" / "stats.json"
    assert main(["extract", "-q", "-p", str(analyzed.parent), str(crawls[1]), "--stats", str(target)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"stemmer: error: {target}: No such file or directory"]


def test_pages_of_sites_without_patterns_are_marked():
    stats = DriftStats(["a.org"])
    stats.add(Extraction("1", None, "a.org", True, "L0", 0.9, "t", (), "pattern"))
    stats.add(Extraction("2", None, "b.org", False, None, 0.0, None, (), "none"))
    doc = stats.to_json()
    assert doc["sites"]["b.org"]["patterns"] is False and doc["sites"]["a.org"]["patterns"] is True
    assert doc["unmatched_share"] == 0.5
    assert stats.lines()[0] == "b.org: 1 of 1 pages unmatched (100%), no patterns for this site"


def test_many_sites_are_cut_to_the_worst():
    stats = DriftStats()
    for i in range(30):
        stats.add(Extraction(str(i), None, f"s{i:02}.org", i % 2 == 0, None, 0.0, None, (), "none"))
    lines = stats.lines(limit=5)
    assert len(lines) == 6 and lines[-1] == "... and 25 more sites (see --stats)"
