"""Issue 43, mechanisms 1 and 7: teaser lists kept beside an article, and text hidden by a `hide` class.

The teaser cases give `page_blocks` the probabilities the shipped model gave such lists on
blind news pages (the article's paragraphs about 0.9, a "latest" or "related" list's
headlines and excerpts 0.4 to 0.55): the list sits in the article's own container with
no unchosen block between them, so the region step saw one run.
"""
import numpy as np

from stemmer.blocks import parse_html
from stemmer.classify.features import page_table
from stemmer.extract.decide import page_blocks, shape_path, teaser_lists
from stemmer.extract.fallback import Fallback

PARAS = [
    "The council agreed on Monday to repair the old stone bridge before the winter storms arrive, "
    "after engineers found cracks in two of its five arches during a routine inspection in August.",
    "Work is due to start in October and should take about six weeks, during which the bridge will be "
    "closed to cars and lorries, although pedestrians and cyclists will still be able to cross it.",
    "The repairs will cost the town about two hundred thousand pounds, most of it paid from a national "
    "fund for historic structures, and the rest from the council's own budget for roads and paths.",
]
TEASERS = [
    ("Council approves new cycle lanes on the high street",
     "The lanes will run from the station to the market square and should open in the spring."),
    ("School choir wins the regional contest for a third year",
     "Forty pupils sang at the final in the city hall on Saturday evening before a full house."),
    ("Library to stay open later on Thursdays from next month",
     "The change follows a survey in which most readers asked for longer opening hours."),
    ("Farmers market moves to the old railway yard",
     "Stallholders say the new site has more room and better parking for their visitors."),
    ("Football club appoints a new coach for its youth teams",
     "The former captain will train the under-twelves and the under-fourteens from next season."),
]
THRESHOLD = 0.35


def teaser_items(numbered: bool = False) -> str:
    return "".join(f'<div class="teaser{f" teaser-{k}" if numbered else ""}"><p><a href="/news/{k}">{h}</a></p>'
                   f"<p>{e}</p></div>" for k, (h, e) in enumerate(TEASERS))


def table_of(body: str):
    html = ("<html><head><title>Bridge to be repaired</title></head><body>"
            "<nav><a href=/>Home</a> <a href=/news>News</a></nav><h1>Bridge to be repaired</h1>"
            f"{body}<footer><p>Copyright 2026 The Town Paper.</p></footer></body></html>")
    return page_table(parse_html(html))


def probs_for(table, teaser: float, article: float = 0.9) -> np.ndarray:
    """The article's paragraphs at `article`, the teasers' headlines and excerpts at `teaser`, the rest 0.05."""
    teasers = {t for pair in TEASERS for t in pair} | {"Latest news"}
    return np.array([article if b.text in PARAS else teaser if b.text in teasers else 0.05 for b in table.blocks])


def kept_text(table, probs) -> str:
    return "\n".join(b.text for b, c in zip(table.blocks, page_blocks(table, probs, THRESHOLD)) if c)


def test_a_latest_news_list_right_after_the_article_in_its_own_container_goes():
    table = table_of('<div class="story">' + "".join(f"<p>{p}</p>" for p in PARAS)
                     + "<h3>Latest news</h3>" + teaser_items() + "</div>")
    text = kept_text(table, probs_for(table, teaser=0.5))
    assert all(p in text for p in PARAS)
    assert not any(h in text or e in text for h, e in TEASERS)


def test_teaser_excerpts_outweighing_a_short_article_do_not_take_its_place():
    table = table_of('<div class="story">' + f"<p>{PARAS[0]}</p></div>"
                     + '<div class="most-read">' + teaser_items(numbered=True) + "</div>")
    text = kept_text(table, probs_for(table, teaser=0.45))
    assert PARAS[0] in text
    assert not any(e in text for _, e in TEASERS)


def test_a_listing_of_teasers_the_model_is_sure_of_stays():
    # a front page of posts, or an article's list of linked sections: the model scores them as the rest
    table = table_of('<div class="story">' + "".join(f"<p>{p}</p>" for p in PARAS) + teaser_items() + "</div>")
    text = kept_text(table, probs_for(table, teaser=0.85))
    assert all(h in text and e in text for h, e in TEASERS)
    # and a page of teasers beside its headline alone is a listing, whatever the model's doubt: never emptied
    table = table_of("<h2>Latest news</h2>" + teaser_items())
    probs = probs_for(table, teaser=0.5)
    probs[[b.tag == "h1" for b in table.blocks]] = 0.9
    text = kept_text(table, probs)
    assert all(h in text and e in text for h, e in TEASERS)


