"""The classifier's say on a matched page: the generic model's decision on the page as it is."""
import numpy as np

from stemmer.blocks import parse_html
from stemmer.classify.features import page_table
from stemmer.extract.decide import page_blocks
from stemmer.extract.fallback import Fallback
from stemmer.layout.noise import NoiseLibrary, entry

GUIDELINES = "Comments must stay within our community guidelines and may be no longer than two thousand characters."
PAGE = f"""<html><body><div id="main"><h1>Ferry timetable changes</h1>
<p>The harbour master said on Tuesday that the winter ferry would run twice a day until March.</p>
<p>Residents told the meeting that the morning crossing was the one they needed most.</p>
<p>{GUIDELINES}</p></div><div id="foot"><p>Home</p></div></body></html>"""


class ByText:
    """A stand-in classifier: a block is main text where its text is long, and the page's context
    counts: on a page with blocks missing (the noise library dropped first) it rates every block lower."""

    threshold = 0.5

    def __init__(self, blocks: int):
        self.blocks = blocks

    def predict_proba(self, table):
        whole = len(table.blocks) == self.blocks
        return np.array([(0.9 if whole else 0.4) if len(b.text) > 40 else 0.1 for b in table.blocks])


def test_the_classifier_reads_a_matched_page_as_it_is_not_after_the_noise_library():
    # A site's fixed text (its comment guidelines) is in its noise library; the generic model
    # reading the page as it is keeps it and the body, as it does for a site never analyzed.
    table = page_table(parse_html(PAGE.encode()))
    guidelines = next(i for i, b in enumerate(table.blocks) if b.text == GUIDELINES)
    noise = NoiseLibrary("example.org", (entry(table.blocks[guidelines]),))
    assert table.blocks[guidelines] in noise
    clf = ByText(len(table.blocks))
    decided = Fallback(clf).layout_decision(table, noise=noise, model=None)()
    whole = page_blocks(table, clf.predict_proba(table), clf.threshold)
    assert list(decided) == list(whole)
    assert decided[guidelines]
    body = [i for i, b in enumerate(table.blocks) if b.text.startswith(("The harbour", "Residents"))]
    assert all(decided[i] for i in body)
