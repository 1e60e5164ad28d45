"""BlockClassifier: main text vs boilerplate per block, saved as plain arrays (never a pickle).

Training uses numpy/scipy for logistic regression (`fit_logreg`) and
scikit-learn for the others; prediction needs only numpy, so a saved model
loads fast and loading a file from someone else cannot run code.  A model is
two files side by side: ``NAME.json`` (format, versions, feature groups,
vocabularies, threshold) and ``NAME.npz`` (the numbers: the scaler and
coefficients of a linear model, or the flattened trees of a gradient-boosted
one, exported from scikit-learn's ``HistGradientBoostingClassifier``).

Two stages, as Web2Text uses neighbouring blocks: the first classifies each
block from its own features; the second (optional) sees the first's
probabilities of the blocks around it and of its enclosing element, and
decides again.  Classifiers follow scikit-learn's conventions: `fit` returns
self, learned attributes end in ``_``.
"""
from __future__ import annotations

import json
import sys
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from stemmer.classify.embed import CachedEmbedder, Embedder, embedder_from_name
from stemmer.classify.features import GROUPS, Featurizer, PageTable, Vocabulary
from stemmer.errors import ModelError
from stemmer.files import atomic_output, write_atomic

FORMAT = "stemmer-block-classifier"
VERSION = 1
CONTEXT = (-3, -2, -1, 1, 2, 3)  # neighbours whose first-stage probability the second stage sees
N_CONTEXT = 1 + len(CONTEXT) + 2 * 3 + 3  # own, neighbours, 2 enclosing elements x 3, window/max/mean


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


# --- the scorers: plain arrays in, probabilities out -------------------------------

