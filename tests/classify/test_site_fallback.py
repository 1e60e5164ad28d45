"""The per-site half of the fallback: the common-noise library and the site model."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from stemmer import Page, analyze, extract
from stemmer.blocks import parse_html, segment
from stemmer.classify.model import BlockClassifier
from stemmer.errors import PatternFileError
from stemmer.extract.fallback import Fallback
from stemmer.layout.noise import NoiseLibrary, learn_noise, load_noise, normalize
from stemmer.layout.store import load_patterns, save_patterns

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import SITE_FOOTER, SITE_HEADER, article_html, index_html  # noqa: E402


def blocks(body: str):
    return segment(parse_html(f"<html><body>{body}</body></html>"))


def site_pages():
    pages = [Page(f"example.com/news/{i}.html", f"http://example.com/news/{i}.html", "example.com",
                  article_html(i)) for i in range(6)]
    return pages + [Page(f"example.com/news/index{j}.html", None, "example.com", index_html(j)) for j in range(4)]


def odd_page() -> Page:
    """A page of the site that neither of its layouts covers."""
    body = "".join(f"<p>The volunteers of the old mill wrote letter {k} to the council about the bridge.</p>"
                   for k in range(4))
    html = f'<html><body>{SITE_HEADER}<div class="letters"><h2>Letters</h2>{body}</div>{SITE_FOOTER}</body></html>'
    return Page("example.com/letters.html", None, "example.com", html)


class Everything:
    """A classifier that calls every block main text, and remembers what it was shown."""

    threshold = 0.5

    def __init__(self):
        self.seen = []

    def predict_proba(self, table):
        self.seen = [b.text for b in table.blocks]
        return np.ones(len(table.blocks))


# --- the library -------------------------------------------------------------------------

def test_leaf_on_most_pages_is_noise_and_the_article_text_is_not():
    lib = learn_noise("x.org", [blocks(f"<nav><a href=/>Home</a></nav><p>Story number {n} has "
                                       f"{'unique ' * n}words.</p>") for n in range(5)])
    assert ("nav", "home") in lib.entries
    assert not any("story" in text for _, text in lib.entries)


def test_near_identical_texts_are_one_entry():
    pages = [blocks(f"<p>© {2020 + n} X Media</p><div>{n * 7} comments</div>") for n in range(4)]
    lib = learn_noise("x.org", pages)
    assert lib.entries == (("div", "0 comments"), ("p", "© 0 x media"))
    assert normalize("  12\tComments \n") == "0 comments"


def test_rare_text_is_not_noise():
    pages = [blocks("<p>Always here</p>" + ("<p>Sometimes here</p>" if n < 2 else "")) for n in range(10)]
    assert learn_noise("x.org", pages).entries == (("p", "always here"),)
    # on every page, but fewer than MIN_PAGES pages
    assert learn_noise("x.org", pages[:2]).entries == ()


def test_library_saves_and_loads(tmp_path):
    lib = NoiseLibrary("x.org", (("p", "© 0 x media"),), pages=9)
    back = load_noise(lib.save(tmp_path / "x.org.noise.json"))
    assert back == lib and blocks("<p>© 2031 X  media</p>").blocks[0] in back


@pytest.mark.parametrize("text, message", [
    ("{", "not valid JSON (line 1"),
    ('{"format": "stemmer-patterns", "version": 1}', "not a stemmer noise library"),
    ('{"format": "stemmer-noise", "version": 9, "site": "x", "entries": []}', "version 9 is newer"),
    ('{"format": "stemmer-noise", "version": 1, "site": "x", "entries": [{"tag": 1}]}', "field 'entries[0]'"),
])
def test_bad_library_file_is_a_one_line_error(tmp_path, text, message):
    path = tmp_path / "x.noise.json"
    path.write_text(text)
    with pytest.raises(PatternFileError) as err:
        load_noise(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value) and "\n" not in str(err.value)


def test_library_blocks_never_reach_the_classifier():
    page = odd_page()
    lib = learn_noise("example.com", [segment(parse_html(p.html)) for p in site_pages()])
    clf = Everything()
    Fallback(clf).extract(page.id, None, page.site, parse_html(page.html))
    assert "Copyright 2024 Example Media, all rights reserved." in clf.seen  # without the library it is shown
    ex = Fallback(clf).extract(page.id, None, page.site, parse_html(page.html), noise=lib)
    assert "Copyright 2024 Example Media, all rights reserved." not in clf.seen
    assert "Copyright" not in ex.text and "Sport" not in ex.text.split()
    assert "letter 3 to the council" in ex.text


# --- the site model -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def learned():
    return analyze(site_pages(), date="2024-05-01").get("example.com")


def test_analyze_trains_a_site_model_from_the_pattern_labels(learned):
    assert isinstance(learned.model, BlockClassifier) and learned.model.info_["pages"] == 10
    assert learned.noise is not None and len(learned.noise) > 0


def test_a_site_with_too_few_pages_has_no_site_model():
    assert analyze(site_pages()[:2]).get("example.com").model is None


def test_site_model_decides_the_unmatched_pages_of_its_site(learned):
    class Refusing:  # the generic model: must not be asked
        threshold = 0.5

        def predict_proba(self, table):
            raise AssertionError("the generic model was used")

    from stemmer.layout.model import PatternSet

    # no layout matches at a threshold above any similarity: the page is the site model's
    [ex] = extract([odd_page()], PatternSet({"example.com": learned}), threshold=1.01, fallback=Fallback(Refusing()))
    assert (ex.matched, ex.method) == (False, "classifier")
    assert "letter 2 to the council" in ex.text


def test_a_page_foreign_to_the_layout_it_resembles_goes_to_the_generic_model(learned):
    """The site model learned from the layouts that fail the page: the generic model reads it."""
    from stemmer.layout.model import PatternSet

    generic = Everything()
    [ex] = extract([odd_page()], PatternSet({"example.com": learned}), threshold=0.0, fallback=Fallback(generic))
    assert (ex.matched, ex.method) == (False, "classifier") and ex.pattern is not None  # the layout it stood in for
    assert generic.seen and "letter 2 to the council" in ex.text


def test_site_files_round_trip_and_a_corrupt_model_falls_back_with_a_warning(learned, tmp_path, caplog):
    [path] = save_patterns(learned, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "example.com.json", "example.com.model.json", "example.com.model.npz", "example.com.noise.json"]
    loaded = load_patterns(tmp_path).get("example.com")
    assert loaded.noise == learned.noise and loaded.model == tmp_path / "example.com.model.json"
    (tmp_path / "example.com.model.npz").write_bytes(b"not a zip")
    generic = Everything()
    [ex] = extract([odd_page()], load_patterns(tmp_path), threshold=1.01, fallback=Fallback(generic))  # unmatched
    assert ex.method == "classifier" and generic.seen
    assert "corrupt classifier model arrays" in caplog.text and "using the generic model" in caplog.text


def test_corrupt_library_is_a_warning_not_an_error(learned, tmp_path, caplog):
    save_patterns(learned, tmp_path)
    (tmp_path / "example.com.noise.json").write_text(json.dumps({"format": "stemmer-noise", "version": 1}))
    loaded = load_patterns(tmp_path).get("example.com")
    assert loaded.noise is None and loaded.layouts == learned.layouts
    assert "field 'site' must be str; going on without the site's noise library" in caplog.text


def test_a_site_model_sees_the_page_with_its_noise_unless_told_otherwise():
    page = odd_page()
    lib = learn_noise("example.com", [segment(parse_html(p.html)) for p in site_pages()])
    site_model = Everything()
    Fallback(Everything()).extract(page.id, None, page.site, parse_html(page.html), noise=lib, model=site_model)
    assert "Copyright 2024 Example Media, all rights reserved." in site_model.seen
    Fallback(Everything(), noise="always").extract(page.id, None, page.site, parse_html(page.html),
                                                   noise=lib, model=site_model)
    assert "Copyright 2024 Example Media, all rights reserved." not in site_model.seen


def test_a_block_of_a_main_slot_stays_even_if_the_library_lists_it(learned):
    from dataclasses import replace

    from stemmer.layout.model import PatternSet
    from stemmer.layout.noise import entry

    page = site_pages()[0]
    [first] = [b for b in segment(parse_html(page.html)).blocks if b.tag == "p" and len(b.text) > 40][:1]
    with_it = replace(learned, noise=NoiseLibrary("example.com", (entry(first),)), model=None)
    [ex] = extract([page], PatternSet({"example.com": with_it}),
                   fallback=Fallback(Everything(), unknown_blocks="classifier", noise="always"))
    assert ex.matched and first.text in ex.text


class _Blind:
    """A 'generic' model that finds no main text anywhere."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.zeros(len(table.blocks))


