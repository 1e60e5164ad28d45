"""Scorers: a fitted estimator as plain arrays, and the decision it computes from them with numpy only.

A linear scorer (logistic regression, linear SVM) is a scaler and
coefficients; a tree scorer is the flattened trees of scikit-learn's
``HistGradientBoostingClassifier``.  `fit_scorer` fits one of the estimators
and exports it, so prediction never needs scikit-learn and a saved model is
numbers, never code.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from stemmer.classify.logreg import LOGREG_PARAMS, fit_logreg, standardize

# The module, whose WALKER benchmarks may switch: STEMMER_WALKER=python also means numpy's tree walk.
_segment = importlib.import_module("stemmer.blocks.segment")

try:
    from stemmer.classify import _trees
except ImportError:  # no compiler at install time: numpy walks the trees, to the same sums
    _trees = None


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


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

    def fits(self, n_features: int) -> bool:
        """Whether the arrays describe a scorer of `n_features` inputs."""
        return self.coef.shape == self.mean.shape == self.scale.shape == (n_features,)

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
        """The sum of the trees' leaf values per sample: in C where built, else with numpy."""
        if _trees is not None and _segment.WALKER == "compiled":
            out = np.empty(X.shape[0])
            # float32 features go as they are (no float64 copy of the matrix)
            X = np.ascontiguousarray(X, dtype=np.float32 if X.dtype == np.float32 else np.float64)
            self._packed().decide(X, out)
            return out
        return self._numpy_decision(X)

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_trees"}  # the compiled tables are rebuilt

    def _packed(self):
        """The compiled decision's tables (`_trees.Trees`), built on first use (the arrays are not changed after)."""
        packed = self.__dict__.get("_trees")
        if packed is None:
            packed = self.__dict__["_trees"] = _trees.Trees(
                *(np.ascontiguousarray(a, dtype=t) for a, t in (
                    (self.feature, np.int32), (self.threshold, np.float64), (self.left, np.int32),
                    (self.right, np.int32), (self.missing_left.view(np.uint8), np.uint8),
                    (self.leaf.view(np.uint8), np.uint8), (self.value, np.float64), (self.roots, np.int32))),
                self.baseline)
        return packed

    def _numpy_decision(self, X: np.ndarray) -> np.ndarray:
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

    def fits(self, n_features: int) -> bool:
        """Whether the node arrays agree and every index lies in range (else a walk would index out of it)."""
        m = len(self.feature)
        inner = ~self.leaf
        return (all(len(a) == m for a in (self.threshold, self.left, self.right, self.missing_left, self.leaf,
                                          self.value))
                and bool(np.all((self.feature[inner] >= 0) & (self.feature[inner] < n_features)))
                and bool(np.all((self.left >= 0) & (self.left < m) & (self.right >= 0) & (self.right < m)))
                and bool(np.all((self.roots >= 0) & (self.roots < m))))

    @classmethod
    def from_arrays(cls, a, prefix: str) -> TreeScorer:
        return cls(*(a[f"{prefix}{k}"] for k in
                     ("feature", "threshold", "left", "right", "missing_left", "leaf", "value", "roots")),
                   float(a[f"{prefix}baseline"][0]))

    @classmethod
    def mean(cls, scorers: list[TreeScorer]) -> TreeScorer:
        """One scorer whose decision is the mean of the scorers' decisions (their trees, values / n)."""
        offsets = np.cumsum([0] + [len(s.feature) for s in scorers[:-1]])
        cat = lambda f: np.concatenate([getattr(s, f) for s in scorers])  # noqa: E731
        shift = np.concatenate([np.full(len(s.feature), o) for s, o in zip(scorers, offsets)]).astype(np.int32)
        leaf = cat("leaf")
        return cls(feature=cat("feature"), threshold=cat("threshold"),
                   left=np.where(leaf, 0, cat("left") + shift).astype(np.int32),
                   right=np.where(leaf, 0, cat("right") + shift).astype(np.int32),
                   missing_left=cat("missing_left"), leaf=leaf, value=cat("value") / len(scorers),
                   roots=np.concatenate([s.roots + o for s, o in zip(scorers, offsets)]).astype(np.int32),
                   baseline=float(np.mean([s.baseline for s in scorers])))

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
