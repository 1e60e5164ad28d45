import pickle

from stemmer.blocks import parse_html, segment
from stemmer.cluster import KeyMaker
from stemmer.cluster.keys import common_container


def pages_of(*bodies: str):
    return [segment(parse_html(f"<html><body>{b}</body></html>")) for b in bodies]


def test_shared_class_tokens_are_learned_and_per_page_ones_dropped():
    pages = pages_of(*(f'<article id="post-{n}" class="post post-{n} tag-{word}"><p>Text {n}</p></article>'
                       for n, word in zip(range(1230, 1240), "a b c d e f g h i j".split())))
    keymaker = KeyMaker.learn(pages)
    assert "post" in keymaker.token_share
    assert keymaker.token_share["post"] == 1.0
    assert not any(t.startswith(("post-", "#post-", "tag-")) for t in keymaker.token_share)


def test_pages_of_one_template_get_the_same_keys_despite_per_page_ids():
    pages = pages_of(*(f'<div class="wrap"><article id="post-{n}" class="post post-{n} css-{h}">'
                       f'<p>Text</p></article></div>'
                       for n, h in [(1, "x9f"), (2, "k2a"), (3, "qq7"), (4, "zzb")]))
    keymaker = KeyMaker.learn(pages)
    keys = {keymaker.key(p.blocks[0].path) for p in pages}
    assert keys == {"body/div.wrap/article.post/p"}


def test_tokens_with_digits_are_never_kept_even_when_shared():
    pages = pages_of(*['<div class="col-12 main"><p>x</p></div>'] * 5)
    assert set(KeyMaker.learn(pages).token_share) == {"main"}


def test_rare_token_is_dropped_common_token_kept():
    bodies = ['<div class="box"><p>x</p></div>'] * 9 + ['<div class="box special"><p>x</p></div>']
    share = KeyMaker.learn(pages_of(*bodies)).token_share
    assert share == {"box": 1.0}


def test_shared_id_is_kept_and_names_the_element_without_its_classes():
    pages = pages_of(*['<div id="content" class="main"><p>x</p></div>'] * 2,
                     '<div id="content" class="main wide"><p>x</p></div>')
    keymaker = KeyMaker.learn(pages)
    assert {keymaker.key(p.blocks[0].path) for p in pages} == {"body/div#content/p"}


def test_at_most_two_classes_the_most_common_ones():
    keymaker = KeyMaker({"a": 1.0, "b": 0.9, "c": 0.9, "d": 0.5})
    assert keymaker.encoding("div.a.b.c.d") == "div.a.b"
    assert keymaker.encoding("div.c.d") == "div.c.d"


def test_key_keeps_the_last_depth_elements():
    keymaker = KeyMaker({}, depth=2)
    assert keymaker.key(("body", "div", "section", "p")) == "section/p"
    assert keymaker.full_path(("body", "div.x", "p")) == ("body", "div", "p")


def test_unknown_tokens_are_dropped_from_keys():
    keymaker = KeyMaker({"story": 0.8})
    assert keymaker.encoding("div.story.unique#post-9") == "div.story"


def test_webstemmer_style_encoding():
    [page] = pages_of('<div class="b a" id="main"><table><tr><td class="x"><p>Text</p></td></tr></table></div>')
    [block] = page.blocks
    keymaker = KeyMaker({}, depth=3, webstemmer=True)
    assert keymaker.key(block.path) == "tr/td:class=x/p"
    assert keymaker.encoding("div.a.b#main") == "div:class=a b:id=main"


def test_keys_of_a_page_are_its_blocks_keys_and_survive_a_pickle():
    [page] = pages_of('<div class="story" id="post-9"><p>One</p><p>Two</p></div><p>Three</p>')
    keymaker = KeyMaker({"story": 0.8}, depth=2)
    assert keymaker.keys(page) == tuple(keymaker.key(b.path) for b in page.blocks) == (
        "div.story/p", "div.story/p", "body/p")
    copy = pickle.loads(pickle.dumps(keymaker))
    assert copy.keys(page) == keymaker.keys(page)
    assert copy.key(("section.story", "p")) == "section.story/p"  # a new key, made by the copy


def test_learning_from_no_pages_gives_an_empty_vocabulary():
    assert KeyMaker.learn([]).token_share == {}


def test_a_related_box_inside_the_container_is_not_within_it():
    keymaker = KeyMaker({"story": 1.0, "related": 1.0})
    container = ("body", "div.story")
    assert keymaker.within(("body", "div.story", "p"), container)
    assert not keymaker.within(("body", "div.story", "div.related", "ul", "li"), container)
    assert not keymaker.within(("body", "div.story", "aside", "p"), container)
    assert not keymaker.within(("body", "div.other", "p"), container)


def test_text_set_loose_in_the_container_itself_is_within_it():
    keymaker = KeyMaker({"post-body": 1.0, "post": 1.0})
    container = ("body", "div.post", "div.post-body")
    assert keymaker.within(("body", "div.post", "div.post-body"), container)
    assert not keymaker.within(("body", "div.post"), container)


def test_common_container_skips_a_wrapper_that_some_pages_add():
    plain = ("body", "div#wrap", "article#main", "div.body")
    wrapped = ("body", "div#wrap", "div", "article#main", "div.body")
    assert common_container([plain, plain, wrapped]) == plain
    assert common_container([wrapped, wrapped]) == wrapped


def test_common_container_stops_where_paths_really_part():
    a = ("body", "div#wrap", "article#main", "div.body")
    b = ("body", "div#wrap", "aside#side", "div.body")
    assert common_container([a, b]) == ("body", "div#wrap")
    assert common_container([a, ("body", "div#wrap", "div", "aside#side", "div.body")]) == ("body", "div#wrap")
    assert common_container([]) == ()


def test_keymaker_memos_forget_at_their_limit_and_keep_answering(monkeypatch):
    import stemmer.cluster.keys as keys_module
    monkeypatch.setattr(keys_module, "MEMO_LIMIT", 3)
    km = KeyMaker({"post": 1.0}, depth=2)
    paths = [("body", f"div.post#p{i}", "p") for i in range(10)]
    first = [km.key(p) for p in paths]
    assert len(km._keys) <= 3 and len(km._enc) <= 3
    assert first == [KeyMaker({"post": 1.0}, depth=2).key(p) for p in paths]
    assert all(km.within(p, ("body", "div.post")) for p in paths) and len(km._within) <= 3
