"""The general path of extract: a block classifier for pages (and blocks) no pattern covers.

`Fallback` wraps a `BlockClassifier`: given a parsed page it labels every
block main text or not and picks a title, and returns an `Extraction` with
method ``classifier`` and each block's probability as its confidence.  The
model loads on first use, so an extract whose pages all match a layout never
reads it, and nothing here imports torch unless the model's embedder needs it.
"""
from __future__ import annotations

import logging
from pathlib import Path

from stemmer.errors import ModelError
from stemmer.extract.apply import ExtractedBlock, Extraction

log = logging.getLogger("stemmer")

GENERIC = "generic"
GENERIC_PATH = Path(__file__).resolve().parents[1] / "classify" / "generic" / "model.json"


class Fallback:
    """Extraction by the block classifier.

    Args:
        model: a fitted `BlockClassifier`, a model path (``.json``/``.npz`` or
            without suffix), or ``"generic"`` for the model shipped with stemmer.
    """

    def __init__(self, model="generic") -> None:
        self._spec = model
        self._clf = None if isinstance(model, (str, Path)) else model

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

    def extract(self, page_id: str, url: str | None, site: str, root, similarity: float = 0.0) -> Extraction:
        """Title and main text of one parsed page by the classifier.

        Args:
            root: the page's lxml root (`parse_html`), or None for an empty page.
            similarity: the page's similarity to its site's best layout, kept in the record.

        Returns:
            An `Extraction` with method ``classifier`` (no blocks for a page without text).
        """
        from stemmer.classify.features import page_table
        from stemmer.classify.title import choose_title

        clf = self.classifier
        table = page_table(root)
        probs = clf.predict_proba(table)
        title, title_at = choose_title(table, root)
        out = []
        for i, (b, p) in enumerate(zip(table.blocks, probs)):
            p = float(p)
            if p >= clf.threshold:
                out.append(ExtractedBlock("main", -1, b.text, b.tag, "classifier", round(p, 4)))
            elif i == title_at:
                out.append(ExtractedBlock("title", -1, b.text, b.tag, "classifier", round(p, 4)))
        return Extraction(page_id, url, site, False, None, round(similarity, 4), title, tuple(out),
                          "classifier")


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
                 similarity: float = 0.0) -> Extraction | None:
    """`Fallback.extract`, or None (with a warning) when this one page breaks it.

    A model that cannot load is the run's error (ModelError propagates); a page
    that trips the classifier is one unmatched page, not a crashed run.
    """
    try:
        return fallback.extract(page_id, url, site, root, similarity)
    except ModelError:
        raise
    except (ValueError, IndexError, MemoryError, RecursionError, FloatingPointError) as exc:
        log.warning("classifier failed on %s: %s", page_id, exc)
        return None
