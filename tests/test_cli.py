import io
import json
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import stemmer
from stemmer.cli import build_parser, main

DEMO = Path(stemmer.__file__).parent / "demo" / "site"
SITE = "demo.stemmer.test"
DEMO_PAGES = len(list(DEMO.rglob("*.html")))
ARTICLE = DEMO / SITE / "news" / "2024" / "01" / "local-bakery-wins-regional-award-for-sourdough-loaf.html"


@pytest.fixture(scope="module")
def patterns(tmp_path_factory):
    """The demo site's pattern directory, analyzed once for this module."""
    out = tmp_path_factory.mktemp("patterns")
    assert main(["analyze", "-q", str(DEMO), "-o", str(out)]) == 0
    return out


@pytest.fixture
def damaged_site(tmp_path):
    """A copy of the demo site with an empty, a binary and a broken page added."""
    root = tmp_path / "site"
    shutil.copytree(DEMO, root)
    news = root / SITE / "news"
    (news / "empty.html").write_bytes(b"")
    (news / "binary.html").write_bytes(bytes(range(256)) * 20)
    (news / "broken.html").write_bytes(b"<html><body><div><p>cut off <b>in the mid")
    return root


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_fails(capsys, *argv, mentions: tuple[str, ...] = ()) -> None:
    """The command exits non-zero with one line on stderr, ``stemmer: error: ...``, and no traceback."""
    code, _, err = run(capsys, *argv)
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("stemmer: error: ")
    assert "Traceback" not in err
    for part in mentions:
        assert part in lines[0]


# --- analyze -------------------------------------------------------------------------------

def test_analyze_writes_the_site_pattern_file(capsys, tmp_path):
    code, out, err = run(capsys, "analyze", DEMO, "-o", tmp_path / "p")
    assert code == 0
    assert out == ""
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == [
        f"{SITE}.json", f"{SITE}.model.json", f"{SITE}.model.npz", f"{SITE}.noise.json"]
    assert json.loads((tmp_path / "p" / f"{SITE}.json").read_text())["site"] == SITE
    assert f"{DEMO_PAGES} pages, 1 pattern file in" in err
    assert f"{SITE}: 3 layouts learned from 38 of its {DEMO_PAGES} pages" in err


def test_analyze_quiet_prints_nothing(capsys, tmp_path):
    assert run(capsys, "analyze", "-q", DEMO, "-o", tmp_path / "p") == (0, "", "")


def test_analyze_thresholds_reach_the_pattern_file(capsys, tmp_path):
    code, _, _ = run(capsys, "analyze", "-q", DEMO, "-o", tmp_path, "-t", "0.8", "-M", "30", "--min-pages", "3")
    assert code == 0
    params = json.loads((tmp_path / f"{SITE}.json").read_text())["params"]
    assert (params["cluster_threshold"], params["main_threshold"], params["min_pages"]) == (0.8, 30, 3)


# --- extract -------------------------------------------------------------------------------

def test_extract_prints_one_json_line_per_page(capsys, patterns):
    code, out, err = run(capsys, "extract", "-p", patterns, DEMO)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == DEMO_PAGES
    assert sum(r["matched"] for r in records) >= DEMO_PAGES - 3
    assert f"{DEMO_PAGES} pages" in err


def test_extract_output_file(capsys, patterns, tmp_path):
    target = tmp_path / "out.jsonl"
    code, out, _ = run(capsys, "extract", "-q", "-p", patterns, DEMO, "-o", target)
    assert code == 0
    assert out == ""
    assert len(target.read_text().splitlines()) == DEMO_PAGES
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_extract_with_a_single_pattern_file(capsys, patterns):
    code, out, _ = run(capsys, "extract", "-q", "-p", patterns / f"{SITE}.json", ARTICLE)
    assert code == 0
    record = json.loads(out)
    assert record["matched"] and record["title"] == "Local Bakery Wins Regional Award for Sourdough Loaf"


@pytest.mark.parametrize("fmt, expected", [
    ("webstemmer", "TITLE: Local Bakery Wins Regional Award for Sourdough Loaf\nMAIN-"),
    ("text", "\n\nLocal Bakery Wins Regional Award for Sourdough Loaf\n\nThe story of"),
    ("markdown", "# Local Bakery Wins Regional Award for Sourdough Loaf\n\nThe story of"),
])
def test_extract_formats(capsys, patterns, fmt, expected):
    code, out, _ = run(capsys, "extract", "-q", "-p", patterns, "-f", fmt, ARTICLE)
    assert code == 0
    assert expected in out
    assert "Related stories" not in out and "Most read" not in out


