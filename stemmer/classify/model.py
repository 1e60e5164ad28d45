"""BlockClassifier: main text vs boilerplate per block, in two stages.

The first stage classifies each block from its own features (a scorer,
`stemmer.classify.scorers`); the second (optional) sees the first's
probabilities of the blocks around it and of its enclosing elements
(`stemmer.classify.stacking`), and decides again.  Prediction needs only
numpy; a model is saved as plain arrays (`stemmer.classify.model_file`).
Classifiers follow scikit-learn's conventions: `fit` returns self, learned
attributes end in ``_``.
"""
from __future__ import annotations

import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from stemmer.classify.embed import CachedEmbedder, Embedder, embedder_from_name
from stemmer.classify.features import DEFAULT_GROUPS, Featurizer, PageTable, Vocabulary
from stemmer.classify.model_file import read_model_files, write_model_files
from stemmer.classify.scorers import ESTIMATORS, SCORERS, TreeScorer, fit_scorer, sigmoid
from stemmer.classify.stacking import N_CONTEXT, context_features
from stemmer.errors import ModelError

class BlockClassifier:
    """Main text vs boilerplate for the blocks of a page.

    Args:
        groups: feature groups (see `stemmer.classify.features.GROUPS`; default `DEFAULT_GROUPS`).
        estimator: first-stage estimator, ``logreg``, ``svm`` or ``hgb``.
        context: add the second stage (neighbours' probabilities).
        embedder: the text embedder for the ``embed`` group, or None.
        n_tags, n_attrs: vocabulary sizes of ancestor tags and class/id words.
        threshold: least probability of a main-text block.
        params: keyword arguments for the estimator.
        bags: first-stage trees fitted on this many bootstrap samples of the sites and
            averaged (one tree scorer, their trees summed with 1/bags weights): a
            model that varies less with the pages it happened to see.

    Example:
        >>> clf = BlockClassifier(estimator="logreg").fit(tables, labels)  # doctest: +SKIP
        >>> clf.predict_proba(page_table(parse_html(html)))                # doctest: +SKIP
    """

    def __init__(self, *, groups: Sequence[str] = DEFAULT_GROUPS,
                 estimator: str = "hgb", context: bool = True, embedder: Embedder | None = None,
                 n_tags: int = 40, n_attrs: int = 100, threshold: float = 0.5, params: dict | None = None,
                 bags: int = 1, random_state: int = 0) -> None:
        self.groups = tuple(groups)
        self.estimator = estimator
        self.context = context
        self.embedder = embedder
        self.n_tags = n_tags
        self.n_attrs = n_attrs
        self.threshold = threshold
        self.params = params
        self.bags = bags
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
        y = np.concatenate(ys) if ys else np.zeros(0)
        if len(set(y.tolist())) < 2:
            raise ValueError("training needs blocks of both classes")
        if self.bags > 1 and self.estimator != "hgb":
            raise ValueError("bags > 1 needs the hgb estimator")
        w = np.concatenate(weights) if weights is not None else None
        keys = list(sites) if sites is not None else [str(i) for i in range(len(mats))]
        self.first_ = self._fit_first(mats, ys, weights, keys, list(range(len(mats))))
        self.second_ = None
        if self.context:
            probs = self._held_out(mats, ys, weights, keys)
            C = np.vstack([context_features(p, t) for p, t in zip(probs, tables)])
            self.second_ = fit_scorer(C, y, "hgb", sample_weight=w, random_state=self.random_state,
                                      params={"max_iter": 100, "max_leaf_nodes": 15})
        return self

    def _fit_first(self, mats, ys, weights, keys, pages: list[int]):
        """The first stage fitted on `pages`: one estimator, or `bags` trees on bootstrap samples of the sites."""
        def fit(count: dict[int, int], seed: int):
            idx = [i for i in pages if count.get(i)]
            w = None if weights is None and self.bags <= 1 else np.concatenate(
                [(weights[i] if weights is not None else np.ones(len(ys[i]))) * count[i] for i in idx])
            return fit_scorer(np.vstack([mats[i] for i in idx]), np.concatenate([ys[i] for i in idx]),
                              self.estimator, sample_weight=w, random_state=seed, params=self.params)

        if self.bags <= 1:
            return fit(dict.fromkeys(pages, 1), self.random_state)
        by_site: dict[str, list[int]] = {}
        for i in pages:
            by_site.setdefault(keys[i], []).append(i)
        names = sorted(by_site)
        rng = np.random.default_rng(self.random_state)
        scorers = []
        for b in range(self.bags):
            count: dict[int, int] = {}
            for s in rng.choice(len(names), size=len(names), replace=True):
                for i in by_site[names[s]]:
                    count[i] = count.get(i, 0) + 1
            if len({int(v) for i in count for v in np.unique(ys[i])}) < 2:
                count = dict.fromkeys(pages, 1)  # a sample of one class: fall back to every page
            scorers.append(fit(count, self.random_state + b))
        return TreeScorer.mean(scorers)

    def _held_out(self, mats, ys, weights, keys) -> list[np.ndarray]:
        """First-stage probabilities of each page from a model not trained on its site."""
        n = len(mats)
        fold = [zlib.crc32(k.encode("utf-8")) % 2 for k in keys]
        out: list[np.ndarray] = [np.zeros(0)] * n
        for f in (0, 1):
            train = [i for i in range(n) if fold[i] != f]
            test = [i for i in range(n) if fold[i] == f]
            if not test:
                continue
            ytr = np.concatenate([ys[i] for i in train]) if train else np.zeros(0)
            scorer = self.first_ if len(set(ytr.tolist())) < 2 else self._fit_first(mats, ys, weights, keys, train)
            for i in test:
                out[i] = sigmoid(scorer.decision(mats[i]))
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
        p = sigmoid(self.first_.decision(X))
        if self.second_ is not None:
            p = sigmoid(self.second_.decision(context_features(p, table)))
        return p

    def predict(self, table: PageTable) -> np.ndarray:
        """1 for each main-text block, 0 for the others."""
        return (self.predict_proba(table) >= self.threshold).astype(np.int8)

    # saving --------------------------------------------------------------------------
    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``PATH.json`` and ``PATH.npz`` atomically (a suffix of `path` is dropped).

        Returns:
            The two paths.
        """
        self._check_fitted()
        from stemmer.version import package_version

        emb = self.featurizer_.embedder
        meta = {
            "stemmer": package_version(), "numpy": np.__version__, "estimator": self.estimator,
            "groups": list(self.featurizer_.groups), "embedder": emb.name if emb is not None else None,
            "embed_dim": emb.dim if emb is not None else 0, "threshold": self.threshold,
            "n_features": self.featurizer_.n_features,
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
        return write_model_files(path, meta, arrays)

    @classmethod
    def load(cls, path: str | Path, *, embedder: Embedder | None = None) -> BlockClassifier:
        """Read a model written by `save` (give either file, or the path without suffix).

        Args:
            embedder: overrides the embedder named in the file (tests inject a fake one).

        Raises:
            ModelError: a file is missing, not valid JSON/npz, of another format or
                version, or its arrays do not fit its description.
        """
        meta, arrays, json_path = read_model_files(path)
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
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ModelError(f"{json_path}: classifier model is incomplete or inconsistent ({exc!r})") from None
        n = clf.featurizer_.n_features
        if n != meta.get("n_features"):
            raise ModelError(f"{json_path}: the model expects {meta.get('n_features')} features but its "
                             f"feature groups give {n}")
        if not clf.first_.fits(n) or (clf.second_ is not None and not clf.second_.fits(N_CONTEXT)):
            raise ModelError(f"{json_path}: classifier model arrays do not match its {n} features")
        return clf
