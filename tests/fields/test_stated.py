"""Built-in fields: the image, tags and categories a page states, on every page whatever read it."""
import json

import stemmer
from stemmer.cli import main
from stemmer.blocks import parse_html
from stemmer.fields.stated import stated_fields
from stemmer.outputs import DriftStats

from tests.fields.test_label import HOST, PRODUCT


def _page(head: str = "", body: str = "<article><p>Some words of the page.</p></article>"):
    return parse_html(f"<html><head>{head}</head><body>{body}</body></html>")


def test_image_tags_and_categories_from_metas():
    root = _page('<meta property="og:image" content="/img/lead.jpg">'
                 '<meta property="article:tag" content="Energy"><meta property="article:tag" content="Solar &amp; wind">'
                 '<meta property="article:section" content="Science">')
    assert stated_fields(root, "https://blog.example/posts/1.html") == {
        "image": "https://blog.example/img/lead.jpg", "tags": ["Energy", "Solar & wind"], "categories": ["Science"]}


def test_json_ld_gives_them_where_metas_do_not():
    ld = {"@context": "https://schema.org", "@type": "BlogPosting", "headline": "x",
          "image": {"@type": "ImageObject", "url": "https://cdn.example/a.png"},
          "keywords": "parkour, training,  Parkour", "articleSection": ["Sport", "Outdoor"]}
    root = _page(f'<script type="application/ld+json">{json.dumps(ld)}</script>')
    assert stated_fields(root) == {"image": "https://cdn.example/a.png", "tags": ["parkour", "training"],
                                   "categories": ["Sport", "Outdoor"]}


def test_body_image_is_the_articles_first_large_one_not_an_icon():
    body = ('<header><img src="/banner.jpg"></header><article><img src="/icons/share.png">'
            '<img src="/thumb.jpg" width="64" height="64"><img src="/photo.jpg" width="800"><p>Text.</p></article>')
    assert stated_fields(_page(body=body)) == {"image": "/photo.jpg"}
    assert stated_fields(_page(body="<div><img src='/photo.jpg'><p>Text</p></div>")) == {}


def test_every_page_gets_them_and_a_named_slot_of_the_same_name_wins(tmp_path):
    page = ('<html><head><meta property="og:image" content="https://x.example/a.jpg">'
            '<meta property="article:tag" content="Stated"></head><body><p>A page of nobody\'s layout, '
            'long enough to be read by the classifier as the main text of the page.</p></body></html>')
    assert stemmer.extract_html(page, "https://x.example/p.html").fields == {
        "image": "https://x.example/a.jpg", "tags": ["Stated"]}
    out = tmp_path / "patterns"
    assert main(["analyze", "-q", str(PRODUCT.parents[2]), "-o", str(out)]) == 0
    labelled = stemmer.label(out, PRODUCT, {"tags": "Energy"}).patterns
    [ex] = stemmer.extract(stemmer.read_pages(str(PRODUCT)), labelled, fallback=None)
    assert ex.fields["tags"] == ["Energy", "Outdoor", "Made locally"]  # the slot's, not the page's statement
    assert ex.fields["image"] == f"https://{HOST}/media/classic-knife-block.jpg"  # og:image
    drift = DriftStats(labelled)
    drift.add(ex)
    assert drift.to_json()["sites"][HOST]["fields"] == {"L0": {"tags": {"pages": 1, "empty": 0, "empty_share": 0.0}}}
