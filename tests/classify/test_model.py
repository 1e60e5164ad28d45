import json
import zipfile

import numpy as np
import pytest

from stemmer.blocks import parse_html
from stemmer.classify.embed import HashingEmbedder
from stemmer.classify.features import page_table
from stemmer.classify.model import BlockClassifier
from stemmer.classify.scorers import TreeScorer, sigmoid
from stemmer.errors import ModelError

from .conftest import article


def test_fitted_classifier_finds_the_article_paragraphs(fitted):
    html, gold = article(99)
    t = page_table(parse_html(html))
    picked = [b.text for b, y in zip(t.blocks, fitted.predict(t)) if y]
    assert picked == gold.splitlines()


def test_save_and_load_round_trip_without_pickle(fitted, tmp_path):
    json_path, npz_path = fitted.save(tmp_path / "m")
    meta = json.loads(json_path.read_text())
    assert meta["format"] == "stemmer-block-classifier" and meta["version"] == 1 and meta["sklearn"]
    with zipfile.ZipFile(npz_path) as z:  # plain .npy arrays, none of dtype object
        for name in z.namelist():
            assert b"pickle" not in z.read(name)[:200]
    loaded = BlockClassifier.load(npz_path)
    t = page_table(parse_html(article(5)[0]))
    assert np.allclose(loaded.predict_proba(t), fitted.predict_proba(t))


def test_gradient_boosting_trees_export_exactly(labelled):
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 6))
    X[rng.random((400, 6)) < 0.05] = np.nan
    y = ((X[:, 0] > 0) ^ (np.nan_to_num(X[:, 3]) > 0.5)).astype(int)
    est = HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(X, y)
    scorer = TreeScorer.from_sklearn(est)
    p = 1 / (1 + np.exp(-scorer.decision(X)))
    assert np.allclose(p, est.predict_proba(X)[:, 1])



def _two_tree_scorers():
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 5))
    X[rng.random((300, 5)) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 1]) + np.nan_to_num(X[:, 2]) > 0).astype(int)
    return X, [TreeScorer.from_sklearn(HistGradientBoostingClassifier(max_iter=m, random_state=0).fit(X, y))
               for m in (8, 15)]


def test_the_compiled_tree_walk_gives_numpys_sums():
    from stemmer.classify import scorers

    if scorers._trees is None:
        pytest.skip("the compiled tree walk is not built")
    X, (scorer, _) = _two_tree_scorers()
    out = np.empty(len(X))
    scorer._packed().decide(X, out)
    assert np.allclose(out, scorer._numpy_decision(X), rtol=0, atol=1e-12)
    # float32 features (as transform gives them) walk as the float64 they convert to, also at
    # the float32 values on either side of each threshold (a float32 threshold is rounded down)
    X32 = X.astype(np.float32)
    inner = ~scorer.leaf
    near = scorer.threshold[inner].astype(np.float32)
    edges = np.tile(X32[:1], (3 * len(near), 1))
    for k, (f, t) in enumerate(zip(scorer.feature[inner], near)):
        for j, v in enumerate((np.nextafter(t, np.float32(-np.inf)), t, np.nextafter(t, np.float32(np.inf)))):
            edges[3 * k + j, f] = v
    for features in (X32, edges):
        sums = []
        for as_given in (features, features.astype(np.float64)):
            out = np.empty(len(features))
            scorer._packed().decide(as_given, out)
            sums.append(out.tobytes())
        assert sums[0] == sums[1]


def _leaf_sums(scorer, X) -> np.ndarray:
    """Each row's leaf values added in tree order to the baseline, the leaves found node by node."""
    out = np.full(len(X), scorer.baseline)
    for i, row in enumerate(X):
        for root in scorer.roots:
            node = root
            while not scorer.leaf[node]:
                x = row[scorer.feature[node]]
                left = x <= scorer.threshold[node] or (np.isnan(x) and scorer.missing_left[node])
                node = scorer.left[node] if left else scorer.right[node]
            out[i] += scorer.value[node]
    return out


