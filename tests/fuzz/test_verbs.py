"""Hostile input through every verb, in-process by `stemmer.cli.main`: no exception escapes,
every input page is in the output or named in a warning, and files appear whole or not at all.

Bounded for CI (a few examples each, the big mutations scaled down); ``benchmarks/fuzz.py``
runs the same generators at volume.
"""
from __future__ import annotations

import json
import logging
import os
import random
import shutil
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from stemmer.cli import build_parser, main  # noqa: E402

from .hostile import (CONTAINERS, article, damage, hostile_page, mutate_file, unaccounted,  # noqa: E402
                      write_container)

# A few examples in CI; STEMMER_FUZZ_EXAMPLES=200 for a longer hunt.
FUZZ = settings(max_examples=int(os.environ.get("STEMMER_FUZZ_EXAMPLES", 6)), deadline=None,
                suppress_health_check=list(HealthCheck))
SITES = ("alpha.example", "beta.example")
# Every verb that reads pages or pattern files; `crawl` is fuzzed against a local server in
# test_crawl.py.  A new verb (such as `train`) must join here: test_every_verb_is_fuzzed says so.
FUZZED_VERBS = {"analyze", "extract", "update", "report", "html2txt", "train", "label"}


def test_every_verb_is_fuzzed():
    [sub] = [a for a in build_parser()._actions if a.dest == "command"]
    assert set(sub.choices) - {"crawl"} == FUZZED_VERBS


def run(capsys, caplog, *argv) -> tuple[int, str]:
    """Run the command; its exit status and everything it said (stderr and log records)."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="stemmer"):
        code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert isinstance(code, int)
    text = err + "\n" + caplog.text
    assert "Traceback" not in text
    return code, text


def snapshot(directory: Path) -> dict[Path, bytes]:
    return {f: f.read_bytes() for f in directory.rglob("*") if f.is_file()}


def assert_whole_files(*directories: Path, before: dict[Path, bytes] | None = None) -> None:
    """No temporary file is left behind, and every file written (not in `before`) parses to its end."""
    before = before or {}
    for directory in directories:
        for f in directory.rglob("*"):
            assert not (f.name.startswith(".") and (".tmp" in f.name or f.name.startswith(".stemmer-"))), f
            if not f.is_file() or before.get(f) == f.read_bytes():
                continue
            if f.suffix == ".json":
                json.loads(f.read_text())
            elif f.suffix == ".jsonl":
                for line in f.read_text().splitlines():
                    json.loads(line)
            elif f.suffix == ".html":
                assert f.read_text().rstrip().endswith("</html>"), f


def hostile_crawl(seed: int, directory: Path):
    """Two small sites of hostile pages in one container, maybe damaged; (input, pages, damage)."""
    rng = random.Random(seed)
    pages = [hostile_page(rng, site, i, scale=0.05) for site in SITES for i in range(rng.randint(3, 7))]
    rng.shuffle(pages)
    kind = rng.choice(CONTAINERS)
    path = write_container(rng, kind, pages, directory)
    return path, pages, damage(rng, path)


@FUZZ
@given(seed=st.integers(0, 2**32 - 1))
def test_hostile_pages_through_every_verb(seed, tmp_path_factory, capsys, caplog):
    tmp = tmp_path_factory.mktemp("fuzz")
    crawl, pages, how = hostile_crawl(seed, tmp / "in")
    patterns, out = tmp / "patterns", tmp / "out"
    out.mkdir()

    code, said = run(capsys, caplog, "analyze", crawl, "-o", patterns)
    assert code in (0, 1) and "analyze failed" not in said

    for extra in (["-p", patterns] if patterns.exists() else ["--no-fallback"], []):
        with pytest.MonkeyPatch.context() as mp:
            mp.chdir(tmp)  # without -p: no ./patterns, every page goes to the generic classifier
            code, said = run(capsys, caplog, "extract", crawl, *extra, "-o", out / "x.jsonl")
        assert code in (0, 1)
        ids = {json.loads(line)["id"] for line in (out / "x.jsonl").read_text().splitlines()} \
            if (out / "x.jsonl").exists() else set()
        lost = unaccounted(pages, crawl, how, said, ids)
        assert not lost, ([p.kinds for p in lost], said[-2000:])

    code, said = run(capsys, caplog, "html2txt", crawl)
    assert code in (0, 1)
    if patterns.exists():
        assert run(capsys, caplog, "update", patterns, crawl)[0] in (0, 1)
        assert run(capsys, caplog, "report", patterns, crawl, "-o", out / "r.html")[0] in (0, 1)
        assert run(capsys, caplog, "train", patterns, crawl, "-o", out / "model")[0] in (0, 1)
        assert run(capsys, caplog, "label", "-p", patterns, crawl, "--field", "owner=Copyright",
                   "--pages", crawl)[0] in (0, 1)
    assert_whole_files(patterns, out)


@pytest.fixture(scope="module")
def learned(tmp_path_factory) -> Path:
    """Pattern files (with noise libraries and site models) of two clean sites, and the generic model."""
    tmp = tmp_path_factory.mktemp("learned")
    rng = random.Random(7)
    mirror = tmp / "mirror"
    for site in SITES:
        for i in range(12):
            f = mirror / site / f"a{i}.html"
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(article(rng, site, i))
    assert main(["analyze", "-q", str(mirror), "-o", str(tmp / "patterns")]) == 0
    import stemmer

    generic = Path(stemmer.__file__).parent / "classify" / "generic"
    shutil.copytree(generic, tmp / "patterns" / "generic")
    return tmp


@FUZZ
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_pattern_noise_and_model_files(seed, learned, tmp_path_factory, capsys, caplog):
    tmp = tmp_path_factory.mktemp("files")
    patterns = tmp / "patterns"
    shutil.copytree(learned / "patterns", patterns)
    rng = random.Random(seed)
    files = sorted(f for f in patterns.rglob("*") if f.is_file() and f.suffix in (".json", ".npz"))
    for f in rng.sample(files, rng.randint(1, 3)):
        mutate_file(rng, f)
    before = snapshot(tmp)
    mirror = learned / "mirror"
    site_file = patterns / f"{SITES[0]}.json"
    model = patterns / "generic" / "model.json"
    runs = [("extract", "-p", patterns, mirror, "-o", tmp / "x.jsonl"),
            ("extract", "-p", site_file, mirror, "-o", tmp / "y.jsonl"),
            ("extract", "--model", model, mirror, "-o", tmp / "z.jsonl"),
            ("report", patterns, mirror, "-o", tmp / "r.html"),
            ("update", patterns, mirror),
            ("label", "-p", patterns, mirror / SITES[0] / "a0.html", "--field", "owner=Copyright")]
    for argv in runs:
        code, said = run(capsys, caplog, *argv)
        if code != 0:  # one clear line: the file and what is wrong with it
            errors = [line for line in said.splitlines() if line.startswith("stemmer: error: ")]
            assert errors, said[-2000:]
    assert_whole_files(tmp, before=before)
