import pytest

from stemmer.blocks import parse_html, segment
from stemmer.cluster import KeyMaker
from stemmer.layout.learn import site_sequences


def layout_sequences(htmls: list[str]) -> list[list[int]]:
    """The expanded layout sequences of pages of one site, built as analyze builds them."""
    pages = [segment(parse_html(h)) for h in htmls]
    return site_sequences(pages, KeyMaker.learn(pages))[1]


@pytest.fixture
def sequences():
    return layout_sequences
