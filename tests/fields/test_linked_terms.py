"""Tags and categories from a layout's varying link slots, and the stated ones carried by the page's signals."""
import json
import random

import stemmer
from stemmer import Page
from stemmer.blocks import parse_html
from stemmer.metadata import page_signals

WORDS = ("river stone bridge lantern harbour meadow orchard quarry tunnel signal window ladder garden "
         "market engine cellar valley summit canal forest").split()
TOPICS = ["Hiking", "Rivers", "Bridges", "Night walks", "Maps", "Weather"]


def _post(k: int, rng: random.Random, tags: list[str], *, stated: bool = False) -> Page:
    category = ["Walks", "Trips", "Gear"][k % 3]
    def sentence(m: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(m)).capitalize() + "."
    links = " ".join(f"<a href='/tags/{t.lower().replace(' ', '-')}/' rel='tag'>{t}</a>" for t in tags)
    cloud = "".join(f"<li><a href='/tags/{t.lower().replace(' ', '-')}/'>{t}</a></li>" for t in TOPICS)
    head = "".join(f"<meta property='article:tag' content='{t}'>" for t in tags[:1]) if stated else ""
    html = (f"<html><head><title>Post {k}</title>{head}</head><body><div id='main'><article class='post'>"
            f"<h1>{sentence(4)[:-1]}</h1><div class='entry-content'>"
            + "".join(f"<p>{sentence(14)} {sentence(10)}</p>" for _ in range(3))
            + f"</div><footer class='entry-footer'><p class='tags'>Tags: {links}</p>"
            f"<p class='cat'>Filed under <a href='/category/{category.lower()}/' rel='category tag'>{category}</a></p>"
            "</footer>"
            f"<div class='more-area'><a class='more' href='/tags/{tags[0].lower().replace(' ', '-')}/'>more ...</a></div>"
            f"</article><aside class='sidebar'><h3>All tags</h3><ul class='tag-cloud'>{cloud}</ul></aside>"
            "</div></body></html>")
    return Page(f"p{k}", f"https://walks.example/posts/{k}.html", "walks.example", html)


def _site(n: int = 10) -> list[Page]:
    rng = random.Random(7)
    return [_post(k, rng, rng.sample(TOPICS, 2 + k % 3), stated=k == n - 1) for k in range(n)]


def test_tags_and_categories_from_a_repeated_link_slot_not_the_tag_cloud():
    pages = _site()
    patterns = stemmer.analyze(pages[:8], site_model=False)
    out = list(stemmer.extract(pages[8:], patterns, fallback=None))
    assert all(ex.matched for ex in out)
    first = out[0]
    shown = [a.split(">")[1].split("<")[0] for a in pages[8].html.split("<p class='tags'>Tags: ")[1]
             .split("</p>")[0].split("</a>") if ">" in a]
    # not the cloud, which lists every topic, nor "more ..." beside the first tag's name
    assert first.fields["tags"] == shown and len(shown) < len(TOPICS)
    assert first.fields["categories"] == ["Gear"]
    # A page that states a tag gives it first, then the ones its slot shows, each once.
    last = out[1]
    stated = pages[9].html.split("article:tag' content='")[1].split("'")[0]
    assert last.fields["tags"][0] == stated and len(last.fields["tags"]) == len(set(last.fields["tags"]))


def test_a_page_no_layout_reads_gives_only_what_it_states():
    page = _site()[0]
    ex = stemmer.extract_html(page.html, page.url)
    assert "tags" not in ex.fields and "categories" not in ex.fields


def test_page_signals_carry_the_stated_image_tags_and_categories():
    ld = {"@context": "https://schema.org", "@type": "BlogPosting", "headline": "x",
          "image": ["https://cdn.example/a.png"], "keywords": ["parkour", "Training, parkour"],
          "articleSection": "Sport"}
    root = parse_html("<html><head><meta property='og:image' content='/lead.jpg'>"
                      "<meta name='article:tag' content=' Solar &amp; wind '>"
                      f"<script type='application/ld+json'>{json.dumps(ld)}</script></head><body><p>x</p></body></html>")
    signals = page_signals(root, "https://blog.example/a.html")
    assert signals.images == ("/lead.jpg", "https://cdn.example/a.png")
    assert signals.tags == ("Solar & wind", "parkour", "Training")
    assert signals.categories == ("Sport",)
