from collections import defaultdict

import pytest

from stemmer.blocks import parse_html, segment
from stemmer.cluster import KeyMaker, layout_sequence
from stemmer.cluster.similarity import repeats


def layout_sequences(htmls: list[str]) -> list[list[int]]:
    """The expanded layout sequences of pages of one site, built as analyze builds them."""
    pages = [segment(parse_html(h)) for h in htmls]
    keymaker = KeyMaker.learn(pages)
    page_keys = [[keymaker.key(b.path) for b in p.blocks] for p in pages]
    letters = defaultdict(list)
    for page, keys in zip(pages, page_keys):
        per_key = defaultdict(int)
        for key, block in zip(keys, page.blocks):
            per_key[key] += block.weight
        for key, weight in per_key.items():
            letters[key].append(weight)
    ids = {k: i for i, k in enumerate(sorted(letters))}
    reps = {k: repeats(sum(v) / len(v)) for k, v in letters.items()}
    return [layout_sequence(keys, ids, reps) for keys in page_keys]


@pytest.fixture
def sequences():
    return layout_sequences
