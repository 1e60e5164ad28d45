"""The learned-site decision: a layout of few pages leans on the classifier, one of many decides alone."""
import random

import pytest

from stemmer import Page, analyze, extract
from stemmer.extract.decide import CLASSIFIER_PAGES, SlotEvidence, decides_alone, is_main

NOUNS = ("bridge", "budget", "festival", "station", "forest", "ferry", "chapel", "library", "mill", "harbour",
         "market", "school", "museum", "railway", "garden", "council", "village", "river", "hospital", "theatre")
PEOPLE = ("the mayor", "a local teacher", "the harbour master", "residents", "the museum's director", "farmers",
          "our reporter", "the railway company", "two nurses", "the head of the chamber of commerce")
VERBS = ("said on Tuesday that", "argued in a letter that", "told the meeting that", "announced that",
         "warned last week that", "explained to readers that", "confirmed that", "hopes that")
FATES = ("would close for repairs until {month}", "had lost {n} percent of its funding",
         "will reopen with {n} new staff in {month}", "is to be sold to a company from {town}",
         "needs {n} volunteers before {month}", "drew {n} visitors from {town} last year")
MONTHS = ("March", "April", "May", "June", "July", "September", "October", "November")
TOWNS = ("Ashford", "Bexley", "Carlow", "Dunmore", "Elmstead", "Fairholme", "Glenrock", "Hartwell")


WORDS = ("quietly", "yesterday", "despite", "weather", "kitchen", "window", "journey", "winter", "question",
         "answer", "neighbours", "evening", "morning", "through", "beyond", "against", "without", "crowded",
         "empty", "narrow", "ancient", "modern", "careful", "sudden", "plans", "costs", "delays", "roads", "boats",
         "trains", "letters", "pupils", "doctors", "shops", "fields", "walls", "roofs", "lights", "streets")


def sentence(rng: random.Random) -> str:
    fate = rng.choice(FATES).format(n=rng.randint(2, 90), month=rng.choice(MONTHS), town=rng.choice(TOWNS))
    extra = " ".join(rng.sample(WORDS, rng.randint(3, 7)))
    return f"{rng.choice(PEOPLE).capitalize()} {rng.choice(VERBS)} the {rng.choice(NOUNS)} {fate}, {extra}."


def paragraph(rng: random.Random, n: int) -> str:
    return " ".join(sentence(rng) for _ in range(n))


def lede_page(i: int, rng: random.Random) -> tuple[Page, str]:
    """A news article whose first paragraph sits in its own wrapper (an intro box) before the body's."""
    lede = f"{rng.choice(TOWNS).upper()}, {rng.choice(MONTHS)} {rng.randint(1, 28)}: {paragraph(rng, 2)}"
    body = "".join(f"<p>{paragraph(rng, 4)}</p>" for _ in range(rng.randint(3, 5)))
    headline = " ".join(rng.choice(("Storm", "Budget", "Ferry", "Festival", "Mill", "Library", "Bridge", "Vote",
                                    "Chapel", "Market", "Plan", "Row")) for _ in range(4))
    html = (f'<html><head><title>{headline} | The Daily</title></head><body>'
            f'<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>'
            f'<article><h1>{headline}</h1><div class="article-intro"><p>{lede}</p></div>'
            f'<div class="article-body">{body}</div></article>'
            f'<footer><p>The Daily, 1 Mill Lane. All rights reserved.</p></footer></body></html>')
    url = f"https://daily.example/news/{i}"
    return Page(url, url, "daily.example", html), lede


@pytest.fixture(scope="module")
def lede_site():
    rng = random.Random(7)
    return [lede_page(i, rng) for i in range(9)]


