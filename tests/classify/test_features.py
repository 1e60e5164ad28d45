import numpy as np
import pytest

from stemmer.blocks import parse_html, segment
from stemmer.classify.features import GROUPS, Featurizer, Vocabulary, feature_names, page_table
from stemmer.classify.embed import HashingEmbedder

from .conftest import article


def test_page_table_has_exactly_the_blocks_of_segment(html):
    pages = [article(1)[0], html('<div>a<br>b<p>c <a href="x">d</a></p>e</div><script>x</script>', title="T"),
             "<p>loose <b>text</b></p>tail", "",
             html('<div style="display:none"><p>Register now</p></div><p class=hidden>gone</p><p>shown</p>'
                  '<pre>1\n2\n3</pre><pre>x = 1<br>y = 2</pre>'),
             html('<div hidden><p>a script shows this long text</p></div><p>x</p>')]  # nearly all hidden: kept
    for page in pages:
        root = parse_html(page)
        assert page_table(root).page == segment(root)


def test_page_table_counts_links_and_images_per_block(html):
    t = page_table(parse_html(html('<p><img src="i.png">Photo <a href="/a">one</a> <a href="/b">two</a></p>'
                                   '<div><img src="j.png"></div><p>plain</p>')))
    assert [b.text for b in t.blocks] == ["Photo one two", "plain"]
    assert t.links == [2, 0] and t.images == [1, 0]


def test_feature_matrix_has_one_row_per_block_and_named_columns(labelled):
    tables, _, _ = labelled
    vocab = Vocabulary.learn(tables, n_tags=5, n_attrs=4)
    assert len(vocab.tags) == 5 and len(vocab.attrs) == 4
    emb = HashingEmbedder(8)
    fz = Featurizer(vocab, GROUPS, emb)
    X = fz.transform(tables[0])
    assert X.shape == (len(tables[0].blocks), fz.n_features) == (len(tables[0].blocks),
                                                                 len(feature_names(vocab, GROUPS, 8)))
    assert X.dtype == np.float32 and np.isfinite(X).all()


@pytest.mark.parametrize("group", GROUPS)
def test_each_group_can_be_switched_off(labelled, group):
    tables, _, _ = labelled
    vocab = Vocabulary.learn(tables, n_tags=5, n_attrs=4)
    full = Featurizer(vocab, GROUPS, HashingEmbedder(8))
    less = Featurizer(vocab, [g for g in GROUPS if g != group], HashingEmbedder(8))
    assert less.n_features < full.n_features
    assert less.transform(tables[0]).shape[1] == less.n_features


def test_unknown_group_is_a_value_error_listing_the_groups():
    with pytest.raises(ValueError, match="pos, tags"):
        Featurizer(Vocabulary(), ["pos", "colour"])


def test_page_with_no_text_gives_no_rows(html):
    fz = Featurizer(Vocabulary(("div",), ("nav",)), GROUPS, HashingEmbedder(8))
    for page in (html(""), html('<div><img src="a.png"></div>'), ""):
        assert fz.transform(page_table(parse_html(page))).shape == (0, fz.n_features)


def test_a_one_megabyte_block_is_featurized_quickly(html):
    import time

    big = html("<p>" + "word " * 200_000 + "</p><p>small</p>")
    t = page_table(parse_html(big))
    fz = Featurizer(Vocabulary(("p",), ()), GROUPS, HashingEmbedder(8))
    start = time.perf_counter()
    X = fz.transform(t)
    assert X.shape[0] == 2 and np.isfinite(X).all()
    assert time.perf_counter() - start < 2.0


def test_the_vocabulary_does_not_depend_on_the_process_hash_seed():
    """Ties among equally common words must not fall by set order (site models differed between -j runs)."""
    import subprocess
    import sys

    code = ("from stemmer.blocks import parse_html\n"
            "from stemmer.classify.features import Vocabulary, page_table\n"
            "html = '<html><body>' + ''.join(f'<div class=\"w{i} x{i}\"><p>text {i}</p></div>' for i in range(40))"
            " + '</body></html>'\n"
            "print(Vocabulary.learn([page_table(parse_html(html))], n_tags=2, n_attrs=5))\n")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": str(seed), "PATH": ""}).stdout for seed in (1, 2, 3)}
    assert len(outs) == 1


def test_blocks_inside_an_element_named_as_an_article_body_are_marked():
    html = ('<body><div class="sidebar"><p>About the author of this blog, a long box of text.</p></div>'
            '<div class="post-body entry-content"><p>The post itself.</p><p>Its second paragraph.</p></div>'
            '<div id="comments"><div class="comment-body"><p>A reader says hello.</p></div></div></body>')
    table = page_table(parse_html(html))
    f = Featurizer(Vocabulary.learn([table]), groups=("marks",))
    X = f.transform(table)
    assert f.names == ["in_content", "content_share", "in_largest_content", "content_elements"]
    assert X[:, 0].tolist() == [0, 1, 1, 0]  # a comment body is not an article body
    assert X[1, 2] == 1 and 0 < X[1, 1] < 1