@pytest.mark.parametrize("leaves", [31, 100])
def test_the_compiled_decision_adds_each_trees_leaf_in_tree_order(leaves):
    """Trees of up to 64 leaves are read feature by feature (QuickScorer's scan), larger ones walked:
    either way the same leaves, added in the same order, for rows in groups of 8 and a short last one."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from stemmer.classify import scorers

    if scorers._trees is None:
        pytest.skip("the compiled tree walk is not built")
    rng = np.random.default_rng(2)
    X = rng.normal(size=(600, 5))
    X[rng.random((600, 5)) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 0]) * np.nan_to_num(X[:, 1]) + 0.3 * rng.normal(size=600) > 0).astype(int)
    scorer = TreeScorer.from_sklearn(HistGradientBoostingClassifier(
        max_iter=6, max_leaf_nodes=leaves, min_samples_leaf=2, random_state=0).fit(X, y))
    assert (max(np.diff(np.append(scorer.roots, len(scorer.leaf)))) > 2 * 64) == (leaves > 64)
    # rows of no NaN, of some, and the values either side of every float32 threshold
    inner = ~scorer.leaf
    near = scorer.threshold[inner].astype(np.float32)
    edges = np.tile(np.nan_to_num(X[:1]).astype(np.float32), (3 * len(near), 1))
    for k, (f, t) in enumerate(zip(scorer.feature[inner], near)):
        for j, v in enumerate((np.nextafter(t, np.float32(-np.inf)), t, np.nextafter(t, np.float32(np.inf)))):
            edges[3 * k + j, f] = v
    for rows in (np.nan_to_num(X[:13]), X[:101], X, edges, edges.astype(np.float64)):
        out = np.empty(len(rows))
        scorer._packed().decide(np.ascontiguousarray(rows), out)
        assert out.tobytes() == _leaf_sums(scorer, rows.astype(np.float64)).tobytes()
    with pytest.raises(ValueError):
        scorer._packed().decide(np.zeros((3, 2)), np.empty(3))  # fewer columns than the trees test


def test_averaged_tree_scorers_decide_the_mean_of_their_decisions():
    X, scorers = _two_tree_scorers()
    mean = TreeScorer.mean(scorers)
    assert len(mean.roots) == sum(len(s.roots) for s in scorers)
    assert np.allclose(mean.decision(X), (scorers[0].decision(X) + scorers[1].decision(X)) / 2)


def test_a_bagged_classifier_averages_its_bags_and_round_trips(labelled, tmp_path):
    tables, labels, sites = labelled
    clf = BlockClassifier(estimator="hgb", n_tags=5, n_attrs=5, params={"max_iter": 10}, bags=3)
    clf.fit(tables, labels, groups_of_pages=sites)
    assert len(clf.first_.roots) == 30
    clf.save(tmp_path / "bagged")
    loaded = BlockClassifier.load(tmp_path / "bagged")
    assert np.allclose(loaded.predict_proba(tables[0]), clf.predict_proba(tables[0]))
    assert loaded.predict(tables[0]).sum() >= 3  # the article's paragraphs
    with pytest.raises(ValueError, match="hgb"):
        BlockClassifier(estimator="logreg", bags=3).fit(tables, labels)

def test_hgb_classifier_round_trip(labelled, tmp_path):
    tables, labels, sites = labelled
    clf = BlockClassifier(estimator="hgb", n_tags=5, n_attrs=5, params={"max_iter": 10},
                          groups=("pos", "tags", "ratios", "text", "embed"), embedder=HashingEmbedder(8))
    clf.fit(tables, labels, groups_of_pages=sites)
    clf.save(tmp_path / "hgb.json")
    loaded = BlockClassifier.load(tmp_path / "hgb")
    assert loaded.featurizer_.embedder.name == "hashing:8"
    assert np.allclose(loaded.predict_proba(tables[0]), clf.predict_proba(tables[0]))


def test_missing_model_file_is_a_model_error(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        BlockClassifier.load(tmp_path / "nothing.json")


def test_corrupt_model_files_are_model_errors(fitted, tmp_path):
    json_path, npz_path = fitted.save(tmp_path / "m")
    npz_path.write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ModelError, match="corrupt"):
        BlockClassifier.load(json_path)
    fitted.save(tmp_path / "m")
    json_path.write_text("{not json")
    with pytest.raises(ModelError, match="not a classifier model"):
        BlockClassifier.load(json_path)


def test_newer_version_or_wrong_arrays_are_model_errors(fitted, tmp_path):
    json_path, npz_path = fitted.save(tmp_path / "m")
    meta = json.loads(json_path.read_text())
    json_path.write_text(json.dumps(meta | {"version": 99}))
    with pytest.raises(ModelError, match="version 99"):
        BlockClassifier.load(json_path)
    json_path.write_text(json.dumps(meta))
    with np.load(npz_path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["first_coef"] = arrays["first_coef"][:3]
    np.savez(npz_path, **arrays)
    with pytest.raises(ModelError, match="do not match"):
        BlockClassifier.load(json_path)


def test_a_field_of_the_wrong_type_is_a_model_error(fitted, tmp_path):
    json_path, _ = fitted.save(tmp_path / "m")
    meta = json.loads(json_path.read_text())
    json_path.write_text(json.dumps(meta | {"embedder": {"a": 1}}))
    with pytest.raises(ModelError, match="incomplete or inconsistent"):
        BlockClassifier.load(json_path)


def test_unfitted_classifier_says_so():
    with pytest.raises(ModelError, match="not fitted"):
        BlockClassifier().predict_proba(page_table(None))


def test_bad_estimator_lists_the_choices(labelled):
    tables, labels, _ = labelled
    with pytest.raises(ValueError, match="logreg, svm, hgb"):
        BlockClassifier(estimator="forest").fit(tables, labels)


def test_page_with_no_text_gets_no_probabilities(fitted, html):
    assert fitted.predict_proba(page_table(parse_html(html("")))).shape == (0,)
    assert fitted.predict_proba(page_table(None)).shape == (0,)


def test_one_megabyte_block_is_classified(fitted, html):
    t = page_table(parse_html(html("<p>" + "word " * 200_000 + "</p><p>x</p>")))
    p = fitted.predict_proba(t)
    assert p.shape == (2,) and np.isfinite(p).all()


def test_compiled_context_features_equal_the_numpy_ones_to_the_bit(labelled, html, monkeypatch):
    from stemmer.classify import stacking
    if stacking._compiled_context_columns is None or stacking.walker_in_use() != "compiled":
        pytest.skip("the compiled text statistics are not built or not in use")
    tables, _, _ = labelled
    odd = [html("<div><p>one</p><div><p>two</p><p>three</p></div></div><p>four</p>"), "<p>a</p> tail", "x"]
    tables = tables + [page_table(parse_html(page)) for page in odd]
    rng = np.random.default_rng(5)
    for t in tables:
        for p in (rng.random(len(t.blocks)), np.full(len(t.blocks), 0.5), np.round(rng.random(len(t.blocks)), 1)):
            compiled = stacking.context_features(p, t)
            with monkeypatch.context() as m:
                m.setattr(stacking, "_compiled_context_columns", None)
                assert stacking.context_features(p, t).tobytes() == compiled.tobytes()


def test_the_shipped_models_compiled_decision_adds_each_trees_leaf_in_tree_order_on_real_pages():
    """The shipped model's two stages on the demo site's pages: the compiled scan (each test applied to
    eight rows as vectors) finds the leaves a node-by-node walk finds, for float32 and float64 features."""
    from pathlib import Path

    import stemmer
    from stemmer.classify import scorers
    from stemmer.classify.stacking import context_features
    from stemmer.extract.fallback import GENERIC_PATH

    if scorers._trees is None:
        pytest.skip("the compiled tree walk is not built")
    clf = BlockClassifier.load(GENERIC_PATH)
    pages = sorted((Path(stemmer.__file__).parent / "demo" / "site").rglob("*.html"))[:4]
    assert pages
    for path in pages:
        table = page_table(parse_html(path.read_bytes()))
        X = clf.featurizer_.transform(table)
        assert len(X) > 8  # more than one group of rows
        for scorer, rows in ((clf.first_, X), (clf.first_, X.astype(np.float64)),
                             (clf.second_, context_features(sigmoid(clf.first_.decision(X)), table))):
            out = np.empty(len(rows))
            scorer._packed().decide(np.ascontiguousarray(rows), out)
            assert out.tobytes() == _leaf_sums(scorer, rows.astype(np.float64)).tobytes(), path