def test_a_site_model_is_kept_only_where_it_beats_the_generic_one_on_held_out_pages(learned, monkeypatch):
    from stemmer.classify.features import page_table
    from stemmer.classify import site_model

    tables = [page_table(parse_html(p.html)) for p in site_pages()]
    kept = site_model.train_site_model(learned, tables, generic=_Blind())
    assert isinstance(kept, BlockClassifier)
    assert (kept.info_["held_out_f1"], kept.info_["generic_held_out_f1"]) == (1.0, 0.0)
    # where the generic model finds the patterns' main text better, the site keeps it
    monkeypatch.setattr(site_model, "held_out_f1", lambda clf, held: 0.9 if isinstance(clf, _Blind) else 0.5)
    assert site_model.train_site_model(learned, tables, generic=_Blind()) is None


def test_a_site_model_that_keeps_nothing_of_a_page_with_text_gives_way_to_the_generic_model(learned, caplog):
    from dataclasses import replace

    from stemmer.layout.model import PatternSet

    page = odd_page()
    [alone] = extract([page], PatternSet({"example.com": replace(learned, model=None)}),
                      fallback=Fallback(Everything()))
    [ex] = extract([page], PatternSet({"example.com": replace(learned, model=_Blind())}),
                   fallback=Fallback(Everything()))
    assert "letter 2 to the council" in ex.text and ex.text == alone.text and ex.title == alone.title
    assert "no main text found" not in caplog.text