def test_compiled_text_statistics_equal_the_python_ones_to_the_bit():
    import random

    from stemmer.blocks.block import Block
    from stemmer.classify import features
    if features._compiled_text_stats is None:
        pytest.skip("the compiled text statistics are not built")
    # the characters each statistic looks at, and look-alikes: other digits and spaces, cased
    # letters whose lower case grows ("İ"), CJK, full-width punctuation
    pool = list("aZ _-19 20 07.,;:!?|»·©\"'”’)…，。；：！？、\u00a0\u2003\u3000\n\tİßΣ١٢٣٤߀२०१९字カ한\uf900") + [
        "Copyright", "the ", "The ", "would ", "2019", "1999a", "_2020", "x1987", "ABOUT "]
    ascii_pool = [c for c in pool if c.isascii()] + ["\x0b", "\x1c", "\r", "copyrighT", "19", "20", "_"]
    rng = random.Random(7)
    for k in range(600):
        chars = pool if k % 2 else ascii_pool  # an ASCII text is read byte by byte, the others by code point
        texts = ["".join(rng.choice(chars) for _ in range(rng.randint(0, 60))) for _ in range(rng.randint(1, 8))]
        texts.append("x" * 1200 + "2019.")  # past MAX_TEXT
        texts.append(texts[0])  # a repeat
        texts += ["copyright", "a ccopyright", "copyrigh", "c", "Copyright 1999"]  # the word at either end, cut short
        blocks = [Block((), t, rng.randint(1, 500), 0) for t in texts]
        title = rng.choice(["", texts[0], " ".join(texts[1].upper().split()), "The 2019 news, ABOUT x"])
        compiled = features._text_stats(blocks, title)
        features._compiled_text_stats, kept = None, features._compiled_text_stats
        try:
            python = features._text_stats(blocks, title)
        finally:
            features._compiled_text_stats = kept
        assert compiled.tobytes() == python.tobytes(), (texts, title)


def test_compiled_element_description_equals_the_python_one():
    import random

    from stemmer.classify import features
    if features._CompiledDescriber is None:
        pytest.skip("the compiled text statistics are not built")
    # class and id words, the words naming a comment section or an article body, cases,
    # letters whose lower case is ASCII ("K" Kelvin, "İ"), digits and separators
    pool = ["entry-content", "comments", "comment-12", "Disqus_thread", "post_body", "TEXT", "inner",
            "nav", "x", "ab", "a1b", "  ", "-", "_", "\u212a", "İ", "é", "\t", "Respond", "article__body",
            "hentry", "storytext", "content-main"]
    rng = random.Random(3)
    compiled = features._CompiledDescriber({}, features._value_entry, features._value_kind)
    for _ in range(2000):
        cls, ident = ("".join(rng.choice(pool) + rng.choice(["", " ", "-"]) for _ in range(rng.randint(0, 5)))
                      if rng.random() < 0.9 else None for _ in range(2))
        features._VALUES.clear()
        assert compiled("div", cls, ident) == features._describe("div", cls, ident), (cls, ident)


def test_compiled_page_arrays_give_the_features_of_the_numpy_ones_to_the_bit(labelled, html, monkeypatch):
    from stemmer.classify import features
    if features._compiled_page_arrays is None or features.walker_in_use() != "compiled":
        pytest.skip("the compiled walker is not in use")
    tables, _, _ = labelled
    odd = [html('<div class="entry-content"><p>One sentence here.  </p><p>' + "long " * 30 + '</p>'
                '<ul><li><a href="/a">a link</a> and text</li></ul></div>'
                '<div id="comments"><p>Hi!\u3000</p></div>'),
           html("<p>\u201cquoted.\u201d</p><p>end\u2026\n</p><pre>x = 1\n</pre>"),
           "<p>loose text)</p> and a tail"]
    tables = tables + [page_table(parse_html(page)) for page in odd]
    vocab = Vocabulary.learn(tables, n_tags=8, n_attrs=12)
    fz = Featurizer(vocab, GROUPS)
    compiled = [fz.transform(t) for t in tables]
    for name in ("_compiled_page_arrays", "_compiled_vocab_counts"):
        monkeypatch.setattr(features, name, None)
    for t, X in zip(tables, compiled):
        assert fz.transform(t).tobytes() == X.tobytes()


def test_a_featurizer_sent_to_another_process_gives_the_same_features(labelled):
    import pickle

    tables, _, _ = labelled
    fz = Featurizer(Vocabulary.learn(tables, n_tags=8, n_attrs=12), GROUPS)
    before = [fz.transform(t) for t in tables]
    copy = pickle.loads(pickle.dumps(fz))
    assert all(copy.transform(t).tobytes() == X.tobytes() for t, X in zip(tables, before))
