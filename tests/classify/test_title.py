import json

import numpy as np
import pytest

from stemmer.blocks import parse_html
from stemmer.classify import title as title_module
from stemmer.classify.features import page_table
from stemmer.classify.scorers import LinearScorer
from stemmer.classify.title import FEATURES, choose_title, title_model

SERVICE = ("<html><head><title>Data Analytics Services | Luxoft</title>"
           "<meta property='og:title' content='Data Analytics Services | Luxoft'>"
           "<meta property='og:type' content='website'><meta property='og:site_name' content='Luxoft'></head><body>"
           "<nav><a href='/'>Home</a></nav><h1>Unlock the value of your data</h1>"
           "<p>We help companies turn data into decisions with analytics platforms.</p>"
           "<h2>Our services</h2><p>Consulting and engineering.</p></body></html>")
ARTICLE = ("<html><head><title>Storm hits coast | Daily News</title>"
           "<meta property='og:title' content='Storm hits coast'><meta property='og:type' content='article'>"
           "<meta property='article:published_time' content='2024-03-05'></head><body>"
           "<h2>Weather</h2><h1>Storm hits coast</h1><p>The storm hit the coast on Tuesday.</p></body></html>")


def title_of(html, **kw):
    root = parse_html(html)
    return choose_title(page_table(root), root, **kw)


def test_a_heading_that_agrees_with_the_title_element():
    assert title_of("<html><head><title>Storm hits coast | Daily News</title></head><body>"
                    "<h2>Weather</h2><h1>Storm hits coast</h1><p>text</p></body></html>")[0] == "Storm hits coast"


def test_without_title_element_or_og_title_the_first_h1_that_is_not_a_link():
    assert title_of("<html><body><h1><a href='/'>Daily News</a></h1><h1>Storm hits coast</h1>"
                    "<p>text</p></body></html>")[0] == "Storm hits coast"
    assert title_of("<html><body><h2>Only a subheading</h2><p>text</p></body></html>")[0] is None


def test_the_learned_choice_keeps_an_articles_headline_block():
    assert title_of(ARTICLE) == ("Storm hits coast", 1)


def test_the_learned_choice_takes_a_service_pages_whole_title_over_a_slogan_heading():
    # The rule takes the h1 (it overlaps nothing, but is the only h1); the page's <title> and
    # og:title agree on the whole text, site name included: the gold of such pages in mceb.
    assert title_of(SERVICE) == ("Data Analytics Services | Luxoft", None)


def test_a_page_that_states_no_title_of_its_own_keeps_the_rule():
    prefer_whole_title = LinearScorer(np.zeros(len(FEATURES)), np.ones(len(FEATURES)),
                                      np.eye(len(FEATURES))[FEATURES.index("src_head")] * 10, 0.0)
    plain = SERVICE.replace("<meta property='og:title' content='Data Analytics Services | Luxoft'>", "")
    assert title_of(plain, model=prefer_whole_title)[0] == "Unlock the value of your data"
    assert title_of(SERVICE, model=prefer_whole_title)[0] == "Data Analytics Services | Luxoft"


def test_a_model_file_of_other_features_is_refused(tmp_path, monkeypatch):
    spec = {"features": ["src_head"], "mean": [0], "scale": [1], "coef": [1], "intercept": 0}
    (tmp_path / "title_model.json").write_text(json.dumps(spec))
    monkeypatch.setattr(title_module, "MODEL_PATH", tmp_path / "title_model.json")
    title_model.cache_clear()
    try:
        with pytest.raises(ValueError, match="retrain"):
            title_model()
    finally:
        title_model.cache_clear()