def test_items_numbered_or_hashed_in_their_classes_are_one_list():
    table = table_of(teaser_items(numbered=True))
    lists = teaser_lists(table, np.ones(len(table.blocks), dtype=bool))
    assert len(lists) == 1 and len(lists[0]) == 2 * len(TEASERS)
    assert shape_path(("div.card#card-14", "h2")) == shape_path(("div.card#card-7", "h2")) == ("div.card#card-", "h2")
    assert shape_path(("div.post#post-12",)) != shape_path(("div.post#comment-12",))


SLIDES = [
    "Photographs from the archive show the bridge when it carried the tram line across the river to the mills.",
    "In the great flood of 1953 the water rose almost to the top of the arches and the bridge was closed for weeks.",
    "The last big repair, in the 1970s, replaced the parapets and put in the iron ties that hold the arches today.",
    "A plan to replace the bridge with a concrete one was dropped in 1985 after a campaign by the walking group.",
]


def test_a_slideshow_in_a_hide_container_is_not_read():
    slides = "".join(f'<div class="slide"><img src="/s{k}.jpg"><p>{s}</p></div>' for k, s in enumerate(SLIDES))
    html = ("<html><head><title>Bridge to be repaired</title></head><body><h1>Bridge to be repaired</h1>"
            f'<div class="gallery hide">{slides}</div>'
            f'<div class="story"><p>{PARAS[0]}</p></div></body></html>')
    table = page_table(parse_html(html))
    assert not any(s in b.text for b in table.blocks for s in SLIDES)
    text = Fallback("generic").extract("p", None, "town.example", parse_html(html)).text
    assert PARAS[0] in text and not any(s in text for s in SLIDES)
    # a class that merely holds the word (`hider`, `hide-on-print`) hides nothing
    shown = html.replace('class="gallery hide"', 'class="gallery hide-on-print"')
    assert all(any(s in b.text for b in page_table(parse_html(shown)).blocks) for s in SLIDES)


# Issue 43, mechanism 5: a listing's cards, numbered in their classes, some scored under the threshold.
RECIPES = [f"{n} Easy Dinner Recipes To Make With a Rotisserie Chicken, Number {k}" for k, n in
           enumerate((5, 7, 10, 12, 15, 17, 20, 25, 29, 30))]


def test_a_listings_cards_numbered_in_their_classes_stay_after_one_under_the_threshold():
    cards = "".join(f'<div class="card card-{k}"><h3><a href="/r{k}">{t}</a></h3><p>By Ann Lee, 5 min</p></div>'
                    for k, t in enumerate(RECIPES))
    table = table_of(f'<div class="card-list">{cards}</div>')
    # the first four cards above the threshold, the fifth under it, the rest's headlines above and bylines under
    probs = np.full(len(table.blocks), 0.05)
    for i, b in enumerate(table.blocks):
        if b.text in RECIPES:
            k = RECIPES.index(b.text)
            probs[i] = 0.3 if k == 4 else 0.5
            probs[i + 1] = 0.4 if k < 4 else 0.3
    text = kept_text(table, probs)
    assert all(t in text for k, t in enumerate(RECIPES) if k != 4)


def test_the_first_items_of_a_list_in_the_articles_run_do_not_bring_the_rest_of_it():
    # a "most watched" list right after a short article: its first two items in the article's run
    items = "".join(f'<li class="ol{k}"><h3><a href="/v{k}">Play {t}</a></h3></li>' for k, t in enumerate(RECIPES))
    table = table_of('<div class="story">' + "".join(f"<p>{p}</p>" for p in PARAS) + "</div>"
                     f'<div class="most-watched"><ol>{items}</ol></div>')
    probs = np.array([0.9 if b.text in PARAS else 0.05 for b in table.blocks])
    for i, b in enumerate(table.blocks):
        if b.text.startswith("Play "):
            probs[i] = 0.3 if RECIPES.index(b.text[5:]) == 2 else 0.45
    text = kept_text(table, probs)
    assert all(p in text for p in PARAS)
    assert not any(t in text for k, t in enumerate(RECIPES) if k > 2)
