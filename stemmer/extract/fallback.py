"""The general path of extract: a block classifier for pages (and blocks) no pattern covers.

`Fallback` wraps a `BlockClassifier`: given a parsed page it labels every
block main text or not and picks a title, and returns an `Extraction` with
method ``classifier`` and each block's probability as its confidence.  The
model loads on first use, so an extract whose pages all match a layout never
reads it, and nothing here imports torch unless the model's embedder needs it.
"""
from __future__ import annotations

import bisect
import logging
from pathlib import Path

import numpy as np

from stemmer.errors import ModelError
from stemmer.extract.apply import ExtractedBlock, Extraction
from stemmer.extract.decide import page_blocks

log = logging.getLogger("stemmer")

GENERIC = "generic"
# Blocks of a matched page that its layout lacks: "container" (the layout's main-text
# container rule, apply.py), "classifier" or "either"; chosen with benchmarks/layouts.py.
UNKNOWN_MODES = ("container", "classifier", "either")
UNKNOWN_DEFAULT = "container"
GENERIC_PATH = Path(__file__).resolve().parents[1] / "classify" / "generic" / "model.json"
# A site's own model and noise library, where analyze left them: chosen with
# benchmarks/site_fallback.py on the multi-page dev sets (see docs/classifier.md).
SITE_MODELS_DEFAULT = True
NOISE_MODES = ("generic", "always", "never")
NOISE_DEFAULT = "generic"


