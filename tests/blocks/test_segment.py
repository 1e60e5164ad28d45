import pytest

from stemmer.blocks import PageBlocks, letters, parse_html, segment, sig


def blocks_of(html: str | bytes, **kw) -> PageBlocks:
    return segment(parse_html(html), **kw)


def texts(html: str | bytes) -> list[str]:
    return [b.text for b in blocks_of(html).blocks]


def test_blocks_come_in_document_order(html):
    page = html("<h1>Head</h1><div><p>First</p><p>Second</p></div><ul><li>Item</li></ul><p>Last</p>")
    assert texts(page) == ["Head", "First", "Second", "Item", "Last"]


def test_path_carries_tags_sorted_classes_and_id(html):
    [block] = blocks_of(html('<div class="Story  main" id="Body"><p class="lead">Text</p></div>')).blocks
    assert block.path == ("body", "div.main.story#body", "p.lead")
    assert block.tag == "p"


def test_id_with_spaces_is_left_out(html):
    [block] = blocks_of(html('<div id="a b"><p>Text</p></div>')).blocks
    assert block.path == ("body", "div", "p")


def test_inline_tags_flow_into_their_block(html):
    [block] = blocks_of(html("<p>Some <b>bold</b> and <a href='/x'>linked</a> <span>text</span></p>")).blocks
    assert block.text == "Some bold and linked text"
    assert block.path == ("body", "p")


def test_text_after_a_nested_block_belongs_to_the_outer_block(html):
    assert [(b.path[-1], b.text) for b in blocks_of(html("<div>before<p>inner</p>after</div>")).blocks] == [
        ("div", "before"), ("p", "inner"), ("div", "after")]


def test_whitespace_is_collapsed(html):
    assert texts(html("<p>  many \n\t spaces   here </p>")) == ["many spaces here"]


def test_weight_counts_letters_and_digits_not_punctuation_or_space(html):
    [block] = blocks_of(html("<p>Hello, world! 42 -- (ok)?</p>")).blocks
    assert block.weight == len("Helloworld42ok")


def test_blocks_of_punctuation_only_are_dropped(html):
    assert texts(html("<p>...!!</p><p>--- | ---</p><p>Real</p>")) == ["Real"]


def test_accented_letters_count_once(html):
    [block] = blocks_of(html("<p>Straße café</p>")).blocks
    assert block.weight == 10


def test_cjk_characters_weigh_more_than_latin_letters():
    assert letters("日本語") == 9
    assert letters("한국어") == 9
    assert letters("日本語です") > letters("abcde")
    assert letters("、。「」") == 0


def test_cjk_block_weight(html):
    [block] = blocks_of(html("<p>東京の天気、晴れ。</p>")).blocks
    assert block.weight == letters("東京の天気晴れ") == 21


def test_sig_keeps_lowercased_letters_only():
    assert sig("Hello, World! 2024") == "helloworld2024"
    assert sig("東京、晴れ。") == "東京晴れ"


def test_anchor_weight_counts_link_text_only(html):
    [block] = blocks_of(html("<p>Read <a href='/more'>more news</a> here</p>")).blocks
    assert block.anchor_weight == len("morenews")
    assert block.weight == len("Readmorenewshere")


@pytest.mark.parametrize("cut", ["<br>", "<br/>", "<hr>"])
def test_br_and_hr_split_a_block(html, cut):
    page = blocks_of(html(f"<p>one{cut}two</p>")).blocks
    assert [b.text for b in page] == ["one", "two"]
    assert page[0].path == ("body", "p")


def test_script_style_and_head_text_are_skipped(html):
    page = html("<script>var x = 'hidden';</script><style>p { color: red }</style><p>Shown</p>"
                "<noscript>Enable JS</noscript><template><p>tmpl</p></template>",
                title="Head title", head="<script>var y = 1;</script>")
    assert texts(page) == ["Shown"]


def test_form_controls_are_skipped(html):
    page = html("<form><select><option>Choice</option></select><button>Go</button>"
                "<textarea>typed</textarea><p>Label</p></form>")
    assert texts(page) == ["Label"]


def test_comments_are_skipped(html):
    assert texts(html("<p>a<!-- secret -->b</p>")) == ["ab"]


