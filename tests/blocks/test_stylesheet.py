"""The compiled stylesheet scans (stemmer.blocks._stylesheet) read what their Python twins read, on random
stylesheets and on the ``<style>`` elements of the pages of ../shared/data (every 40th page; skipped where absent)."""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from stemmer.blocks import parse

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"

compiled = pytest.mark.skipif(parse._stylesheet is None, reason="the compiled stylesheet scan is not built")


def assert_same_scans(css: str) -> None:
    if (low := parse._lower_case(css)) is None:  # CASE_TRAPS: the Python twins alone read it
        return
    assert parse._stylesheet.may_hide_pop_up(css) == parse._may_hide_pop_up(css, low), css
    assert parse._stylesheet.declaration_rules(css) == parse._declaration_rules(css, low), css
    assert parse._hidden_pop_ups(css, compiled=True) == parse._hidden_pop_ups(css, low), css


@compiled
def test_the_compiled_scans_read_random_stylesheets_as_the_python_twins():
    pieces = ["{", "}", "{", "}", ".modal", "#cookie-bar", ".x", " ", ",", "display:none", "display: Block", "DISPLAY :\tNone",
              "visibility:hidden", "VISIBILITY:visible", "visibility:collapse", "@media x", ".modal.open", "a", ";",
              ".Login", "display:NONE", "div .popup", ".sign-in_x", "#\u00e9modal", ".pop\u2014up", "\u3000", "\xa0",
              "\x1c", "display:\u3000none", "display:display:block", "display:nonex", "display:\u00e9", "display:1",
              "visibility: visiblex", ".news\U0001F600letter", ".\u0660gdpr", "dv", "dI", "Vi", "data:d;base64,ddvv"]
    rng = random.Random(11)
    for _ in range(20_000):
        assert_same_scans("".join(rng.choice(pieces) for _ in range(rng.randint(0, 16))))


def _data_styles() -> list[str]:
    styles = []
    for pages in sorted(DATA.glob("*/pages.jsonl.gz")) if DATA.is_dir() else []:
        with gzip.open(pages, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f):
                if n % 40 == 0 and (root := parse.parse_html(json.loads(line)["html"])) is not None:
                    styles += [style.text for style in root.iter("style") if style.text]
    return styles


@compiled
@pytest.mark.skipif(not DATA.is_dir(), reason=f"no data sets in {DATA}")
def test_the_compiled_scans_read_the_data_sets_stylesheets_as_the_python_twins():
    styles = _data_styles()
    assert len(styles) > 100
    for css in styles:
        assert_same_scans(css)
    joined = parse._without_comments("\n".join(styles[:50]), None)[0]
    assert_same_scans(joined)