class Fallback:
    """Extraction by the block classifier.

    Args:
        model: a fitted `BlockClassifier`, a model path (``.json``/``.npz`` or
            without suffix), or ``"generic"`` for the model shipped with stemmer.
        unknown_blocks: how a matched page's blocks that its layout lacks are
            decided (`UNKNOWN_MODES`).
        site_models: use a site's own model (`SitePatterns.model`) for its pages
            instead of `model`, where the site has one.
        noise: when the blocks of a site's common-noise library are dropped before
            classifying (`NOISE_MODES`): ``generic`` (only before `model`; a site
            model learned the site's noise itself, and does better on the page as it is),
            ``always`` or ``never``.
    """

    def __init__(self, model="generic", *, unknown_blocks: str = UNKNOWN_DEFAULT,
                 site_models: bool = SITE_MODELS_DEFAULT, noise: str = NOISE_DEFAULT) -> None:
        if unknown_blocks not in UNKNOWN_MODES:
            raise ValueError(f"unknown_blocks must be one of {', '.join(UNKNOWN_MODES)}, got {unknown_blocks!r}")
        if noise not in NOISE_MODES:
            raise ValueError(f"noise must be one of {', '.join(NOISE_MODES)}, got {noise!r}")
        self._spec = model
        self._clf = None if isinstance(model, (str, Path)) else model
        self.unknown_blocks = unknown_blocks
        self.site_models = site_models
        self.noise = noise
        self._site_clfs: dict[str, object] = {}

    @property
    def classifier(self):
        """The `BlockClassifier`, loaded on first use.

        Raises:
            ModelError: the model file is missing or corrupt.
        """
        if self._clf is None:
            from stemmer.classify.model import BlockClassifier

            path = GENERIC_PATH if str(self._spec) == GENERIC else Path(self._spec)
            self._clf = BlockClassifier.load(path)
        return self._clf

    def classifier_for(self, site_model=None):
        """The site's own classifier where it has one (a model or its path), else `classifier`.

        A site model file that cannot be read costs a warning (once), and the
        site's pages go to `classifier`.
        """
        if site_model is None or not self.site_models:
            return self.classifier
        if not isinstance(site_model, (str, Path)):
            return site_model
        key = str(site_model)
        if key not in self._site_clfs:
            from stemmer.classify.model import BlockClassifier

            try:
                self._site_clfs[key] = BlockClassifier.load(site_model)
            except ModelError as exc:
                log.warning("%s; using the generic model for this site", exc)
                self._site_clfs[key] = None
        return self._site_clfs[key] or self.classifier

    def _noise_for(self, clf, noise):
        """The noise library to apply before `clf`, or None."""
        if noise is None or self.noise == "never" or (self.noise == "generic" and clf is not self.classifier):
            return None
        return noise

    @staticmethod
    def _kept(table, noise):
        """The indexes of the blocks not in the noise library (all without one)."""
        if noise is None:
            return range(len(table.blocks))
        return [i for i, b in enumerate(table.blocks) if b not in noise]

    def extract(self, page_id: str, url: str | None, site: str, root, similarity: float = 0.0, *,
                noise=None, model=None, table=None, pattern: str | None = None, signals=None) -> Extraction:
        """Title and main text of one parsed page by the classifier.

        The site's own model reads the page where it has one; where it keeps
        nothing of a page with text beyond its title (`Extraction.body_blocks`:
        the headline alone), the generic model reads it instead: a site model
        never leaves empty a page that the generic model reads
        (docs/classifier.md, "When the site model keeps nothing").

        Args:
            root: the page's lxml root (`parse_html`), or None for an empty page.
            similarity: the page's similarity to its site's best layout, kept in the record.
            noise: the site's `NoiseLibrary`: its blocks are boilerplate without asking the model.
            model: the site's own model or its path (`SitePatterns.model`), or None.
            table: the page's `page_table(root)` where the caller walked the page already.
            pattern: the layout the classifier stands in for (one that matched but gave no main text).
            signals: a function giving the page's `page_signals`, for its title (`choose_title`).

        Returns:
            An `Extraction` with method ``classifier`` (no blocks for a page without text).
        """
        if table is None:
            from stemmer.classify.features import page_table

            table = page_table(root)
        clf = self.classifier_for(model)
        title, blocks = self._read(clf, table, root, noise, signals)
        result = Extraction(page_id, url, site, False, pattern, round(similarity, 4), title, blocks, "classifier")
        if clf is not self.classifier and table.blocks and next(result.body_blocks(), None) is None:
            title, blocks = self._read(self.classifier, table, root, noise, signals)
            result = Extraction(page_id, url, site, False, pattern, round(similarity, 4), title, blocks, "classifier")
        return result

    def _read(self, clf, table, root, noise, signals=None) -> tuple[str | None, tuple[ExtractedBlock, ...]]:
        """The page's title and its title and main blocks, as `clf` decides them."""
        from stemmer.classify.title import choose_title

        kept = self._kept(table, self._noise_for(clf, noise))
        if len(kept) < len(table.blocks):
            table = table.subset(kept)
        probs = clf.predict_proba(table)
        title, title_at = choose_title(table, root, signals=signals)
        # A site model learned its site's regions from the patterns' labels; the region
        # rules are for a model that never saw the site (they cost the site models on
        # benchmarks/site_fallback.py, see docs/classifier.md).
        chosen = page_blocks(table, probs, clf.threshold, regions=clf is self._clf)
        shown = np.flatnonzero(chosen).tolist()  # the main blocks and the title's, in page order
        if title_at is not None and not chosen[title_at]:
            bisect.insort(shown, title_at)
        out = []
        for i in shown:
            b = table.blocks[i]
            out.append(ExtractedBlock("main" if i != title_at or chosen[i] else "title", -1, b.text, b.tag,
                                      "classifier", round(float(probs[i]), 4), kept[i]))
        return title, tuple(out)

    def unknown_rule(self, table, layout, keymaker, *, noise=None, model=None):
        """For `apply_layout(unknown=...)`: how a matched page's blocks that no slot knows are decided.

        Returns None (the container rule alone) unless `unknown_blocks` is
        ``classifier`` (the classifier alone) or ``either`` (main if the
        container rule or the classifier says so).  `table` is the page's
        `page_table`; it is classified only when the page has such a block;
        blocks of the site's noise library are never main text here.
        """
        if self.unknown_blocks == "container":
            return None
        container = layout.container
        clf = self.classifier_for(model)
        noise = self._noise_for(clf, noise)
        probs: list = []

        def decide(i: int, b) -> ExtractedBlock | None:
            if noise is not None and b in noise:
                return None
            if not probs:
                probs.append(self._page_probs(table, noise, clf))
            p, threshold = probs[0]
            if p is not None and i < len(p) and p[i] >= threshold:
                return ExtractedBlock("main", -1, b.text, b.tag, "classifier", round(float(p[i]), 4), i)
            if (self.unknown_blocks == "either" and container and b.anchor_weight * 2 <= b.weight
                    and keymaker.within(b.path, container)):
                return ExtractedBlock("main", -1, b.text, b.tag, "container", index=i)
            return None

        return decide

    def layout_decision(self, table, *, noise=None, model=None):
        """For `apply_layout(classified=...)`: a function giving the generic classifier's page decision
        on a matched page (`page_blocks`), None where it fails.

        The generic model, not the site's own: a site model learned its labels from
        the very layouts whose few pages the classifier is asked to weigh.  It reads
        the page as it is, as it reads a page of a site never analyzed: the site's
        noise library is not dropped first, which would leave the model's context
        features (its neighbours' texts and tags) reading a page with holes it never
        saw in training; the layout's static slots already keep that noise out.
        Under site-grouped CV (`benchmarks/decision.py`) 26 of 27 folds choose this
        reading; it is the one "generic alone" in `benchmarks/layouts.py` gives.
        `noise` and `model` are accepted (and not used) so that the site's learned keywords pass as they are.
        """
        def decided():  # the model is loaded here, on the first page that asks: most matched pages never do
            clf = self.classifier
            probs, threshold = self._page_probs(table, None, clf)
            if probs is None:
                return None
            return page_blocks(table, probs, threshold)

        return decided

    def _page_probs(self, table, noise, clf):
        """`clf`'s probabilities for all the page's blocks (0 for noise) and its threshold.

        The probabilities are None if the classifier fails on this page.
        """
        try:
            kept = self._kept(table, noise)
            probs = np.zeros(len(table.blocks))
            probs[list(kept)] = clf.predict_proba(table.subset(kept) if len(kept) < len(table.blocks) else table)
            return probs, clf.threshold
        except ModelError:
            raise
        except (ValueError, IndexError, MemoryError, RecursionError, FloatingPointError) as exc:
            log.warning("classifier failed on a matched page: %s", exc)
            return None, clf.threshold


