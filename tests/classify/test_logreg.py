"""The numpy/scipy logistic regression against scikit-learn's, and analyze without scikit-learn."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import stemmer
from stemmer.classify.logreg import fit_logreg, standardize
from stemmer.classify.model import BlockClassifier
from stemmer.classify.scorers import LinearScorer, fit_scorer

from .conftest import article

DEMO_SITE = Path(stemmer.__file__).parent / "demo" / "site"


def weighted_problem(seed: int, n: int = 1500, d: int = 25):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 40, d) + rng.normal(0, 10, d)
    X[:, 3] = 7.0                          # a constant column
    X[:, 5] = rng.integers(0, 2, n)        # a binary one
    z = ((X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1)) @ rng.normal(size=d)
    y = (rng.random(n) < 1 / (1 + np.exp(-0.7 * z))).astype(np.int8)
    w = rng.uniform(0.1, 3.0, n)
    w[rng.random(n) < 0.1] = 0.0           # unlabelled blocks, as the site model has
    return X, y, w


@pytest.mark.parametrize("seed,C", [(0, 1.0), (1, 1.0), (2, 0.1), (3, 10.0)])
def test_logreg_matches_scikit_learn(seed, C):
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    X, y, w = weighted_problem(seed)
    scorer = fit_scorer(X, y, "logreg", sample_weight=w, params={"C": C} if C != 1.0 else None)
    keep = w > 0
    scaler = StandardScaler().fit(X[keep])
    est = LogisticRegression(C=C, max_iter=500).fit(scaler.transform(X[keep]), y[keep], sample_weight=w[keep])
    assert isinstance(scorer, LinearScorer)
    assert np.allclose(scorer.mean, scaler.mean_, rtol=1e-12, atol=1e-12)
    assert np.allclose(scorer.scale, scaler.scale_, rtol=1e-12, atol=0)
    assert scorer.scale[3] == 1.0
    assert np.allclose(scorer.coef, est.coef_.ravel(), rtol=1e-7, atol=1e-8)
    assert abs(scorer.intercept - est.intercept_[0]) < 1e-8
    p = 1 / (1 + np.exp(-scorer.decision(X)))
    assert np.abs(p - est.predict_proba(scaler.transform(X))[:, 1]).max() < 1e-8


def test_logreg_labels_and_degenerate_columns():
    X = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
    mean, scale = standardize(X)
    assert scale[1] == 1.0 and mean[1] == 5.0
    coef, b = fit_logreg((X - mean) / scale, np.array([3, 3, 7, 7]))  # any two labels; the greater is positive
    assert coef[0] > 0 and coef[1] == 0.0
    with pytest.raises(ValueError, match="2 classes"):
        fit_logreg(X, np.array([1, 1, 1, 1]))
    with pytest.raises(ValueError, match="2 classes"):  # the only rows of one class have weight 0
        fit_scorer(X, np.array([0, 0, 1, 1]), "logreg", sample_weight=np.array([1.0, 1.0, 0.0, 0.0]))


def test_options_the_numpy_fit_lacks_go_to_scikit_learn():
    X, y, w = weighted_problem(4, n=300, d=8)
    balanced = fit_scorer(X, y, "logreg", sample_weight=w, params={"class_weight": "balanced"})
    plain = fit_scorer(X, y, "logreg", sample_weight=w)
    assert not np.allclose(balanced.coef, plain.coef)


def test_a_logreg_model_saves_without_scikit_learn(labelled, tmp_path):
    tables, labels, _ = labelled
    clf = BlockClassifier(estimator="logreg", context=False, n_tags=5, n_attrs=5).fit(tables, labels)
    json_path, _ = clf.save(tmp_path / "m")
    assert "sklearn" not in json.loads(json_path.read_text())
    loaded = BlockClassifier.load(json_path)
    assert np.allclose(loaded.predict_proba(tables[0]), clf.predict_proba(tables[0]))


def test_the_generic_model_still_loads():
    from stemmer.blocks import parse_html
    from stemmer.classify.features import page_table
    from stemmer.extract.fallback import GENERIC_PATH

    clf = BlockClassifier.load(GENERIC_PATH)
    assert len(clf.predict_proba(page_table(parse_html(article(3)[0])))) > 0


ANALYZE_DEMO = """
import sys
from stemmer.cli import main
status = main(["analyze", "-q", sys.argv[1], "-o", sys.argv[2]])
print(status, sorted(m for m in ("sklearn", "torch") if m in sys.modules))
"""


def test_analyze_of_the_demo_site_imports_no_scikit_learn(tmp_path):
    res = subprocess.run([sys.executable, "-c", ANALYZE_DEMO, str(DEMO_SITE), str(tmp_path / "pat")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "0 []"
    models = list((tmp_path / "pat").rglob("*.npz"))
    assert models, "the demo site should get a site model"
    for meta in (tmp_path / "pat").rglob("*.json"):
        doc = json.loads(meta.read_text())
        if doc.get("format") == "stemmer-block-classifier":
            assert "sklearn" not in doc