def test_extract_reads_the_pages_statements_once_for_title_date_and_author(monkeypatch):
    import stemmer
    from stemmer import api

    def not_here(*a, **kw):
        raise AssertionError("the title step read the page's statements again")

    calls = []
    read = api.page_signals
    monkeypatch.setattr(title_module, "page_signals", not_here)
    monkeypatch.setattr(api, "page_signals", lambda *a, **kw: calls.append(1) or read(*a, **kw))
    got = stemmer.extract_html(ARTICLE, "https://news.example/2024/03/05/storm")
    assert (got.title, got.date) == ("Storm hits coast", "2024-03-05")
    assert len(calls) == 1


def test_a_date_in_the_url_is_not_a_page_feature():
    # The model was trained on pages read without their URL: a date in the URL must not change its features.
    from stemmer.metadata import page_signals

    root = parse_html(ARTICLE.replace("<meta property='article:published_time' content='2024-03-05'>", ""))
    table = page_table(root)
    sources = title_module.TitleSources.read(table, page_signals(root))
    rule = title_module.rule_title(table, sources)[0]
    rows = []
    for url in (None, "https://news.example/2024/03/05/storm"):
        signals = page_signals(root, url)
        cands = title_module.title_candidates(table, signals, sources)
        rows.append(title_module.candidate_features(table, signals, sources, cands, rule))
    assert rows[0][:, FEATURES.index("p_has_date")].max() == 0
    assert np.array_equal(rows[0], rows[1])


def test_a_title_that_a_code_block_holds_with_its_spacing_is_in_a_block():
    root = parse_html("<html><head><title>Storm  hits coast | Daily News</title>"
                      "<meta property='og:title' content='Storm hits coast'></head><body>"
                      "<pre>  Storm   hits coast</pre><pre>Weather</pre><p>text of the page</p></body></html>")
    table = page_table(root)
    assert title_module._in_blocks(table, {"storm hits coast", "daily news", "weather"}) == {
        "storm hits coast", "weather"}


def test_a_heading_escaped_twice_is_a_candidate_as_a_reader_sees_it():
    from stemmer.metadata import page_signals

    root = parse_html("<html><head><title>12 Tools for 2026 | Python, SQL &amp; AI | Splunk</title>"
                      "<meta property='og:title' content='12 Tools for 2026 | Python, SQL &amp; AI | Splunk'>"
                      "</head><body><h1>12 Tools for 2026 | Python, SQL &amp;#x26; AI</h1><p>text</p></body></html>")
    table = page_table(root)
    signals = page_signals(root)
    cands = title_module.title_candidates(table, signals, title_module.TitleSources.read(table, signals))
    part = cands["12 tools for 2026 | python, sql & ai"]
    assert part.sources == {"headpart", "h1"} and part.block == 0
    assert not any("&#" in c.text for c in cands.values())


def test_compiled_title_blocks_equal_the_python_ones():
    if title_module._compiled_title_blocks is None:
        pytest.skip("the compiled text statistics are not built")
    html = ("<html><head><title>A | B</title></head><body><div class='post'><h2>Post title</h2><p>Text.</p>"
            "<div class='entry-title'><span>Entry</span></div></div><h1 class='x'>Head</h1><h5>Small</h5>"
            "<header><div id='headline'><p>Line</p><b>bold</b></div></header><h3><a href=/>Linked</a></h3>"
            "<hgroup><p>no</p></hgroup><p class='title'>Titled</p>tail text</body></html>")
    table = page_table(parse_html(html))
    titled, tags = title_module._compiled_title_blocks(table.blocks, table.ancestors, table.elements,
                                                       title_module.TITLE_WORDS, title_module._HEADING_TAGS)
    assert (titled, tags) == title_module._title_blocks(table.blocks, table.ancestors, table.elements)
    assert titled and set(tags.values()) == {"h1", "h2", "h3"}


def test_the_words_of_an_ascii_text_are_the_regexs():
    import random
    import string

    rng = random.Random(5)
    sources = title_module.TitleSources.read(page_table(parse_html("<p>x</p>")))
    for _ in range(3000):
        text = "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 30)))
        assert sources.words(text) == frozenset(title_module._WORD.findall(text.lower())), text
