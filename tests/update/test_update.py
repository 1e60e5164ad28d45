import json
import os

import pytest

import stemmer
from stemmer.cli import main
from stemmer.layout.store import load_patterns
from stemmer.update.updater import update

from .conftest import SITE, redesign


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def layouts(path) -> dict:
    return {lay["id"]: lay for lay in json.loads(path.read_text())["layouts"]}


def test_analyze_dates_its_layouts(analyzed):
    for lay in layouts(analyzed).values():
        assert (lay["first_seen"], lay["last_seen"], lay["seen"]) == ("2024-01-01", "2024-01-01", lay["pages"])
    assert json.loads(analyzed.read_text())["history"][0]["command"] == "analyze"


def test_matched_pages_move_last_seen_and_count(capsys, analyzed, crawls):
    before = layouts(analyzed)
    code, _, err = run(capsys, "update", analyzed.parent, crawls[1], "--date", "2024-02-01")
    assert code == 0
    after = layouts(analyzed)
    assert set(after) == set(before)  # the same template: no new layout
    for lid, lay in after.items():
        assert lay["first_seen"] == "2024-01-01"
        if lay["seen"] > before[lid]["seen"]:
            assert lay["last_seen"] == "2024-02-01"
    assert sum(lay["seen"] for lay in after.values()) > sum(lay["seen"] for lay in before.values())
    assert f"stemmer: update: {SITE}: " in err and "matched" in err


def test_same_input_twice_changes_nothing_the_second_time(capsys, analyzed, crawls):
    assert run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-02-01")[0] == 0
    once = analyzed.read_bytes()
    code, _, err = run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-03-01")
    assert code == 0
    assert analyzed.read_bytes() == once
    assert "no change" in err and "nothing changed" in err


def test_dry_run_writes_nothing(capsys, analyzed, crawls):
    before = analyzed.read_bytes()
    listing = sorted(os.listdir(analyzed.parent))
    code, _, err = run(capsys, "update", "--dry-run", analyzed.parent, crawls[2], "--date", "2024-02-01")
    assert code == 0
    assert analyzed.read_bytes() == before
    assert sorted(os.listdir(analyzed.parent)) == listing
    assert "new layouts L3" in err and "dry run: nothing written" in err


def test_redesigned_pages_become_new_layouts_with_fresh_ids(capsys, analyzed, crawls):
    old_ids = set(layouts(analyzed))
    patterns_before = load_patterns(analyzed)
    assert run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-02-01")[0] == 0
    after = layouts(analyzed)
    new_ids = set(after) - old_ids
    assert new_ids and all(int(i[1:]) > max(int(o[1:]) for o in old_ids) for i in new_ids)
    assert all(after[i]["first_seen"] == "2024-02-01" for i in new_ids)
    assert {i: after[i]["blocks"] for i in old_ids} == {i: lay["blocks"] for i, lay in layouts_of(patterns_before).items()}
    # redesigned pages now match, and the old pages still match as before
    patterns = load_patterns(analyzed)
    redesigned = list(stemmer.extract(stemmer.read_pages(crawls[2]), patterns))
    assert sum(ex.matched for ex in redesigned) >= len(redesigned) - 1
    assert {ex.pattern for ex in redesigned if ex.matched} <= new_ids
    old_pages = list(stemmer.read_pages(crawls[0]))
    assert [(e.pattern, e.title, e.text) for e in stemmer.extract(old_pages, patterns)] == \
           [(e.pattern, e.title, e.text) for e in stemmer.extract(old_pages, patterns_before)]


def layouts_of(patterns) -> dict:
    from stemmer.layout.store import to_json

    return {lay["id"]: lay for lay in to_json(patterns.get(SITE))["layouts"]}


def test_update_relearns_the_noise_library_and_retrains_the_site_model(capsys, analyzed, crawls):
    noise, model = analyzed.with_name(f"{SITE}.noise.json"), analyzed.with_name(f"{SITE}.model.json")
    model_before = json.loads(model.read_text())["info"]
    assert run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-02-01")[0] == 0
    new_pages = len(list(crawls[2].rglob("*.html")))
    assert json.loads(noise.read_text())["pages"] == new_pages  # the new crawl's common noise
    model_after = json.loads(model.read_text())["info"]
    assert model_after != model_before and model_after["pages"] <= new_pages
    assert only_the_site_files(analyzed)