def test_head_title_is_kept_apart(html):
    page = blocks_of(html("<p>Body</p>", title="  The   Title "))
    assert page.title == "The Title"
    assert [b.text for b in page.blocks] == ["Body"]


def test_entities_are_decoded(html):
    assert texts(html("<p>Arts &amp; Culture &eacute;t&#233;</p>")) == ["Arts & Culture été"]


def test_links_are_collected_on_request(html):
    page = html("<p><a href='/a.html'>First  story</a> and <a href='http://x.org/'>X</a>"
                "<a name='anchor'>no href</a></p>")
    assert blocks_of(page, with_links=True).links == (("/a.html", "First story"), ("http://x.org/", "X"))
    assert blocks_of(page).links == ()


def test_page_weight_sums_its_blocks(html):
    page = blocks_of(html("<p>abc</p><p>de</p>"))
    assert page.weight == 5


@pytest.mark.parametrize("data", ["", "   \n\t", b"", b"  ", "<!-- only a comment -->", "<<<>>>",
                                  "<html><head><title>t</title></head></html>"])
def test_empty_pages_give_no_blocks(data):
    assert blocks_of(data).blocks == ()


def test_none_root_gives_empty_page():
    assert segment(None) == PageBlocks(())


@pytest.mark.parametrize("data", [
    b"\x00\x01\x02\xff\xfe\xfd" * 50,
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
    "text with a lone surrogate \ud800 and a NUL \x00 inside <p>ok</p>",
    "<p>unclosed <div><b>bold <i>italic <table><tr><td>cell",
    "</p></div></body></html>",
    "<p>" + "<" * 500,
    '<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>caf\u00e9</p></body></html>',
])
def test_broken_or_binary_input_never_raises(data):
    page = blocks_of(data)
    assert isinstance(page, PageBlocks)
    assert all(b.weight > 0 for b in page.blocks)


def test_unclosed_tags_still_give_their_text():
    assert texts("<p>first<p>second<div>third") == ["first", "second", "third"]


def test_xml_declaration_does_not_fight_the_decoded_text():
    assert texts('<?xml version="1.0" encoding="iso-8859-1"?><p>caf\u00e9 \u65e5\u672c</p>') == [
        "caf\u00e9 \u65e5\u672c"]


def test_bytes_input_is_read_as_utf8():
    assert texts("<p>caf\u00e9</p>".encode()) == ["caf\u00e9"]


def test_deep_nesting_does_not_recurse(html):
    depth = 200
    page = html("<div>" * depth + "deep" + "</div>" * depth + "<p>after</p>")
    assert texts(page) == ["deep", "after"]


def test_hundreds_of_unclosed_divs_keep_the_text_after_them(html):
    page = html("<p>before</p>" + "<div>comment " * 300 + "<p>after</p>")
    assert texts(page)[-1] == "after"


def test_code_keeps_its_lines_and_indentation():
    page = "<pre class='highlight'><code>\n\ndef f():\n    return 1  \n</code></pre><p>a   b\n c</p>"
    assert texts(page) == ["def f():\n    return 1", "a b c"]


def test_a_code_listing_written_with_br_is_one_block_of_lines():
    page = segment(parse_html('<html><body><pre><span>int a;</span><br><span>  return 0;</span><br></pre>'
                              '</body></html>'))
    assert [b.text for b in page.blocks] == ["int a;\n  return 0;"]


def test_line_number_gutters_of_code_listings_are_dropped():
    html = ('<html><body><table><tr><td class="gutter"><pre><span>1</span><br><span>2</span><br>'
            '<span>3</span></pre></td><td class="code"><pre>a = 1<br>b = 2<br>print(a + b)</pre></td></tr>'
            '</table><pre class="lineno">7\n8\n9\n</pre><pre>42</pre><pre>3\n5</pre></body></html>')
    texts = [b.text for b in segment(parse_html(html)).blocks]
    assert texts == ["a = 1\nb = 2\nprint(a + b)", "42", "3\n5"]