def test_a_lede_in_its_own_wrapper_is_kept_on_a_layout_learned_from_three_pages(lede_site):
    pages = [p for p, _ in lede_site]
    patterns = analyze(pages[:3], site_model=False)
    [layout] = patterns.get("daily.example").layouts
    # Three pages saw the intro box vary outside the body's element: a varying slot, not main text.
    intro = next(s for s in layout.sections if "article-intro" in s.key)
    assert intro.role == "sub"
    for (page, lede), result in zip(lede_site[3:], extract(pages[3:], patterns)):
        assert result.matched
        assert lede in result.text.split("\n")
        assert "All rights reserved" not in result.text


def test_without_a_classifier_the_layout_decides_alone(lede_site):
    pages = [p for p, _ in lede_site]
    patterns = analyze(pages[:3], site_model=False)
    for (page, lede), result in zip(lede_site[3:], extract(pages[3:], patterns, fallback=None)):
        assert result.matched and lede not in result.text


def test_a_slot_seen_on_many_pages_decides_alone_and_few_pages_lean_on_the_classifier():
    many = SlotEvidence("sub", 1.0, int(CLASSIFIER_PAGES) + 1, True)
    few = SlotEvidence("sub", 1.0, 3, True)
    assert decides_alone(many, False)
    assert not is_main(many, False, True)
    assert not decides_alone(few, False)
    assert is_main(few, False, True)
    assert not is_main(few, False, False)
    # A slot on a third of its layout's pages has a third of their weight.
    rare = SlotEvidence("sub", 1 / 3, 3 * int(CLASSIFIER_PAGES), True)
    assert not decides_alone(rare, False)
    # The layout's main slots and its static and title slots stand whatever the classifier says.
    assert is_main(SlotEvidence("main", 1.0, 3, True), True, False)
    assert decides_alone(SlotEvidence("static", 1.0, 2, True), False)
    assert decides_alone(SlotEvidence("title", 1.0, 2, True), False)


def test_the_classifier_is_not_asked_on_a_page_of_a_layout_with_many_pages(lede_site, monkeypatch):
    from stemmer.extract import decide

    pages = [p for p, _ in lede_site]
    patterns = analyze(pages[:3], site_model=False)
    monkeypatch.setattr(decide, "CLASSIFIER_PAGES", 2.0)  # three pages now outweigh the classifier
    asked = []
    from stemmer.extract.fallback import Fallback

    class Counting(Fallback):
        def layout_decision(self, table, **learned):
            inner = super().layout_decision(table, **learned)
            return lambda: asked.append(1) or inner()

    results = list(extract(pages[3:], patterns, fallback=Counting()))
    assert all(r.matched for r in results) and not asked


def old_design_page(i: int, rng: random.Random) -> Page:
    """The site before its redesign: the article in a table cell, no intro box."""
    body = "".join(f"<p>{paragraph(rng, 3)}</p>" for _ in range(rng.randint(3, 5)))
    headline = " ".join(rng.choice(("Harbour", "Council", "Roof", "Train", "School", "Fair")) for _ in range(4))
    html = (f'<html><head><title>{headline} | The Daily</title></head><body><table><tr><td class="menu">'
            f'<a href="/">Home</a></td><td class="story"><h2>{headline}</h2>{body}</td></tr></table></body></html>')
    url = f"https://daily.example/old/{i}"
    return Page(url, url, "daily.example", html)


def test_a_layout_update_learns_from_a_new_crawls_few_pages_follows_the_same_decision(lede_site):
    from stemmer import update

    rng = random.Random(3)
    old = analyze([old_design_page(i, rng) for i in range(8)], site_model=False, date="2026-01-01")
    pages = [p for p, _ in lede_site]
    grown = update(pages[:3], old, date="2026-06-01", site_model=False).patterns
    new = [lay for lay in grown.get("daily.example").layouts if lay.first_seen == "2026-06-01"]
    assert [lay.pages for lay in new] == [3]
    for (page, lede), result in zip(lede_site[3:], extract(pages[3:], grown)):
        assert result.matched and result.pattern == new[0].id
        assert lede in result.text.split("\n")