def test_a_site_new_to_update_gets_its_noise_library_and_model(capsys, tmp_path, crawls):
    (tmp_path / "empty").mkdir()
    assert run(capsys, "update", tmp_path / "empty", crawls[0], "--date", "2024-01-01")[0] == 0
    assert sorted(os.listdir(tmp_path / "empty")) == [f"{SITE}.json", f"{SITE}.model.json", f"{SITE}.model.npz",
                                                       f"{SITE}.noise.json"]


def test_layout_not_seen_for_long_is_flagged_stale_not_deleted(capsys, analyzed, crawls):
    code, _, err = run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-06-01", "--stale-after", "90")
    assert code == 0
    after = layouts(analyzed)
    assert {lid for lid, lay in after.items() if lay.get("stale")} == {"L0", "L1", "L2"}
    assert "stale L0, L1, L2" in err
    # seen again: no longer stale
    assert run(capsys, "update", analyzed.parent, crawls[1], "--date", "2024-06-02")[0] == 0
    again = layouts(analyzed)
    assert not any(again[lid].get("stale") for lid in ("L0", "L1"))


def test_recent_layouts_are_not_stale(capsys, analyzed, crawls):
    assert run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-02-01")[0] == 0
    assert not any(lay.get("stale") for lay in layouts(analyzed).values())


def test_pinned_role_survives_update_and_extract_follows_it(capsys, analyzed, crawls):
    doc = json.loads(analyzed.read_text())
    article = doc["layouts"][0]
    slot = next(i for i, b in enumerate(article["blocks"]) if b["role"] == "static" and b["sample"])
    article["blocks"][slot].update(role="sub", pinned=True)
    analyzed.write_text(json.dumps(doc))
    assert run(capsys, "update", analyzed.parent, crawls[1], crawls[2], "--date", "2024-02-01")[0] == 0
    block = layouts(analyzed)["L0"]["blocks"][slot]
    assert (block["role"], block.get("pinned")) == ("sub", True)
    out = run(capsys, "extract", "-q", "-p", analyzed.parent, "-f", "webstemmer", crawls[0])[1]
    assert f"SUB-{slot}: " in out


def test_pinned_role_survives_a_new_analyze(capsys, analyzed, crawls):
    doc = json.loads(analyzed.read_text())
    article = doc["layouts"][0]
    slot = next(i for i, b in enumerate(article["blocks"]) if b["role"] == "static" and b["sample"])
    key = article["blocks"][slot]["key"]
    article["blocks"][slot].update(role="sub", pinned=True)
    analyzed.write_text(json.dumps(doc))
    assert run(capsys, "analyze", "-q", crawls[0], crawls[1], "-o", analyzed.parent, "--date", "2024-03-01")[0] == 0
    [kept] = [b for lay in layouts(analyzed).values() for b in lay["blocks"] if b["key"] == key and b.get("pinned")]
    assert kept["role"] == "sub"
    assert layouts(analyzed)["L0"]["first_seen"] == "2024-01-01"


def test_a_new_site_gets_its_own_file(capsys, tmp_path, analyzed, crawls, html):
    other = tmp_path / "other" / "blog.example.org"
    other.mkdir(parents=True)
    for i in range(3):
        (other / f"p{i}.html").write_text(html(f'<div class="nav">Home About</div><h1>Post {i} about things</h1>'
                                              f'<div class="body"><p>{"word " * (20 + i)} number {i}</p></div>'))
    code, _, err = run(capsys, "update", analyzed.parent, tmp_path / "other", "--date", "2024-02-01")
    assert code == 0
    assert (analyzed.parent / "blog.example.org.json").exists()
    assert "blog.example.org: new site" in err


def test_version_1_file_without_dates_is_updated(capsys, analyzed, crawls):
    from stemmer.layout.store import VERSION

    doc = json.loads(analyzed.read_text())
    doc.pop("history")
    doc["version"] = 1
    for lay in doc["layouts"]:
        for field in ("first_seen", "last_seen", "seen"):
            lay.pop(field)
    analyzed.write_text(json.dumps(doc))
    assert run(capsys, "update", analyzed.parent, crawls[1], "--date", "2024-02-01")[0] == 0
    after = json.loads(analyzed.read_text())
    assert after["version"] == VERSION
    assert any(lay.get("last_seen") == "2024-02-01" for lay in after["layouts"])
    assert not any(lay.get("stale") for lay in after["layouts"])


