"""Files stemmer writes appear whole, with the mode of an ordinary file, whichever verb writes them."""
import os
import stat
from pathlib import Path

import pytest

import stemmer
from stemmer.cli import main
from stemmer.files import atomic_output, write_all, write_atomic

DEMO = Path(stemmer.__file__).parent / "demo" / "site"


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_has_the_mode_the_umask_gives(tmp_path, umask_022):
    write_atomic(tmp_path / "a.json", "{}")
    with atomic_output(tmp_path / "b.txt") as out:
        out.write("é\n".encode())
    write_all({tmp_path / "c.json": "1", tmp_path / "d.json": "2"})
    assert {p.name: mode(p) for p in tmp_path.iterdir()} == dict.fromkeys(["a.json", "b.txt", "c.json", "d.json"],
                                                                          0o644)
    assert (tmp_path / "b.txt").read_bytes() == "é\n".encode()


def test_a_replaced_file_keeps_its_mode(tmp_path, umask_022):
    path = tmp_path / "shared.json"
    path.write_text("old")
    path.chmod(0o664)
    write_atomic(path, "new")
    assert path.read_text() == "new" and mode(path) == 0o664


def test_a_failed_write_leaves_nothing_beside(tmp_path):
    with pytest.raises(RuntimeError), atomic_output(tmp_path / "out.txt") as out:
        out.write(b"half")
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_place_is_named_as_given(tmp_path):
    with pytest.raises(OSError) as exc:
        write_atomic(tmp_path / "missing" / "out.json", "{}")
    assert exc.value.filename == str(tmp_path / "missing" / "out.json")


def test_every_verb_writes_ordinary_files(tmp_path, umask_022, capsys):
    patterns = tmp_path / "patterns"
    assert main(["analyze", "-q", str(DEMO), "-o", str(patterns)]) == 0
    site_file = patterns / "demo.stemmer.test.json"
    assert main(["update", "-q", str(patterns), str(DEMO), "--date", "2100-01-01"]) == 0
    assert "2100-01-01" in site_file.read_text()  # update rewrote it
    assert main(["extract", "-q", "-p", str(patterns), str(DEMO), "-o", str(tmp_path / "out.jsonl"),
                 "--stats", str(tmp_path / "stats.json")]) == 0
    assert main(["report", "-q", str(patterns), "-o", str(tmp_path / "report.html")]) == 0
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {"demo.stemmer.test.json", "demo.stemmer.test.noise.json",
                                         "demo.stemmer.test.model.json", "demo.stemmer.test.model.npz",
                                         "out.jsonl", "stats.json", "report.html"}
    assert {p.name: oct(mode(p)) for p in written} == {p.name: oct(0o644) for p in written}
