"""The Python and the compiled walker cut the same blocks, tables and links, on real pages and on broken HTML
(and the compiled walk finds the elements that lxml finds for `stemmer.metadata.signals`).

The pages of ../shared/data (beside the checkout; skipped where absent): every
40th page of each set by default, every page with ``STEMMER_ALL_PAGES=1``
(about 7,300 pages, a few minutes).
"""
from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from stemmer.blocks import parse_html, segment
from stemmer.blocks.segment import WALKERS
from stemmer.classify.features import page_table

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
STRIDE = 1 if os.environ.get("STEMMER_ALL_PAGES") else 40

compiled = pytest.mark.skipif("compiled" not in WALKERS, reason="the compiled walker is not built")


def assert_same_walk(root) -> None:
    """Both walkers give the same blocks, title and links, and the same page table."""
    python = segment(root, with_links=True, walker="python")
    assert segment(root, with_links=True, walker="compiled") == python
    table, other = page_table(root, walker="python"), page_table(root, walker="compiled")
    assert table.page == other.page
    for name in ("links", "images", "ancestors", "elements", "parent", "comments", "content"):
        assert getattr(table, name) == getattr(other, name), name
    if root is not None:  # and the elements that say what the page is (stemmer.metadata.signals)
        from stemmer.blocks._walker import statement_elements

        assert statement_elements(root) == (list(root.iter("meta", "script", "time", "h1")),
                                            root.xpath("descendant::*[@itemprop]"), root.xpath("descendant::a[@rel]"))


def data_sets() -> list[Path]:
    return sorted(p for p in DATA.glob("*/pages.jsonl.gz")) if DATA.is_dir() else []


@compiled
@pytest.mark.skipif(not data_sets(), reason=f"no data sets in {DATA}")
@pytest.mark.parametrize("pages", data_sets(), ids=lambda p: p.parent.name)
def test_both_walkers_cut_the_same_blocks_on_the_data_sets(pages):
    with gzip.open(pages, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f):
            if n % STRIDE == 0:
                page = json.loads(line)
                root = parse_html(page["html"])
                try:
                    assert_same_walk(root)
                except AssertionError as exc:
                    raise AssertionError(f"{pages.parent.name} page {page['id']}: {exc}") from exc


BROKEN = {
    "empty": "",
    "spaces": " \n\t ",
    "comments only": "<!-- a --><!-- b -->",
    "processing instructions only": "<?xml version='1.0'?><?php echo 1; ?>",
    "comments and pis in text": "<p>a<!-- x -->b<?pi y?>c</p><pre>1<!-- z -->\n2</pre>",
    "doctype only": "<!DOCTYPE html>",
    "deep nesting": "<div>" * 5000 + "deep" + "</div>" * 5000 + "<p>after</p>",
    "deep inline nesting": "<p>" + "<b>" * 3000 + "bold" + "</b>" * 3000 + "tail</p>",
    "1 MB text node": "<p>" + "word " * 200_000 + "</p>",
    "1 MB of one word": "<div>" + "x" * 1_000_000 + "</div>",
    "1 MB link text": "<p><a href='/a'>" + "link " * 200_000 + "</a></p>",
    "1 MB code": "<pre>" + "line\n" * 200_000 + "</pre>",
    "invalid utf-8, replaced": b"<p>caf\xe9 \xff\xfe \xc3(</p>".decode("utf-8", "replace"),
    "unclosed everything": "<html><body><div><p>one<li>two<td>three<a href=x>four",
    "stray end tags": "</p></div>text</span></body></html>more",
    "hidden page": "<div style='display:none'>" + "<p>hidden text here</p>" * 50 + "</div><p>shown</p>",
    "hidden and hidden class": "<div class='hidden md:block'><p>wide</p></div><p hidden>h</p><p class=hidden>c</p>",
    "code with br and gutter": "<pre>1\n2\n3</pre><pre>a<br>  b<br>c</pre>",
    "nbsp and unicode spaces": "<p>\u00a0\u2003</p><p>\u00a0 a\u3000b \u2028c</p><div>\u00a0<span>x</span></div>",
    "cdata and entities": "<p><![CDATA[raw]]> &amp; &nbsp;&unknown; &#x1F600;</p>",
    "attributes without values": "<div hidden class><p id>a</p><p class='  '>b</p><p id='a b'>c</p></div>",
    "namespaced tags": "<svg:p>ns</svg:p><x:div class=a>ns div</x:div><math><mi>x</mi></math>",
    "tables": "<table><tr><td>a<td>b<tr><th>c</table>",
    "headline permalinks": "<h2 id=x>Title<a class=headerlink href='#x'>¶</a></h2><h3>T<a href='#y'>T</a></h3>"
                           "<h1><a class=anchor href='#z'>#1</a>Z</h1><p><a href='#p'>¶</a></p>",
    "text for screen readers": "<p><a href='/x'>Go<span class='icon-sr-only'>new window</span></a> on"
                               "<br class=sr-only>here</p><div class=visually-hidden>block stays</div>",
}


