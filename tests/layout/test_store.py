import json
import os

import pytest

from stemmer.errors import PatternFileError
from stemmer import files
from stemmer.layout import store
from stemmer.layout.model import PatternSet, SitePatterns
from stemmer.layout.store import LazyPatterns, load_patterns, load_webstemmer, open_patterns, save_patterns, site_filename


@pytest.fixture
def saved(learned, tmp_path):
    """The learned patterns saved into tmp_path/patterns; returns the file."""
    [path] = save_patterns(learned, tmp_path / "patterns")
    return path


def edit(path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def error_of(source) -> str:
    with pytest.raises(PatternFileError) as exc:
        load_patterns(source)
    return str(exc.value)


def test_round_trip_gives_the_same_patterns(learned, saved):
    assert saved.name == "example.com.json"
    assert load_patterns(saved.parent).get("example.com") == learned
    assert load_patterns(saved).get("example.com") == learned


def test_pattern_set_saves_one_file_per_site(learned, tmp_path):
    other = type(learned)("other.org", learned.layouts, learned.tokens, learned.params)
    paths = save_patterns(PatternSet({"example.com": learned, "other.org": other}), tmp_path)
    assert sorted(p.name for p in paths) == ["example.com.json", "other.org.json"]
    assert sorted(load_patterns(tmp_path).sites) == ["example.com", "other.org"]


def test_file_is_versioned_readable_json(saved):
    text = saved.read_text()
    doc = json.loads(text)
    assert doc["format"] == "stemmer-patterns"
    assert doc["version"] == store.VERSION
    assert doc["site"] == "example.com"
    assert "\n " in text
    assert {"key", "role", "diff", "main", "sample"} <= set(doc["layouts"][0]["blocks"][0])


def test_saving_is_deterministic(learned, tmp_path):
    [a] = save_patterns(learned, tmp_path / "a")
    [b] = save_patterns(learned, tmp_path / "b")
    assert a.read_bytes() == b.read_bytes()


def test_a_role_changed_by_hand_is_loaded(saved):
    def pin(doc):
        doc["layouts"][0]["blocks"][0]["role"] = "main"
        doc["layouts"][0]["blocks"][0]["pinned"] = True
    edit(saved, pin)
    section = load_patterns(saved).get("example.com").layouts[0].sections[0]
    assert (section.role, section.pinned) == ("main", True)


def test_atomic_write_leaves_no_temporary_file(learned, saved):
    save_patterns(learned, saved.parent)
    assert sorted(os.listdir(saved.parent)) == ["example.com.json", "example.com.noise.json"]


def test_failed_write_keeps_the_old_file_and_no_temporary_file(learned, saved, monkeypatch):
    before = saved.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_patterns(learned, saved.parent)
    assert saved.read_bytes() == before
    assert sorted(os.listdir(saved.parent)) == ["example.com.json", "example.com.noise.json"]


@pytest.mark.parametrize("site, name", [("example.com", "example.com.json"), ("../../etc/x", "etc_x.json"),
                                        ("a b:c/d", "a_b_c_d.json"), ("", "site.json"), ("...", "site.json")])
def test_site_file_names_are_safe(site, name):
    assert site_filename(site) == name


def test_other_files_in_the_directory_are_ignored(saved):
    (saved.parent / "README.txt").write_text("notes")
    assert list(load_patterns(saved.parent).sites) == ["example.com"]


def test_corrupt_json_names_the_file(saved):
    saved.write_text(saved.read_text()[:200])
    message = error_of(saved.parent)
    assert "example.com.json" in message and "not valid JSON" in message


def test_empty_file_is_an_error(tmp_path):
    (tmp_path / "empty.json").write_text("")
    assert "empty.json: not valid JSON" in error_of(tmp_path)


def test_binary_file_is_an_error(tmp_path):
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00\x01garbage")
    assert "bin.json: cannot read" in error_of(tmp_path / "bin.json")


def test_top_level_must_be_an_object(tmp_path):
    (tmp_path / "list.json").write_text("[1, 2]")
    assert "list.json: not a stemmer pattern file" in error_of(tmp_path)


def test_wrong_format_names_the_file(saved):
    edit(saved, lambda doc: doc.update(format="something-else"))
    assert "example.com.json: not a stemmer pattern file (format 'something-else')" in error_of(saved)


def test_newer_version_asks_for_an_upgrade(saved):
    edit(saved, lambda doc: doc.update(version=store.VERSION + 1))
    message = error_of(saved)
    assert "example.com.json" in message and "newer than supported" in message and "upgrade" in message


@pytest.mark.parametrize("version", [0, -1, "1", None, 1.5, True])
def test_bad_version_names_the_field(saved, version):
    edit(saved, lambda doc: doc.update(version=version))
    message = error_of(saved)
    assert "example.com.json" in message and "'version'" in message


def test_missing_version_names_the_field(saved):
    edit(saved, lambda doc: doc.pop("version"))
    assert "'version'" in error_of(saved)


@pytest.mark.parametrize("field", ["site", "layouts", "tokens", "params"])
def test_missing_top_level_field_names_file_and_field(saved, field):
    edit(saved, lambda doc: doc.pop(field))
    message = error_of(saved)
    assert "example.com.json" in message and f"missing field '{field}'" in message


def test_missing_nested_field_names_its_place(saved):
    edit(saved, lambda doc: doc["layouts"][1]["blocks"][2].pop("key"))
    assert "example.com.json: missing field 'layouts[1].blocks[2].key'" in error_of(saved)


def test_field_of_wrong_type_names_it(saved):
    edit(saved, lambda doc: doc.update(layouts={"L0": []}))
    assert "field 'layouts' must be list" in error_of(saved)


def test_unknown_role_lists_the_allowed_ones(saved):
    edit(saved, lambda doc: doc["layouts"][0]["blocks"][0].update(role="header"))
    message = error_of(saved)
    assert "layouts[0].blocks[0].role" in message and "'header'" in message and "title, main, sub, static" in message


def test_bad_number_is_an_error_not_a_crash(saved):
    edit(saved, lambda doc: doc["layouts"][0]["blocks"][0].update(diff="high"))
    assert "example.com.json" in error_of(saved)


def test_empty_directory_says_to_analyze_first(tmp_path):
    message = error_of(tmp_path)
    assert str(tmp_path) in message and "no pattern files" in message and "stemmer analyze" in message


def test_missing_path_is_an_error(tmp_path):
    assert "no such file or directory" in error_of(tmp_path / "nope")


def test_error_messages_are_one_line(saved):
    saved.write_text("{\n\n  broken")
    assert "\n" not in error_of(saved)


# --- original Webstemmer pattern files --------------------------------------------------

WEBSTEMMER_PAT = """\
### version=0.6.1
### fname='crawl.zip'
### cluster_threshold=0.970000
### title_threshold=0.600000
### pages=3

# 512.3 <200601010000/www.example.com/news/a.html>
#\t200601010000/www.example.com/news/a.html
#\t200601010000/www.example.com/news/b.html
(512.3, '200601010000/www.example.com/news/a.html', 1, [(0.0, 0.0, 'table/tr/td:class=nav'), \
(0.9, 12.0, 'tr/td:class=main/h1'), (0.95, 300.0, 'tr/td:class=main/p'), (0.6, 8.0, 'tr/td:class=main/div'), \
(0.1, 3.0, 'table/tr/td:class=foot')])

# 80.0 <200601010000/www.example.com/index.html>
(80.0, '200601010000/www.example.com/index.html', -1, [(0.0, 0.0, 'table/tr/td:class=nav'), \
(0.8, 90.0, 'tr/td:class=list/li')])
"""


def test_webstemmer_pattern_file_is_read(tmp_path):
    path = tmp_path / "example.pat"
    path.write_text(WEBSTEMMER_PAT)
    site = load_patterns(path).get("example.com")
    assert site is not None
    article, index = site.layouts
    assert [(s.key, s.role) for s in article.sections] == [
        ("table/tr/td:class=nav", "static"), ("tr/td:class=main/h1", "title"), ("tr/td:class=main/p", "main"),
        ("tr/td:class=main/div", "sub"), ("table/tr/td:class=foot", "static")]
    assert article.score == 512.3
    assert [s.role for s in index.sections] == ["static", "main"]
    assert site.params["key_style_webstemmer"] and site.params["key_depth"] == 3


def test_old_webstemmer_form_with_main_section_number(tmp_path):
    path = tmp_path / "old.pat"
    path.write_text("(210473.4, '200509290801/1010wins.com/a.html', 1, 2, "
                    "[(0.0, 'td:class=bar/div'), (0.75, 'td:align=left/span:class=headline'), "
                    "(0.99, 'td:align=left/span:class=standard'), (0.6, 'td/li'), (0.1, 'td/p')])\n")
    site = load_webstemmer(path)
    assert site.site == "1010wins.com"
    assert [s.role for s in site.layouts[0].sections] == ["static", "title", "main", "sub", "static"]


def test_webstemmer_files_are_found_in_a_directory(tmp_path):
    (tmp_path / "example.pat").write_text(WEBSTEMMER_PAT)
    assert list(load_patterns(tmp_path).sites) == ["example.com"]


@pytest.mark.parametrize("line", ["(1.0, 'x'", "not python", "__import__('os').system('touch hacked')",
                                  "(1.0, 'a/b.com/c', 0, 5)", "[" * 10000])
def test_bad_webstemmer_line_names_file_and_line(tmp_path, line, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "bad.pat"
    path.write_text("# comment\n\n" + line + "\n")
    message = error_of(path)
    assert "bad.pat: line 3: not a Webstemmer pattern" in message
    assert not (tmp_path / "hacked").exists()


def test_webstemmer_file_without_patterns_is_an_error(tmp_path):
    (tmp_path / "none.pat").write_text("### version=0.6.1\n# nothing here\n")
    assert "none.pat: no patterns" in error_of(tmp_path / "none.pat")


# --- a directory read lazily ----------------------------------------------------------
def empty_site(name: str) -> SitePatterns:
    return SitePatterns(name, (), {}, {"match_threshold": 0.5})


@pytest.fixture
def directory(tmp_path):
    for name in ("a.example", "b.example", "c.example"):
        save_patterns(empty_site(name), tmp_path)
    return tmp_path


def test_a_site_is_read_when_first_asked_for(directory):
    patterns = LazyPatterns(directory)
    (directory / "b.example.json").write_text("{broken")  # never read: no page of b.example comes
    assert patterns.get("a.example") == empty_site("a.example")
    assert "a.example" in patterns and "nowhere.example" not in patterns
    assert patterns.get("nowhere.example") is None


def test_a_broken_file_fails_when_its_site_comes(directory):
    (directory / "b.example.json").write_text("{broken")
    patterns = LazyPatterns(directory)
    with pytest.raises(PatternFileError, match="b.example.json"):
        patterns.get("b.example")


def test_the_cache_keeps_the_latest_sites(directory):
    patterns = LazyPatterns(directory, cache=2)
    for name in ("a.example", "b.example", "c.example"):
        patterns.get(name)
    (directory / "a.example.json").unlink()
    assert patterns.get("c.example") is not None
    assert patterns.get("a.example") is None  # evicted, then read again: gone


def test_webstemmer_files_are_read_up_front(tmp_path):
    (tmp_path / "example.pat").write_text(WEBSTEMMER_PAT)
    patterns = LazyPatterns(tmp_path)
    [site] = [s for s in ("example.com", "www.example.com") if patterns.get(s) is not None]
    assert patterns.get(site).layouts


def test_a_directory_without_pattern_files_is_an_error(tmp_path):
    with pytest.raises(PatternFileError, match="no pattern files"):
        LazyPatterns(tmp_path)
    with pytest.raises(PatternFileError, match="not a directory"):
        LazyPatterns(tmp_path / "nope")


def test_open_patterns_reads_a_directory_lazily_and_a_file_now(tmp_path, monkeypatch):
    site = SitePatterns("example.com", ())
    [path] = save_patterns(site, tmp_path / "p")
    assert isinstance(open_patterns(tmp_path / "p"), LazyPatterns)
    loaded = open_patterns(path)
    assert isinstance(loaded, PatternSet) and "example.com" in loaded and "other.org" not in loaded
    monkeypatch.chdir(tmp_path)
    assert open_patterns() is None  # no ./patterns: no patterns, every page goes to the classifier
    save_patterns(site, tmp_path / "patterns")
    assert open_patterns().get("example.com") == loaded.get("example.com")
