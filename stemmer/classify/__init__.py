"""The block classifier: main text vs boilerplate per block, for pages and blocks no pattern covers.

Nothing here imports scikit-learn (only `BlockClassifier.fit` does) or torch
(only a sentence-transformers embedder, when it first encodes).
"""
from stemmer.classify.embed import (CachedEmbedder, Embedder, HashingEmbedder, SentenceTransformerEmbedder,
                                    StaticEmbedder)
from stemmer.classify.features import GROUPS, Featurizer, PageTable, Vocabulary, page_table
from stemmer.classify.label import align, label_blocks
from stemmer.classify.model import BlockClassifier
from stemmer.classify.title import choose_title

__all__ = [
    "GROUPS", "BlockClassifier", "CachedEmbedder", "Embedder", "Featurizer", "HashingEmbedder", "PageTable",
    "SentenceTransformerEmbedder", "StaticEmbedder", "Vocabulary", "align", "choose_title", "label_blocks",
    "page_table",
]