@dataclass
class LinearScorer:
    """p = sigmoid(((x - mean) / scale) . coef + intercept): logistic regression or a linear SVM."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    kind = "linear"

    def decision(self, X: np.ndarray) -> np.ndarray:
        return ((X - self.mean) / self.scale) @ self.coef + self.intercept

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}mean": self.mean, f"{prefix}scale": self.scale, f"{prefix}coef": self.coef,
                f"{prefix}intercept": np.array([self.intercept])}

    @classmethod
    def from_arrays(cls, a, prefix: str) -> LinearScorer:
        return cls(a[f"{prefix}mean"], a[f"{prefix}scale"], a[f"{prefix}coef"], float(a[f"{prefix}intercept"][0]))


@dataclass
class TreeScorer:
    """A sum of regression trees, flattened: node arrays and each tree's root index.

    A sample goes left at a node when its feature is <= the threshold, or
    is NaN and the node sends missing values left (scikit-learn's rule).
    """

    feature: np.ndarray   # int32 per node
    threshold: np.ndarray  # float64 per node
    left: np.ndarray      # int32 per node (global index)
    right: np.ndarray
    missing_left: np.ndarray  # bool per node
    leaf: np.ndarray      # bool per node
    value: np.ndarray     # float64 per node (used at leaves)
    roots: np.ndarray     # int32 per tree
    baseline: float

    kind = "trees"

    def decision(self, X: np.ndarray) -> np.ndarray:
        """Walk every (sample, tree) pair down together, dropping the pairs that reach a leaf."""
        n, n_features = X.shape
        out = np.full(n, self.baseline)
        rows = np.repeat(np.arange(n), len(self.roots))
        node = np.tile(self.roots, n)
        flat = X.ravel()
        has_nan = bool(np.isnan(flat).any())
        children = np.stack([self.left, self.right], axis=1).ravel()  # node's left at 2i, right at 2i+1
        while rows.size:
            at_leaf = self.leaf[node]
            if at_leaf.any():
                out += np.bincount(rows[at_leaf], weights=self.value[node[at_leaf]], minlength=n)
                rows, node = rows[~at_leaf], node[~at_leaf]
                if not rows.size:
                    break
            x = flat[rows * n_features + self.feature[node]]
            go_right = ~(x <= self.threshold[node])
            if has_nan:
                go_right &= ~(np.isnan(x) & self.missing_left[node])
            node = children[2 * node + go_right]
        return out

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}{k}": getattr(self, k) for k in
                ("feature", "threshold", "left", "right", "missing_left", "leaf", "value", "roots")} | {
                f"{prefix}baseline": np.array([self.baseline])}

    @classmethod
    def from_arrays(cls, a, prefix: str) -> TreeScorer:
        return cls(*(a[f"{prefix}{k}"] for k in
                     ("feature", "threshold", "left", "right", "missing_left", "leaf", "value", "roots")),
                   float(a[f"{prefix}baseline"][0]))

    @classmethod
    def from_sklearn(cls, model) -> TreeScorer:
        """Flatten a fitted binary `HistGradientBoostingClassifier` (numeric features only)."""
        if getattr(model, "n_trees_per_iteration_", 1) != 1:
            raise ValueError("only binary gradient boosting can be exported")
        parts, roots, offset = [], [], 0
        for (predictor,) in model._predictors:
            nodes = predictor.nodes
            if nodes["is_categorical"].any():
                raise ValueError("categorical splits cannot be exported")
            parts.append((nodes, offset))
            roots.append(offset)
            offset += len(nodes)
        cat = lambda f: np.concatenate([p[0][f] for p in parts])  # noqa: E731
        shift = np.concatenate([np.full(len(p[0]), p[1]) for p in parts])
        leaf = cat("is_leaf").astype(bool)
        return cls(
            feature=cat("feature_idx").astype(np.int32), threshold=cat("num_threshold").astype(np.float64),
            left=np.where(leaf, 0, cat("left") + shift).astype(np.int32),
            right=np.where(leaf, 0, cat("right") + shift).astype(np.int32),
            missing_left=cat("missing_go_to_left").astype(bool), leaf=leaf,
            value=cat("value").astype(np.float64), roots=np.array(roots, dtype=np.int32),
            baseline=float(np.ravel(model._baseline_prediction)[0]))


SCORERS = {"linear": LinearScorer, "trees": TreeScorer}
ESTIMATORS = ("logreg", "svm", "hgb")


# Keyword arguments of ``logreg`` that the numpy fit below takes; any other goes to scikit-learn.
LOGREG_PARAMS = ("C", "max_iter", "tol")


def standardize(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and scales as scikit-learn's ``StandardScaler().fit(X)`` gives them.

    The scale is the population standard deviation, or 1 for a column that is
    constant up to rounding (StandardScaler's test: the variance is within the
    error bound of the two-pass algorithm), so constant columns divide by 1.
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    mean = X.mean(axis=0) if n else np.zeros(X.shape[1])
    var = X.var(axis=0) if n else np.zeros(X.shape[1])
    eps = np.finfo(np.float64).eps
    constant = var <= n * eps * var + (n * mean * eps) ** 2
    scale = np.sqrt(var)
    scale[constant | ~(scale > 0)] = 1.0
    return mean, scale


def fit_logreg(Z: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None, *, C: float = 1.0,
               max_iter: int = 100, tol: float = 1e-4) -> tuple[np.ndarray, float]:
    """Binary L2 logistic regression with an unpenalised intercept, in numpy and scipy.

    The objective and solver of scikit-learn's ``LogisticRegression(C=C)`` (lbfgs):
    minimise ``sum_i s_i log(1 + exp(-y_i' z_i)) / S + ||w||^2 / (2 C S)``, S the sum
    of the sample weights, by L-BFGS-B from zeros with its options (``gtol=tol``,
    ``maxls=50``, ``ftol=64 eps``), so the coefficients agree to the solver's
    tolerance.  No scikit-learn import: it costs a fresh process some 1-2 s,
    which `stemmer analyze` of a small site should not pay.

    Args:
        Z: the (standardised) features, one row per sample.
        y: two classes; the greater is the positive one (scikit-learn's ``classes_[1]``).
        sample_weight: per sample, > 0; None: all 1.

    Returns:
        (coef, intercept).

    Raises:
        ValueError: y holds fewer or more than two classes.
    """
    from scipy.optimize import minimize
    from scipy.special import expit

    Z = np.asarray(Z, dtype=np.float64)
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"logistic regression needs samples of 2 classes, got {len(classes)}")
    t = (np.asarray(y) == classes[1]).astype(np.float64)
    n, d = Z.shape
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    s_sum = float(s.sum())
    s = s / s_sum
    l2 = 1.0 / (C * s_sum)

    def loss_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w = theta[:d]
        z = Z @ w + theta[d]
        loss = float(s @ (np.logaddexp(0.0, z) - t * z)) + 0.5 * l2 * float(w @ w)
        r = s * (expit(z) - t)
        grad = np.empty(d + 1)
        grad[:d] = Z.T @ r + l2 * w
        grad[d] = r.sum()
        return loss, grad

    res = minimize(loss_grad, np.zeros(d + 1), method="L-BFGS-B", jac=True,
                   options={"maxiter": max_iter, "maxls": 50, "gtol": tol, "ftol": 64 * np.finfo(float).eps})
    if res.status == 1:  # scikit-learn's ConvergenceWarning, without scikit-learn
        import warnings

        warnings.warn(f"logistic regression did not converge in {max_iter} iterations", RuntimeWarning,
                      stacklevel=2)
    return res.x[:d].copy(), float(res.x[d])


def fit_scorer(X: np.ndarray, y: np.ndarray, estimator: str, *, sample_weight=None, random_state: int = 0,
               params: dict | None = None):
    """Fit one estimator and export it as a scorer.

    Args:
        estimator: ``logreg`` (the thesis baseline), ``svm`` (linear SVM, Platt-free: its
            margin goes through the sigmoid) or ``hgb`` (gradient-boosted trees).  ``logreg``
            is fitted in numpy/scipy (`fit_logreg`, scikit-learn's default objective and
            solver) unless `params` names an option other than ``C``, ``max_iter``, ``tol``;
            the others use scikit-learn.
        params: keyword arguments for the estimator.
    """
    params = dict(params or {})
    if sample_weight is not None and not np.all(sample_weight > 0):  # rows of weight 0 only slow the fit
        keep = sample_weight > 0
        X, y, sample_weight = X[keep], y[keep], sample_weight[keep]
    if estimator in ("logreg", "svm"):
        mean, scale = standardize(X)
        Z = (X - mean) / scale
        if estimator == "logreg" and set(params) <= set(LOGREG_PARAMS):
            coef, intercept = fit_logreg(Z, y, sample_weight, C=float(params.get("C", 1.0)),
                                         max_iter=int(params.get("max_iter", 500)),
                                         tol=float(params.get("tol", 1e-4)))
            return LinearScorer(mean, scale, coef, intercept)
        if estimator == "logreg":
            from sklearn.linear_model import LogisticRegression

            est = LogisticRegression(max_iter=params.pop("max_iter", 500), random_state=random_state, **params)
        else:
            from sklearn.svm import LinearSVC

            est = LinearSVC(random_state=random_state, **params)
        est.fit(Z, y, sample_weight=sample_weight)
        return LinearScorer(mean, scale, est.coef_.ravel().astype(np.float64), float(np.ravel(est.intercept_)[0]))
    if estimator == "hgb":
        from sklearn.ensemble import HistGradientBoostingClassifier

        defaults = {"max_iter": 200, "learning_rate": 0.1, "max_leaf_nodes": 31, "early_stopping": False}
        est = HistGradientBoostingClassifier(random_state=random_state, **(defaults | params))
        est.fit(X, y, sample_weight=sample_weight)
        return TreeScorer.from_sklearn(est)
    raise ValueError(f"unknown estimator {estimator!r}; choose one of {', '.join(ESTIMATORS)}")


# --- the second stage: what the blocks around a block think of it -------------------

def context_features(p: np.ndarray, table: PageTable) -> np.ndarray:
    """Per block: its own first-stage probability, its neighbours', and its element's mean and max."""
    n = len(p)
    if n == 0:
        return np.zeros((0, N_CONTEXT))
    cols = [p]
    for d in CONTEXT:
        shifted = np.full(n, -1.0)  # -1: no block there
        lo, hi = max(0, -d), min(n, n - d)
        if hi > lo:
            shifted[lo:hi] = p[lo + d:hi + d]
        cols.append(shifted)
    # Blocks sharing the nearest enclosing element, and sharing its parent.
    for depth in (1, 2):
        keys = [anc[-depth] if len(anc) >= depth else -1 for anc in table.ancestors]
        _, group = np.unique(keys, return_inverse=True)
        count = np.bincount(group)
        top = np.full(len(count), -np.inf)
        np.maximum.at(top, group, p)
        cols += [(np.bincount(group, weights=p) / count)[group], top[group], np.log1p(count)[group]]
    window = np.convolve(np.pad(p, 5, mode="edge"), np.ones(11) / 11, mode="valid")
    cols += [window, np.full(n, p.max()), np.full(n, p.mean())]
    return np.column_stack(cols)


def _beside(base: Path, suffix: str) -> Path:
    """``BASE.json`` / ``BASE.npz``, appended, so that a dotted base (``site.org.model``) keeps its dots."""
    return base.with_name(base.name + suffix)


# --- the classifier ---------------------------------------------------------------------

class BlockClassifier:
    """Main text vs boilerplate for the blocks of a page.

    Args:
        groups: feature groups (see `stemmer.classify.features.GROUPS`).
        estimator: first-stage estimator, ``logreg``, ``svm`` or ``hgb``.
        context: add the second stage (neighbours' probabilities).
        embedder: the text embedder for the ``embed`` group, or None.
        n_tags, n_attrs: vocabulary sizes of ancestor tags and class/id words.
        threshold: least probability of a main-text block.
        params: keyword arguments for the estimator.

    Example:
        >>> clf = BlockClassifier(estimator="logreg").fit(tables, labels)  # doctest: +SKIP
        >>> clf.predict_proba(page_table(parse_html(html)))                # doctest: +SKIP
    """

    def __init__(self, *, groups: Sequence[str] = tuple(g for g in GROUPS if g != "embed"),
                 estimator: str = "hgb", context: bool = True, embedder: Embedder | None = None,
                 n_tags: int = 40, n_attrs: int = 100, threshold: float = 0.5, params: dict | None = None,
                 random_state: int = 0) -> None:
        self.groups = tuple(groups)
        self.estimator = estimator
        self.context = context
        self.embedder = embedder
        self.n_tags = n_tags
        self.n_attrs = n_attrs
        self.threshold = threshold
        self.params = params
        self.random_state = random_state

    # fitting -----------------------------------------------------------------------
    def fit(self, tables: Sequence[PageTable], labels: Sequence[Sequence[int]], *,
            groups_of_pages: Sequence[str] | None = None,
            weights: Sequence[Sequence[float]] | None = None) -> BlockClassifier:
        """Learn vocabularies and both stages from labelled pages.

        Args:
            tables: the training pages.
            labels: per page, 1/0 per block (`stemmer.classify.label`).
            groups_of_pages: per page, its site: the second stage is trained on
                first-stage probabilities predicted across sites (2 site folds),
                as it will see them on new sites.
            weights: per page, a sample weight per block (0: a block without a label).

        Returns:
            self
        """
        if len(tables) != len(labels):
            raise ValueError(f"{len(tables)} pages but {len(labels)} label lists")
        if self.estimator not in ESTIMATORS:
            raise ValueError(f"unknown estimator {self.estimator!r}; choose one of {', '.join(ESTIMATORS)}")
        self.vocab_ = Vocabulary.learn(tables, n_tags=self.n_tags, n_attrs=self.n_attrs)
        self.featurizer_ = Featurizer(self.vocab_, self.groups, self._cached_embedder())
        mats = [self.featurizer_.transform(t) for t in tables]
        ys = [np.asarray(lab, dtype=np.int8) for lab in labels]
        for t, m, lab in zip(tables, mats, ys):
            if len(lab) != m.shape[0]:
                raise ValueError(f"a page has {m.shape[0]} blocks but {len(lab)} labels")
        ws = [np.asarray(w, dtype=np.float64) for w in weights] if weights is not None else None
        self.fit_arrays(mats, ys, tables, sites=groups_of_pages, weights=ws)
        return self

    def fit_arrays(self, mats: Sequence[np.ndarray], ys: Sequence[np.ndarray], tables: Sequence[PageTable],
                   *, sites: Sequence[str] | None = None, weights: Sequence[np.ndarray] | None = None
                   ) -> BlockClassifier:
        """Fit from precomputed feature matrices (one per page); `fit` without the featurizing."""
        X = np.vstack(mats) if mats else np.zeros((0, 0))
        y = np.concatenate(ys) if ys else np.zeros(0)
        if len(set(y.tolist())) < 2:
            raise ValueError("training needs blocks of both classes")
        w = np.concatenate(weights) if weights is not None else None
        self.first_ = fit_scorer(X, y, self.estimator, sample_weight=w, random_state=self.random_state,
                                 params=self.params)
        self.second_ = None
        if self.context:
            probs = self._held_out(mats, ys, weights, sites)
            C = np.vstack([context_features(p, t) for p, t in zip(probs, tables)])
            self.second_ = fit_scorer(C, y, "hgb", sample_weight=w, random_state=self.random_state,
                                      params={"max_iter": 100, "max_leaf_nodes": 15})
        return self

    def _held_out(self, mats, ys, weights, sites) -> list[np.ndarray]:
        """First-stage probabilities of each page from a model not trained on its site."""
        n = len(mats)
        keys = list(sites) if sites is not None else [str(i) for i in range(n)]
        import zlib

        fold = [zlib.crc32(k.encode("utf-8")) % 2 for k in keys]
        out: list[np.ndarray] = [np.zeros(0)] * n
        for f in (0, 1):
            train = [i for i in range(n) if fold[i] != f]
            test = [i for i in range(n) if fold[i] == f]
            if not test:
                continue
            ytr = np.concatenate([ys[i] for i in train]) if train else np.zeros(0)
            if len(set(ytr.tolist())) < 2:
                scorer = self.first_
            else:
                scorer = fit_scorer(np.vstack([mats[i] for i in train]), ytr, self.estimator,
                                    sample_weight=(np.concatenate([weights[i] for i in train])
                                                   if weights is not None else None),
                                    random_state=self.random_state, params=self.params)
            for i in test:
                out[i] = _sigmoid(scorer.decision(mats[i]))
        return out

    def _cached_embedder(self):
        if self.embedder is None or "embed" not in self.groups:
            return None
        return self.embedder if isinstance(self.embedder, CachedEmbedder) else CachedEmbedder(self.embedder)

    # predicting ----------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "first_"):
            raise ModelError("this BlockClassifier is not fitted yet: call fit() or load a model")

    def predict_proba(self, table: PageTable) -> np.ndarray:
        """The probability that each block of the page is main text (an empty array for no blocks)."""
        self._check_fitted()
        X = self.featurizer_.transform(table)
        return self.proba_from_features(X, table)

    def proba_from_features(self, X: np.ndarray, table: PageTable) -> np.ndarray:
        """`predict_proba` from a precomputed feature matrix."""
        if X.shape[0] == 0:
            return np.zeros(0)
        p = _sigmoid(self.first_.decision(X))
        if self.second_ is not None:
            p = _sigmoid(self.second_.decision(context_features(p, table)))
        return p

    def predict(self, table: PageTable) -> np.ndarray:
        """1 for each main-text block, 0 for the others."""
        return (self.predict_proba(table) >= self.threshold).astype(np.int8)

    # saving --------------------------------------------------------------------------
    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``PATH.json`` and ``PATH.npz`` (a suffix of `path` is dropped).

        Returns:
            The two paths.
        """
        self._check_fitted()
        from stemmer.version import __version__

        base = Path(path)
        base = base.with_suffix("") if base.suffix in (".json", ".npz") else base
        meta = {
            "format": FORMAT, "version": VERSION, "stemmer": __version__, "numpy": np.__version__, "estimator": self.estimator, "groups": list(self.featurizer_.groups),
            "embedder": self.featurizer_.embedder.name if self.featurizer_.embedder is not None else None,
            "embed_dim": self.featurizer_.embedder.dim if self.featurizer_.embedder is not None else 0,
            "threshold": self.threshold, "n_features": self.featurizer_.n_features,
            "vocab": {"tags": list(self.vocab_.tags), "attrs": list(self.vocab_.attrs)},
            "first": self.first_.kind, "second": self.second_.kind if self.second_ is not None else None,
            "info": getattr(self, "info_", {}),
        }
        # scikit-learn's version only where it fitted a part (a numpy logreg needs none; never import it here).
        if (self.estimator != "logreg" or self.second_ is not None) and "sklearn" in sys.modules:
            meta["sklearn"] = sys.modules["sklearn"].__version__
        arrays = self.first_.arrays("first_")
        if self.second_ is not None:
            arrays |= self.second_.arrays("second_")
        base.parent.mkdir(parents=True, exist_ok=True)
        json_path, npz_path = _beside(base, ".json"), _beside(base, ".npz")
        with atomic_output(npz_path) as out:
            np.savez_compressed(out, **arrays)
        write_atomic(json_path, json.dumps(meta, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        return json_path, npz_path

    @classmethod
    def load(cls, path: str | Path, *, embedder: Embedder | None = None) -> BlockClassifier:
        """Read a model written by `save` (give either file, or the path without suffix).

        Args:
            embedder: overrides the embedder named in the file (tests inject a fake one).

        Raises:
            ModelError: a file is missing, not valid JSON/npz, of another format or
                version, or its arrays do not fit its description.
        """
        base = Path(path)
        base = base.with_suffix("") if base.suffix in (".json", ".npz") else base
        json_path, npz_path = _beside(base, ".json"), _beside(base, ".npz")
        try:
            meta = json.loads(json_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ModelError(f"{json_path}: classifier model file not found") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ModelError(f"{json_path}: not a classifier model file ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ModelError(f"{json_path}: not a classifier model file (format is not {FORMAT!r})")
        if meta.get("version") != VERSION:
            raise ModelError(f"{json_path}: classifier model version {meta.get('version')} is not supported "
                             f"({VERSION}); retrain it or upgrade stemmer")
        try:
            with np.load(npz_path, allow_pickle=False) as npz:
                arrays = {k: npz[k] for k in npz.files}
        except FileNotFoundError:
            raise ModelError(f"{npz_path}: classifier model arrays not found") from None
        except (OSError, ValueError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
            raise ModelError(f"{npz_path}: corrupt classifier model arrays ({exc})") from None
        try:
            clf = cls(groups=meta["groups"], estimator=meta["estimator"], context=meta["second"] is not None,
                      threshold=float(meta["threshold"]))
            if embedder is None and meta.get("embedder"):
                embedder = embedder_from_name(meta["embedder"])
            clf.embedder = embedder
            clf.vocab_ = Vocabulary(tuple(meta["vocab"]["tags"]), tuple(meta["vocab"]["attrs"]))
            clf.featurizer_ = Featurizer(clf.vocab_, clf.groups, clf._cached_embedder())
            clf.first_ = SCORERS[meta["first"]].from_arrays(arrays, "first_")
            clf.second_ = (SCORERS[meta["second"]].from_arrays(arrays, "second_")
                           if meta["second"] is not None else None)
            clf.info_ = meta.get("info", {})
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ModelError(f"{json_path}: classifier model is incomplete or inconsistent ({exc!r})") from None
        if clf.featurizer_.n_features != meta.get("n_features"):
            raise ModelError(f"{json_path}: the model expects {meta.get('n_features')} features but its "
                             f"feature groups give {clf.featurizer_.n_features}")
        clf._validate_arrays(json_path)
        return clf

    def _validate_arrays(self, where: Path) -> None:
        """Catch arrays that do not fit the features before they index out of range."""
        n1 = self.featurizer_.n_features
        n2 = N_CONTEXT
        for scorer, n in ((self.first_, n1), (self.second_, n2)):
            if scorer is None:
                continue
            ok = True
            if isinstance(scorer, LinearScorer):
                ok = scorer.coef.shape == (n,) and scorer.mean.shape == (n,) and scorer.scale.shape == (n,)
            else:
                m = len(scorer.feature)
                ok = (all(len(a) == m for a in (scorer.threshold, scorer.left, scorer.right,
                                                scorer.missing_left, scorer.leaf, scorer.value))
                      and bool(np.all((scorer.feature[~scorer.leaf] >= 0) & (scorer.feature[~scorer.leaf] < n)))
                      and bool(np.all((scorer.left >= 0) & (scorer.left < m) & (scorer.right >= 0)
                                      & (scorer.right < m)))
                      and bool(np.all((scorer.roots >= 0) & (scorer.roots < m))))
            if not ok:
                raise ModelError(f"{where}: classifier model arrays do not match its {n} features")