@compiled
@pytest.mark.parametrize("html", BROKEN.values(), ids=BROKEN.keys())
def test_both_walkers_agree_on_broken_html(html):
    for data in (html, html.encode("utf-8")):
        root = parse_html(data)
        if root is None:
            assert segment(None, walker="compiled").blocks == ()
            continue
        assert_same_walk(root)
        assert_same_walk(root.find("body") if root.find("body") is not None else root)  # a walk from any element


@compiled
def test_invalid_utf8_bytes_and_lone_surrogates_do_not_crash():
    for data in (b"<p>a\xff\xfeb\xc3</p>", "<p>a\ud800b</p>", b"\xef\xbb\xbf<p>bom</p>", b"<p>\x00nul</p>"):
        root = parse_html(data)
        if root is not None:
            assert_same_walk(root)


# Random tag soup: the tags of every kind, classes, hidden elements, spaces, entities and scripts.
TAGS = ["div", "p", "span", "a", "b", "pre", "br", "hr", "li", "ul", "td", "tr", "table", "h1", "script", "style",
        "img", "section", "em", "code", "title", "noscript", "svg", "blockquote", "font", "h3", "h6", "a"]
TEXTS = ["word", "Two words", " ", "\n  ", "\u00a0", "ça va", "日本語", "한국어", "1 2 3", "x_y", "«»", "&amp;",
         "&nbsp;", "\t", "’", "🙂", "", "_", "comment-1", "¶", "\u3000", "\u2003 x\u00a0", "#", "\u0085", "\u2028y",
         "\U0001f600z", "\u1680", "\r\n", "\r", "\t x\tyz\t", "1\n2\n3\n", "\n  7\n", "\u0661\n\u0662", "x \n\n \n"]
ATTRS = ["", " class='a B'", " class='hidden'", " id='Main'", " style='display: none'", " hidden",
         " class='comments'", " href='/x'", " class='hidden md:block'", " id=' x '", " class='sr-only'",
         " style='DISPLAY:None'", " style='color: red'", " style='visibility:HIDDEN'", " style='d\u0131splay:none'",
         " style='font: x; display : none'", " href='#top'", " href='/p#x'", " class='headerlink' href='#h'"]


def random_html(rng: random.Random, size: int) -> str:
    out, stack = [], []
    for _ in range(size):
        r = rng.random()
        if r < 0.4:
            tag = rng.choice(TAGS)
            out.append(f"<{tag}{rng.choice(ATTRS)}>")
            stack.append(tag)
        elif r < 0.6 and stack:
            out.append(f"</{stack.pop()}>")
        elif r < 0.65:
            out.append("<!-- c -->")
        else:
            out.append(rng.choice(TEXTS))
    return "".join(out)