def test_hidden_blocks_are_not_text():
    html = ('<html><body><div class="story"><p>The article as every reader sees it.</p></div>'
            '<div class="story hidden"><p>A copy for other readers.</p></div>'
            '<div style="color: red; display : none"><p>Styled away.</p></div>'
            '<section hidden><p>Not shown.</p></section><p>The end of the page, shown.</p>'
            '<div class="hidden md:block"><p>Shown on a desktop.</p></div></body></html>')
    assert texts(html) == ["The article as every reader sees it.", "The end of the page, shown.",
                           "Shown on a desktop."]


def test_a_page_that_hides_nearly_all_its_text_until_loaded_keeps_it():
    body = "".join(f"<p>Paragraph number {n} of a long article that a script shows.</p>" for n in range(8))
    html = f'<html><body><p>Menu</p><main style="display:none">{body}</main></body></html>'
    assert len(texts(html)) == 9



def test_a_page_whose_text_is_in_noscript_is_read_as_a_browser_without_scripts_shows_it():
    thread = "".join(f"<p>Post {n}: a reply in the thread that the server renders for crawlers.</p>" for n in range(3))
    html = (f'<html><body><section id="splash"><p>Loading</p></section><noscript><img src="/pixel.gif"></noscript>'
            f'<noscript data-path="/t/1">{thread}</noscript></body></html>')
    assert texts(html) == ["Loading"] + [f"Post {n}: a reply in the thread that the server renders for crawlers."
                                         for n in range(3)]


def test_a_noscript_notice_beside_the_page_text_stays_out():
    html = ('<html><body><noscript><p>Please turn JavaScript on to see the comments of this page.</p></noscript>'
            + "<p>The article as every reader sees it, long enough to outweigh the notice.</p>" * 3 + "</body></html>")
    assert "Please" not in " ".join(texts(html))


def test_a_title_never_closed_does_not_swallow_the_page():
    html = ('<html><head><title>Bush to Saudis - CBN News</titlevalue="true" --> <link rel="x"></head>'
            '<body><h1>Bush to Saudis</h1><p>The president asked for more oil.</p></body></html>')
    page = blocks_of(html)
    assert [b.text for b in page.blocks] == ["Bush to Saudis", "The president asked for more oil."]
    assert page.title == "Bush to Saudis - CBN News"

@pytest.mark.parametrize("heading", [
    '<h2 id="s">Quantum Santa<a class="headerlink" href="#s" title="Permanent link">¶</a></h2>',  # Sphinx, MkDocs
    '<h2 id="s"><a class="header-anchor" href="#s">#</a> Quantum Santa</h2>',  # VuePress
    '<h2 id="s">Quantum Santa <a href="https://x.test/p#s">🔗</a></h2>',
    '<h2 id="s">Quantum Santa<a class="hash-link" href="#s">&#8203;</a></h2>',  # Docusaurus
])
def test_headline_permalinks_are_not_text(heading):
    blocks = segment(parse_html(f"<body>{heading}<p>Body # ¶</p></body>")).blocks
    assert [b.text for b in blocks] == ["Quantum Santa", "Body # ¶"]


@pytest.mark.parametrize("heading", ['<h2><a class="anchor" href="#s">Quantum Santa</a></h2>',
                                     '<h2><a href="/posts/santa">Quantum Santa</a></h2>'])
def test_a_heading_whose_text_is_a_link_keeps_it(heading):
    assert [b.text for b in segment(parse_html(heading)).blocks] == ["Quantum Santa"]


def test_text_for_screen_readers_only_is_not_text_but_its_tail_is():
    html = ('<body><p>See the <a href="https://x.example/t">tutorial<span class="external-link-icon-sr-only">'
            'open in new window</span></a> first.</p><a class="skip-link screen-reader-text" href="#c">Skip</a>'
            '<p><span class="visually-hidden">Posted on</span> 2024-01-02 <span class="sr-only-hint">kept</span></p></body>')
    assert [b.text for b in segment(parse_html(html)).blocks] == ["See the tutorial first.", "2024-01-02 kept"]


