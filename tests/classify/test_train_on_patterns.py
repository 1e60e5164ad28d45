"""`stemmer train`: a block model from the blocks a crawl's patterns label, usable by `extract --model`."""
import json
import os
from pathlib import Path

import numpy as np
import pytest

import stemmer
from stemmer import load_patterns, read_pages, train
from stemmer.classify.model import BlockClassifier
from stemmer.classify.site_model import pattern_labelled_pages
from stemmer.cli import main
from stemmer.errors import ModelError

DEMO = Path(stemmer.__file__).parent / "demo" / "site"
SITE = "demo.stemmer.test"
GOLD = {json.loads(line)["id"]: json.loads(line) for line in
        (DEMO.parent / "gold.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
PER_SITE = 20  # enough labelled blocks of each kind on the demo site, and a quicker fit


@pytest.fixture(scope="module")
def patterns(tmp_path_factory):
    out = tmp_path_factory.mktemp("patterns")
    assert main(["analyze", "-q", str(DEMO), "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def model(patterns, tmp_path_factory):
    """`stemmer train` on the demo site's patterns and pages: the MODEL path."""
    out = tmp_path_factory.mktemp("model") / "demo-model"
    assert main(["train", "-q", str(patterns), str(DEMO), "-o", str(out), "--pages-per-site", str(PER_SITE)]) == 0
    return out


def test_labels_come_from_the_slots_and_unknown_blocks_are_left_out(patterns):
    pages = pattern_labelled_pages(read_pages([str(DEMO)]), load_patterns(patterns), pages_per_site=PER_SITE)
    assert 0 < len(pages) <= PER_SITE
    article = next(p for p in pages if p.id in GOLD)
    gold = GOLD[article.id]["text"]
    main_text = [b.text for b, lab, w in zip(article.table.blocks, article.labels, article.weights) if lab and w]
    other = [b.text for b, lab, w in zip(article.table.blocks, article.labels, article.weights) if not lab and w]
    assert main_text and other
    assert sum(t in gold for t in main_text) >= len(main_text) - 1  # the title slot is main text too
    assert not any(t in gold for t in other if len(t) > 30)
    assert all(w in (0.0, 1.0) for p in pages for w in p.weights)


def test_training_weighs_a_block_by_the_root_of_its_letters_and_keeps_unknown_blocks_out(patterns):
    from stemmer.classify.train import block_weights

    page = pattern_labelled_pages(read_pages([str(DEMO)]), load_patterns(patterns), pages_per_site=PER_SITE)[0]
    weights = block_weights(page)
    for b, w, base in zip(page.table.blocks, weights, page.weights):
        assert w == pytest.approx(base * max(b.weight, 1) ** 0.5)
    assert [w for w, base in zip(weights, page.weights) if base == 0] == [0.0] * page.weights.count(0.0)
    long_block = max(range(len(weights)), key=lambda i: page.table.blocks[i].weight * page.weights[i])
    assert weights[long_block] > 3  # a paragraph outweighs a one-word link (weight 1)
    assert block_weights(page, power=0) == page.weights


def test_train_writes_json_and_npz_with_ordinary_permissions(model):
    json_path, npz_path = model.with_name(model.name + ".json"), model.with_name(model.name + ".npz")
    meta = json.loads(json_path.read_text())
    assert meta["format"] == "stemmer-block-classifier"
    assert meta["info"]["trained_on"]["patterns"]["sites"] == 1
    with np.load(npz_path, allow_pickle=False) as npz:
        assert "first_feature" in npz.files
    umask = os.umask(0)
    os.umask(umask)
    for path in (json_path, npz_path):
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(p.name for p in model.parent.iterdir()) == [json_path.name, npz_path.name]


def test_extract_with_the_trained_model_finds_the_article(model, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no ./patterns: every page goes to the classifier
    page_id = next(i for i in sorted(GOLD) if "/news/" in i)
    assert main(["extract", "-q", "--model", f"{model}.json", str(DEMO / page_id)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["method"] == "classifier"
    gold = GOLD[page_id]["text"].splitlines()
    found = got["text"].splitlines()
    assert sum(line in found for line in gold) >= 0.8 * len(gold)
    assert len(found) <= len(gold) + 3


def test_train_from_a_warc(patterns, write_warc):
    warc = write_warc([(f"https://{SITE}/" + str(p.relative_to(DEMO / SITE)), p.read_text(encoding="utf-8"))
                       for p in sorted(DEMO.rglob("*.html"))])
    clf = train(read_pages([str(warc)]), load_patterns(patterns), pages_per_site=PER_SITE)
    assert isinstance(clf, BlockClassifier)
    assert clf.info_["trained_on"]["patterns"]["pages"] >= 10
    table = pattern_labelled_pages(read_pages([str(warc)]), load_patterns(patterns), pages_per_site=1)[0].table
    assert clf.predict_proba(table).shape == (len(table.blocks),)


def test_too_few_labelled_blocks_is_one_clear_line(patterns, tmp_path, capsys):
    code = main(["train", str(patterns), str(DEMO), "-o", str(tmp_path / "m"), "--pages-per-site", "3"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("stemmer: error: the patterns label ")
    assert "training needs" in err[0]
    assert not list(tmp_path.iterdir())


def test_a_failed_write_leaves_the_old_model_whole(model, tmp_path, monkeypatch):
    clf = BlockClassifier.load(f"{model}.json")
    target = tmp_path / "m"
    clf.save(target)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(file, **arrays):
        file.write(b"PK\x03\x04 half a zip")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez_compressed", broken)
    with pytest.raises(OSError):
        clf.save(target)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_page_of_an_unanalyzed_site_is_not_labelled(patterns):
    page = stemmer.Page("other.example/a.html", None, "other.example", "<html><body><p>text</p></body></html>")
    assert pattern_labelled_pages([page], load_patterns(patterns)) == []
    with pytest.raises(ModelError, match="training needs"):
        train([page], load_patterns(patterns))