@compiled
def test_the_compiled_walker_writes_blocks_in_c():
    """`Block` is the slots dataclass whose slots the compiled walk writes directly (else it calls Block)."""
    from stemmer.blocks._walker import BLOCKS_IN_C

    assert BLOCKS_IN_C


@compiled
def test_the_raw_memo_keeps_what_a_dict_keeps_and_forgets_at_its_limit():
    from stemmer.blocks._walker import RawMemo

    memo, kept = RawMemo(), {}
    rng = random.Random(3)
    for i in range(5000):  # grows many times; keys of every length, NULs and shared prefixes included
        key = bytes(rng.randrange(4) for _ in range(rng.randrange(40))) + b"\0" * (i % 3)
        memo[key] = kept[key] = i
    assert len(memo) == len(kept)
    assert all(memo[key] == value for key, value in kept.items())
    with pytest.raises(KeyError):
        memo[b"never stored" * 3]
    small = RawMemo(3)
    for key in (b"a", b"b", b"c", b"d"):
        small[key] = key
    assert len(small) == 1 and small[b"d"] == b"d"
    with pytest.raises(KeyError):
        small[b"a"]


# Code listings: lines, blank lines at either end and between, tabs after other characters, CR LF and lone CR,
# space not ASCII at the end of a line, and gutters of line numbers (ASCII and Arabic-Indic digits).
LISTINGS = ["\n\n  a\tb\n\n\n\tc  \n\n", "x\r\ny\r\r\nz\rw\tq", "é\u00a0\n\u3000\n\tü\t\t!", "1\n2\n3", "1\n3",
            " 7\n 8 \n\n", "\u0661\n\u0662", "\t", "", "a\u2028b\u0085\n\x0bc\x1c", "12 345\n6\t7"]


@compiled
@pytest.mark.parametrize("listing", LISTINGS)
def test_both_walkers_read_code_listings_alike(listing):
    for html in (f"<pre>{listing}</pre>", f"<div><pre class=x>{listing}<b>{listing}</b><br>{listing}</pre></div>"):
        assert_same_walk(parse_html(html))


@compiled
def test_both_walkers_agree_on_random_tag_soup():
    rng = random.Random(18)
    for _ in range(400):
        root = parse_html(random_html(rng, rng.randint(1, 300)))
        if root is not None:
            assert_same_walk(root)


@compiled
def test_the_compiled_encoding_of_ascii_attributes_equals_encode():
    from stemmer.blocks._walker import encode_ascii
    from stemmer.blocks.block import _encode
    # words, cases, repeats, prefixes of one another, every ASCII space, a space inside an id
    pool = ["a", "B", "post", "Post", "post-body", "x-1", "hidden", "zz", "a b", " ", "\t", "\n", "\x0b", "\x0c",
            "\r", "\x1c", "\x1f", "é"]
    rng = random.Random(5)
    checked = 0
    for _ in range(20000):
        cls, ident = ("".join(rng.choice(pool) for _ in range(rng.randint(0, 6))) if rng.random() < 0.9 else None
                      for _ in range(2))
        encoded = encode_ascii("div", cls, ident)
        if encoded is None:  # not ASCII: block.encode's
            assert "é" in (cls or "") + (ident or "")
            continue
        checked += 1
        assert encoded == _encode("div", cls, ident), (cls, ident)
    assert checked > 10000


def rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")
@pytest.mark.parametrize("walker", sorted(WALKERS))
def test_ten_thousand_walks_keep_memory_flat(walker):
    rng = random.Random(4)
    pages = [random_html(rng, 150) for _ in range(50)]
    for html in pages * 4:  # warm up: caches and allocator pools fill
        page_table(parse_html(html), walker=walker)
    before = rss_kb()
    for i in range(10_000):
        root = parse_html(pages[i % len(pages)])
        segment(root, with_links=True, walker=walker)
        if i % 20 == 0:
            page_table(root, walker=walker)
    grown = rss_kb() - before
    assert grown < 4096, f"RSS grew by {grown} kB over 10,000 walks"