def _stylesheet_reference(css: str) -> set[str] | None:
    """What the page's stylesheet hides, as the rules read it before they were made fast: one regex
    for the quick look, then one scan of every brace (None where the quick look says no)."""
    import re

    from stemmer.blocks import parse

    if not re.search(rf"[.#][\w-]*(?:{parse._POP_UP_WORDS})[\w-]*[^{{}}]*{{[^{{}}]*(?:{'|'.join(parse._HIDE)})", css,
                     re.IGNORECASE):
        return None
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    hidden, shown, open_rules, at = set(), set(), [], 0
    for m in re.finditer("[{}]", css):
        if m.group() == "{":
            open_rules.append((css[at:m.start()], m.end()))
        elif open_rules:
            selector, body_at = open_rules.pop()
            body = css[body_at:m.start()]
            if "{" not in body:
                if parse._SHOWS.search(body):
                    shown.update(a + b for a, b in parse._NAMED.findall(selector))
                elif not open_rules and parse._HIDES.search(body):
                    hidden.update(sm.group(1) + sm.group(2) for part in selector.split(",")
                                  if (sm := parse._SIMPLE_SELECTOR.fullmatch(part)))
        at = m.end()
    return {name for name in hidden - shown if parse._POPS_UP.search(name)}


def test_stylesheet_rules_are_read_as_the_plain_scan_reads_them():
    import random
    import re

    from stemmer.blocks import parse

    pieces = ["{", "}", "{", "}", ".modal", "#cookie-bar", ".x", " ", ",", "display:none", "display: Block",
              "visibility:hidden", "VISIBILITY:visible", "@media x", ".modal.open", "a", ";", "/*", "*/",
              ".Login", "display:NONE", "div .popup", "D\u0130SPLAY:none", "\u017fubscribe", "d\u0131splay:none"]
    rng = random.Random(7)
    for _ in range(20_000):
        css = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert parse._stylesheet_pop_ups([css]) == _stylesheet_reference(css), css
        sheets = [css, "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))]  # two, lower-cased apart
        if (hidden := parse._stylesheet_pop_ups(sheets)) is not None:
            assert hidden == parse._hidden_pop_ups(re.sub(r"/\*.*?\*/", "", "\n".join(sheets), flags=re.DOTALL)), sheets


def test_a_button_left_open_by_the_parser_does_not_swallow_the_page():
    """libxml2 ignores ``</button>`` while a ``<div>`` opened inside it is open: the page lands in the button."""
    html = ('<html><body><header><button class="menu"><svg></svg><div></button><a href="/">Home</a></header>'
            '<main><h1>The story</h1><p>The article that a browser shows below the menu button.</p></main>'
            '<footer><button>Accept</button></footer></body></html>')
    assert texts(html) == ["Home", "The story", "The article that a browser shows below the menu button."]


def test_stylesheet_comments_are_cut_as_the_regex_cuts_them():
    import random
    import re

    from stemmer.blocks.parse import _without_comments

    rng = random.Random(3)
    for _ in range(20_000):
        css = "".join(rng.choice(["/*", "*/", "/", "*", "a", "B", "\n", "/**/", "*/*"]) for _ in range(rng.randint(0, 10)))
        cut = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
        assert _without_comments(css, css.lower()) == (cut, cut.lower()), css
        assert _without_comments(css, None) == (cut, None), css


def test_a_style_hides_as_the_case_blind_regex_reads_it():
    import random

    from stemmer.blocks.block import _DISPLAY_NONE, _hides

    pieces = ["display", "DISPLAY", "Display", " ", ":", "none", "NONE", "visibility", "VISIBILITY", "hidden",
              "Hidden", "\u0130", "d\u0131splay", "vi\u017fibility", "\u212a", "\u00e9", ";", "\t", "\u00a0", "x"]
    rng = random.Random(5)
    for _ in range(20_000):
        style = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        assert _hides(style) == (_DISPLAY_NONE.search(style) is not None), style


def test_soft_hyphens_are_left_out_of_the_text():
    # U+00AD as a hyphenating CMS writes it; readers drop it.  A 0xAD byte of another character stays.
    page = segment(parse_html("<html><body><p>Donau\u00addampf\u00adschiff\u00adfahrt</p></body></html>"))
    assert [b.text for b in page.blocks] == ["Donaudampfschifffahrt"]
    assert [b.text for b in segment(parse_html("<p>Así, mínimo</p>".encode("utf-8"))).blocks] == ["Así, mínimo"]