def load_fallback(model) -> Fallback | None:
    """A `Fallback` for ``extract(..., fallback=...)``: None, a `Fallback`, a classifier, ``"generic"`` or a path.

    Raises:
        ModelError: a path that does not exist.
    """
    if model is None or model is False:
        return None
    if isinstance(model, Fallback):
        return model
    if isinstance(model, (str, Path)) and str(model) != GENERIC:
        base = Path(model)
        if not (base.exists() or base.with_suffix(".json").exists()):
            raise ModelError(f"{model}: classifier model file not found")
    return Fallback(model)


def safe_extract(fallback: Fallback, page_id: str, url: str | None, site: str, root,
                 similarity: float = 0.0, **learned) -> Extraction | None:
    """`Fallback.extract`, or None (with a warning) when this one page breaks it.

    A model that cannot load is the run's error (ModelError propagates); a page
    that trips the classifier is one unmatched page, not a crashed run.
    `learned`: `Fallback.extract`'s keywords (the site's noise and model, the page's table, ...).
    """
    try:
        return fallback.extract(page_id, url, site, root, similarity, **learned)
    except ModelError:
        raise
    except (ValueError, IndexError, MemoryError, RecursionError, FloatingPointError) as exc:
        log.warning("classifier failed on %s: %s", page_id, exc)
        return None
