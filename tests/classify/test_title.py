from stemmer.blocks import parse_html
from stemmer.classify.features import page_table
from stemmer.classify.title import choose_title


def title_of(html):
    root = parse_html(html)
    return choose_title(page_table(root), root)[0]


def test_a_heading_that_agrees_with_the_title_element():
    assert title_of("<html><head><title>Storm hits coast | Daily News</title></head><body>"
                    "<h2>Weather</h2><h1>Storm hits coast</h1><p>text</p></body></html>") == "Storm hits coast"


def test_without_title_element_or_og_title_the_first_h1_that_is_not_a_link():
    assert title_of("<html><body><h1><a href='/'>Daily News</a></h1><h1>Storm hits coast</h1>"
                    "<p>text</p></body></html>") == "Storm hits coast"
    assert title_of("<html><body><h2>Only a subheading</h2><p>text</p></body></html>") is None