def test_extract_webstemmer_format_marks_matched_and_unmatched(capsys, patterns):
    code, out, _ = run(capsys, "extract", "-q", "-p", patterns, "-f", "webstemmer", DEMO)
    assert code == 0
    assert out.count("!MATCHED: ") + out.count("!UNMATCHED: ") == DEMO_PAGES
    assert f"!UNMATCHED: {SITE}/about.html" in out


def test_extract_strict_and_threshold_options(capsys, patterns):
    _, loose, _ = run(capsys, "extract", "-q", "-p", patterns, "--threshold", "0", DEMO)
    _, strict, _ = run(capsys, "extract", "-q", "-p", patterns, "--threshold", "1", DEMO)
    unmatched = {r["id"] for r in map(json.loads, loose.splitlines()) if not r["matched"]}
    assert unmatched == {"demo.stemmer.test/about.html"}  # like no layout, though similar to some
    matched = [r for r in map(json.loads, strict.splitlines()) if r["matched"]]
    assert len(matched) < DEMO_PAGES - 1 and all(r["similarity"] == 1.0 for r in matched)
    code, _, _ = run(capsys, "extract", "-q", "-p", patterns, "--strict", DEMO)
    assert code == 0


def test_extract_pages_of_an_unknown_site_are_unmatched(capsys, patterns, tmp_path):
    page = tmp_path / "other.html"
    page.write_text('<html><head><link rel="canonical" href="http://other.org/a.html"></head>'
                    "<body><p>Hello there</p></body></html>")
    code, out, _ = run(capsys, "extract", "-q", "-p", patterns, page)
    assert code == 0
    assert json.loads(out)["site"] == "other.org" and not json.loads(out)["matched"]


# --- html2txt ------------------------------------------------------------------------------

def test_html2txt_prints_the_visible_text(capsys):
    code, out, _ = run(capsys, "html2txt", ARTICLE)
    assert code == 0
    assert out.startswith("==> https://demo.stemmer.test/news/2024/01/local-bakery")
    assert "Local Bakery Wins Regional Award for Sourdough Loaf\n" in out
    assert "schema.org" not in out and "ledger.js" not in out


# --- update and report: the patterns as -p, as extract takes them -------------------------

@pytest.mark.parametrize("form", ["-p", "positional"])
def test_update_takes_the_patterns_as_p_or_first(capsys, tmp_path, patterns, form):
    copy = tmp_path / "p"
    shutil.copytree(patterns, copy)
    where = ["-p", copy] if form == "-p" else [copy]
    code, _, err = run(capsys, "update", *where, ARTICLE, "--date", "2100-01-01")
    assert code == 0, err
    assert "1 page, 1 pattern file written" in err
    assert "2100-01-01" in (copy / f"{SITE}.json").read_text()


@pytest.mark.parametrize("form", ["-p", "positional"])
def test_report_takes_the_patterns_as_p_or_first(capsys, tmp_path, patterns, form):
    where = ["-p", patterns] if form == "-p" else [patterns]
    code, _, err = run(capsys, "report", *where, ARTICLE, "-o", tmp_path / "r.html")
    assert code == 0, err
    assert "1 site, 1 page" in err
    assert ARTICLE.name in (tmp_path / "r.html").read_text()


@pytest.mark.parametrize("argv, message", [
    (["report"], "the patterns are required: -p DIR"),
    (["update", "p"], "the following arguments are required: INPUT"),
    (["update", "-p", "p"], "the following arguments are required: INPUT"),
])
def test_update_and_report_without_patterns_or_pages_are_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and message in capsys.readouterr().err


# --- errors: one line, non-zero exit, no traceback -------------------------------------------

def test_missing_input(capsys, tmp_path, patterns):
    assert_fails(capsys, "analyze", tmp_path / "nope", "-o", tmp_path / "p", mentions=("nope", "no such file"))
    assert_fails(capsys, "extract", "-p", patterns, tmp_path / "nope", mentions=("no such file",))
    assert not (tmp_path / "p").exists()


def test_missing_patterns_directory(capsys, tmp_path):
    assert_fails(capsys, "extract", "-p", tmp_path / "nope", DEMO, mentions=("nope",))