def stemmer_cli(*args, walker: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "STEMMER_WALKER": walker, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "stemmer", *args], env=env, capture_output=True, text=True)


def test_the_version_says_which_walker_is_in_use():
    default = "compiled" if "compiled" in WALKERS else "python"  # whatever this process was told
    assert f"{default} block walker" in stemmer_cli("--version", walker="").stdout
    assert "python block walker" in stemmer_cli("--version", walker="python").stdout


def test_an_unknown_walker_is_refused_by_name():
    done = stemmer_cli("--version", walker="fortran")
    assert done.returncode != 0
    assert "STEMMER_WALKER='fortran': choose python or compiled" in done.stderr


def test_an_unknown_walker_is_one_line_and_refused_by_the_api_too():
    done = stemmer_cli("--version", walker="fortran")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    script = "from stemmer import SettingError, html2txt\ntry:\n    html2txt('<p>x</p>')\nexcept SettingError:\n    print('refused')"
    env = {**os.environ, "STEMMER_WALKER": "fortran", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    assert subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True).stdout == "refused\n"


@compiled
@pytest.mark.parametrize("depth", [0, 1, 3, 254, 255, 256, 257, 400])
def test_the_compiled_parse_checks_find_what_lxml_finds(depth):
    from lxml import etree

    from stemmer.blocks.segment import parse_checks
    from stemmer.blocks.parse import _swallowing_buttons
    html = (f"<html><head><style>a{{}}</style></head><body><!-- c --><p>x<noscript>n</noscript></p>"
            f"<button>b<span><nav>n</nav></span></button><button><b>x</b></button>"
            f"<button><div><button><footer>f</footer></button></div></button>"
            f"{'<div>' * depth}deep<style>b{{}}</style><noscript><img></noscript>{'</div>' * depth}"
            "<?pi x?><p>t</p></body><noscript>after</noscript></html>")
    root = etree.fromstring(html.encode(), etree.HTMLParser(huge_tree=True))
    body = root.find("body")
    assert len(_swallowing_buttons(root)) == 3
    for limit in (1, 2, 3, 255, 256, 257, 258):
        deeper = bool(root.xpath("/".join(["*"] * limit)))
        found = (deeper, None, None, None) if deeper else (
            False, list(root.iter("style")), list(body.iter("noscript")), _swallowing_buttons(root))
        assert parse_checks(root, limit) == found, limit
    no_body = etree.fromstring(b"<html><head><noscript>x</noscript><style>a</style></head></html>",
                               etree.HTMLParser())
    assert parse_checks(no_body, 256) == (False, list(no_body.iter("style")), [], [])


@compiled
def test_the_compiled_marking_of_stylesheet_pop_ups_marks_what_the_python_loop_marks(monkeypatch):
    from lxml import etree

    segment_module = sys.modules["stemmer.blocks.segment"]
    html = ('<html><head><style>.modal, #cookie-bar, .Login-box {display:none}</style></head><body>'
            '<div class="modal">a</div><div class="modal-open">b</div><div class=" x  modal ">c</div>'
            '<p id="cookie-bar">d</p><p id=" cookie-bar">e</p><p id="cookie-bar-2">f</p><span class="Login-box">g</span>'
            '<div class="modal\u00a0y">h</div><div id="" class="">i</div><svg:g class="modal">j</svg:g>'
            '<p class="login-box">k</p></body></html>')
    trees = {}
    for walker in ("compiled", "python"):
        monkeypatch.setattr(segment_module, "WALKER", walker)
        trees[walker] = etree.tostring(parse_html(html))
    assert trees["compiled"] == trees["python"]
    assert trees["compiled"].count(b'hidden="hidden"') == 6  # a, c, d, g, h, j