def test_failed_write_leaves_the_files_as_they_were(capsys, analyzed, crawls, monkeypatch):
    from stemmer import files

    before = analyzed.read_bytes()

    def broken(src, dst):
        raise OSError(28, "No space left on device", str(dst))
    monkeypatch.setattr(files.os, "replace", broken)
    code, _, err = run(capsys, "update", analyzed.parent, crawls[2], "--date", "2024-02-01")
    assert code == 1 and err.strip().splitlines()[-1].startswith("stemmer: error: ")
    assert analyzed.read_bytes() == before
    assert only_the_site_files(analyzed)


def test_bad_date_is_a_usage_error(capsys, analyzed, crawls):
    with pytest.raises(SystemExit) as exc:
        main(["update", str(analyzed.parent), str(crawls[1]), "--date", "yesterday"])
    assert exc.value.code == 2
    assert "expected a date as YYYY-MM-DD" in capsys.readouterr().err


def test_webstemmer_pat_patterns_cannot_be_updated(capsys, tmp_path, crawls):
    pat = tmp_path / "site.pat"
    pat.write_text(f"(1.0, '200501/{SITE}/a.html', 0, [(0.9, 90.0, 'body/h1')])\n")
    code, _, err = run(capsys, "update", pat, crawls[1])
    assert code == 1
    assert err.strip() == (f"stemmer: error: {SITE}: Webstemmer .pat patterns cannot be updated; "
                           "convert them to JSON first (docs/pattern-format.md)")


def test_update_api_returns_new_patterns_and_leaves_its_input_alone(crawls):
    old = stemmer.analyze(stemmer.read_pages(crawls[0]), date="2024-01-01")
    result = update(stemmer.read_pages(crawls[2]), old, date="2024-02-01")
    [change] = result.sites
    assert change.site == SITE and change.new_layouts and change.changed
    assert len(result.patterns.get(SITE).layouts) == len(old.get(SITE).layouts) + len(change.new_layouts)
    assert all(lay.last_seen == "2024-01-01" for lay in old.get(SITE).layouts)


def test_redesign_helper_changes_every_class(demo_files):
    page = demo_files[0].read_text()
    assert 'class="' in page and all(c.startswith("nx-") or c == "shell"
                                     for attr in __import__("re").findall(r'class="([^"]*)"', redesign(page))
                                     for c in attr.split())


def test_empty_directory_learns_every_site(capsys, tmp_path, crawls):
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "update", tmp_path / "empty", crawls[0], "--date", "2024-01-01")
    assert code == 0 and f"{SITE}: new site, 3 layouts" in err
    assert [lay["first_seen"] for lay in layouts(tmp_path / "empty" / f"{SITE}.json").values()] == ["2024-01-01"] * 3


def test_single_file_leaves_other_sites_out(capsys, tmp_path, analyzed, crawls, html):
    other = tmp_path / "other" / "blog.example.org"
    other.mkdir(parents=True)
    (other / "a.html").write_text(html("<h1>Hello</h1><p>Some text here.</p>"))
    code, _, err = run(capsys, "update", analyzed, crawls[1], tmp_path / "other", "--date", "2024-02-01")
    assert code == 0
    assert "blog.example.org: 1 page left out, no patterns for this site in" in err
    assert only_the_site_files(analyzed)


def test_no_readable_page_is_an_error(capsys, tmp_path, analyzed):
    (tmp_path / "nothing").mkdir()
    code, _, err = run(capsys, "update", analyzed.parent, tmp_path / "nothing")
    assert code == 1 and err.strip() == f"stemmer: error: no readable HTML pages in {tmp_path / 'nothing'}"


def only_the_site_files(pattern_file) -> bool:
    """The pattern file's directory holds it and its noise library and model, no temporary or other file."""
    names = os.listdir(pattern_file.parent)
    return pattern_file.name in names and all(n.startswith(pattern_file.stem + ".") for n in names)