def test_empty_patterns_directory(capsys, tmp_path):
    assert_fails(capsys, "extract", "-p", tmp_path, DEMO, mentions=("no pattern files",))


def test_corrupt_pattern_file(capsys, patterns, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text((patterns / f"{SITE}.json").read_text()[:300])
    assert_fails(capsys, "extract", "-p", bad, DEMO, mentions=("bad.json", "not valid JSON"))


def test_newer_pattern_file_version(capsys, patterns, tmp_path):
    doc = json.loads((patterns / f"{SITE}.json").read_text())
    doc["version"] = 99
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(doc))
    assert_fails(capsys, "extract", "-p", newer, DEMO, mentions=("newer.json", "version 99"))


def test_pattern_file_missing_a_field(capsys, patterns, tmp_path):
    doc = json.loads((patterns / f"{SITE}.json").read_text())
    del doc["layouts"][0]["blocks"][0]["role"]
    path = tmp_path / "field.json"
    path.write_text(json.dumps(doc))
    assert_fails(capsys, "extract", "-p", path, DEMO, mentions=("field.json", "layouts[0].blocks[0].role"))


def test_failed_extract_leaves_no_output_file(capsys, patterns, tmp_path):
    target = tmp_path / "out.jsonl"
    assert_fails(capsys, "extract", "-p", patterns, tmp_path / "nope", "-o", target)
    assert list(tmp_path.iterdir()) == []


def test_output_into_a_missing_directory_names_the_output(capsys, patterns, tmp_path):
    target = tmp_path / "nodir" / "out.jsonl"
    assert_fails(capsys, "extract", "-p", patterns, ARTICLE, "-o", target, mentions=(str(target),))


@pytest.mark.parametrize("verb", ["analyze", "extract", "html2txt", "update"])
def test_input_without_html_pages(capsys, tmp_path, verb):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.txt").write_text("not a page")
    args = {"analyze": ["-o", tmp_path / "p"], "extract": ["-o", tmp_path / "out.jsonl"]}.get(verb, [])
    before = [tmp_path / "p"] if verb == "update" else []  # update: an empty pattern directory first
    for d in before:
        d.mkdir()
    assert_fails(capsys, verb, *before, tmp_path / "in", *args,
                 mentions=(f"no readable HTML pages in {tmp_path / 'in'}",))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"] + (["p"] if verb == "update" else [])


@pytest.mark.parametrize("verb", ["extract", "html2txt"])
def test_empty_stdin_is_an_error(capsys, monkeypatch, verb):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert_fails(capsys, verb, "-", mentions=("no readable HTML pages in the file names on stdin",))


def test_truncated_zip(capsys, tmp_path, write_zip, html):
    path = write_zip({f"2024/example.com/{i}.html": html(f"<p>page {i}</p>") for i in range(20)})
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    assert_fails(capsys, "analyze", path, "-o", tmp_path / "p", mentions=("crawl.zip",))


def test_truncated_warc_keeps_the_records_before_the_damage(capsys, tmp_path, write_warc, caplog):
    pages = sorted(DEMO.rglob("*.html"))[:12]
    path = write_warc([(f"http://{SITE}/{p.name}", p.read_bytes()) for p in pages])
    path.write_bytes(path.read_bytes()[: int(path.stat().st_size * 0.8)])
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        code, out, err = run(capsys, "html2txt", path)
    assert code == 0
    assert "Traceback" not in err
    assert 5 <= out.count("==> http://") < 12
    assert "truncated or damaged" in caplog.text


def test_unknown_input_format(capsys, tmp_path):
    data = tmp_path / "data.bin"
    data.write_bytes(b"\x00\x01binary")
    assert_fails(capsys, "analyze", data, "-o", tmp_path / "p", mentions=("unknown input format",))


def test_bad_format_value_is_a_usage_error(capsys, patterns):
    with pytest.raises(SystemExit) as exc:
        main(["extract", "-p", str(patterns), "-f", "xml", str(DEMO)])
    assert exc.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2


def test_debug_shows_the_exception(tmp_path):
    with pytest.raises(stemmer.errors.InputError):
        main(["--debug", "analyze", str(tmp_path / "nope"), "-o", str(tmp_path / "p")])


# --- bad pages among good ones -----------------------------------------------------------

def test_bad_pages_are_skipped_and_the_good_ones_processed(capsys, damaged_site, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        code, _, err = run(capsys, "analyze", damaged_site, "-o", tmp_path / "p")
        assert code == 0
        assert "Traceback" not in err
        assert (tmp_path / "p" / f"{SITE}.json").exists()
        code, _, err = run(capsys, "extract", "-p", tmp_path / "p", damaged_site, "-o", tmp_path / "out.jsonl")
    assert code == 0
    assert "Traceback" not in err
    assert "empty.html: skipped" in caplog.text and "binary.html: skipped" in caplog.text
    records = {r["id"]: r for r in map(json.loads, (tmp_path / "out.jsonl").read_text().splitlines())}
    assert len(records) == DEMO_PAGES + 1
    assert f"{SITE}/news/broken.html" in records
    assert records[f"{SITE}/news/2024/01/local-bakery-wins-regional-award-for-sourdough-loaf.html"]["matched"]


def test_bad_pages_do_not_change_what_is_learned(capsys, damaged_site, patterns, tmp_path):
    assert run(capsys, "analyze", "-q", damaged_site, "-o", tmp_path)[0] == 0
    learned = json.loads((tmp_path / f"{SITE}.json").read_text())["layouts"]
    clean = json.loads((patterns / f"{SITE}.json").read_text())["layouts"]
    assert [lay["pages"] for lay in learned] == [lay["pages"] for lay in clean]


# --- the real program ----------------------------------------------------------------------

def test_python_m_stemmer_help():
    result = subprocess.run([sys.executable, "-m", "stemmer", "--help"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0
    for command in ("analyze", "extract", "html2txt"):
        assert command in result.stdout


def test_program_warns_on_stderr_and_exits_zero_for_a_bad_page(damaged_site, tmp_path):
    result = subprocess.run([sys.executable, "-m", "stemmer", "html2txt", str(damaged_site / SITE / "news")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "stemmer: WARNING: " in result.stderr and "binary.html: skipped" in result.stderr
    assert "Traceback" not in result.stderr
    assert "cut off in the mid" in result.stdout
    assert "The Larkspur Ledger" in result.stdout


def test_an_unreadable_input_among_good_ones_keeps_their_output(capsys, patterns, tmp_path):
    broken = tmp_path / "cut.zip"
    broken.write_bytes(b"PK\x03\x04 cut short")
    target = tmp_path / "out.jsonl"
    assert main(["extract", "-p", str(patterns), str(ARTICLE), str(broken), "-o", str(target)]) == 1
    assert len(target.read_text(encoding="utf-8").splitlines()) == 1
    err = capsys.readouterr().err
    assert "cut.zip" in err and "Traceback" not in err


def test_the_progress_line_shows_a_new_stage_at_once(capsys):
    from stemmer.cli import _SiteProgress
    from stemmer.scale import Progress

    progress = _SiteProgress("analyze", quiet=False)
    progress.live = True  # as on a terminal
    progress(Progress("read", 1, 41))
    progress(Progress("analyze", 1, 41))  # within the 0.2 s a redraw waits otherwise
    err = capsys.readouterr().err
    assert "reading: 41 pages, 1 site" in err and "learning: 0/1 site done, 0/41 pages" in err


@pytest.mark.parametrize("argv, message", [
    (["extract", "--threshold", "7"], "argument --threshold: expected a number from 0 to 1, got 7"),
    (["analyze", "-t", "nan"], "argument -t/--cluster-threshold: expected a number from 0 to 1, got nan"),
    (["analyze", "--min-pages", "0"], "argument --min-pages: expected a whole number of at least 1, got 0"),
    (["update", "p", "--stale-after", "-1"], "argument --stale-after: expected a whole number of at least 0, got -1"),
    (["report", "p", "-n", "x"], "argument -n/--pages-per-layout: expected a whole number of at least 0, got x"),
    (["crawl", "http://a.org/", "-o", "x.warc.gz", "--timeout", "0"], "expected a number above 0, got 0"),
])
def test_out_of_range_values_are_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main([*argv, *(["in.html"] if argv[0] in ("extract", "analyze", "update") else [])])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_a_flag_letter_means_one_thing_in_every_verb():
    parser = build_parser()
    verbs = parser._subparsers._group_actions[0].choices  # the subcommands' parsers
    meaning: dict[str, set[str]] = {}
    for verb in verbs.values():
        for action in verb._actions:
            for flag in action.option_strings:
                if len(flag) == 2:
                    meaning.setdefault(flag, set()).add(action.dest)
    assert {flag: dests for flag, dests in meaning.items() if len(dests) > 1} == {}
