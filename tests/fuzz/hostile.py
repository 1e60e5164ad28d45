"""Generators of hostile input, each a function of a `random.Random`, so that the tests
(driven by hypothesis) and ``benchmarks/fuzz.py`` (seeded, at volume) share them.

Pages: a plain article page of a small site, then mutated: truncated, bytes flipped, stray
NULs, deep nesting, huge attributes and text nodes, tag soup, entity floods, random bytes,
wrong and unknown charsets, malformed URLs in every attribute that holds one, thousands of
blocks or links. Containers: the pages written as a wget mirror, WARC, WARC.gz, zip or JSON
Lines (gzipped or not), then possibly damaged. Files: pattern, noise-library and model files
mutated as JSON or as bytes.
"""
from __future__ import annotations

import gzip
import io
import json
import random
import zipfile
from dataclasses import dataclass
from pathlib import Path

WORDS = ("council harbour library river market school bridge garden festival budget volunteers station "
         "museum orchard tower theatre bakery meadow ferry railway clinic square").split()
BAD_URLS = ("http://[oops/x", "http://[::1", "https://h.com:port/", "http://h.com:99999/", "//[/", "http://]/",
            "javascript:alert(1)", "http://\u2100.com/", "http://h.com/\x00\x01", "ht tp://sp ace/", "[",
            "http://" + "a" * 3000 + ".com/", "file:///etc/passwd", "data:text/html,<b>x</b>", "\\\\host\\share")
# Every attribute that holds a URL, by element (HTML 4 and 5).
URL_ATTRS = (("a", "href"), ("area", "href"), ("link", "href"), ("img", "src"), ("img", "srcset"),
             ("img", "longdesc"), ("script", "src"), ("iframe", "src"), ("form", "action"),
             ("button", "formaction"), ("video", "poster"), ("object", "data"), ("blockquote", "cite"),
             ("q", "cite"), ("body", "background"), ("html", "manifest"), ("a", "ping"), ("source", "src"))
CHARSETS = ("utf-8", "utf-16", "utf-16le", "utf-16be", "utf-7", "x-no-such", "shift_jis", "koi8-r",
            "iso-2022-jp", "gb2312", "windows-1252", "big5", "euc-kr", "x-user-defined", "\u00e9\u00e8", "")


@dataclass(frozen=True)
class HostilePage:
    """One page as served: its site, path, raw bytes, and the mutations applied."""

    site: str
    path: str
    data: bytes
    kinds: tuple[str, ...]

    @property
    def url(self) -> str:
        return f"http://{self.site}/{self.path}"


def words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def article(rng: random.Random, site: str, i: int) -> str:
    """A plain page of `site`: shared header and footer, a headline and a few paragraphs."""
    nav = "".join(f'<li><a href="/s{k}/">{words(rng, 1).title()}</a></li>' for k in range(4))
    body = "".join(f"<p>{words(rng, rng.randint(8, 30))}.</p>" for _ in range(rng.randint(2, 6)))
    return (f"<html><head><title>{words(rng, 4).title()} - {site}</title></head><body>"
            f'<header class="top"><a class="logo" href="/">{site}</a><ul class="nav">{nav}</ul></header>'
            f'<div class="post"><h1>{words(rng, 5).title()}</h1><p class="by">By {words(rng, 2)}</p>'
            f'<div class="story">{body}</div><a href="/a{i + 1}.html">{words(rng, 3)}</a></div>'
            f'<footer class="foot"><p>Copyright {site}</p></footer></body></html>')


# --- mutations of a page's text (str -> str) and bytes (bytes -> bytes) ------------------

def _repeat(unit: str, size: int) -> str:
    """`unit` repeated to `size` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def deep_nesting(rng, html, scale):
    n = int(rng.choice((300, 3000, 20000)) * scale)
    tag = rng.choice(("div", "b", "table", "li", "section"))
    return html.replace("<div class=\"story\">", f"<div class=\"story\">{f'<{tag}>x ' * n}{f'</{tag}>' * n}", 1)


def huge_attribute(rng, html, scale):
    size = int(rng.choice((10_000, 300_000, 2_000_000)) * scale)
    value = _repeat(rng.choice(("x", "a b ", "&amp;", "\u00e9")), size)
    attr = rng.choice(("class", "id", "style", "data-x", "title", "href", "alt"))
    return html.replace("<h1>", f'<h1 {attr}="{value}">', 1)


def huge_text(rng, html, scale):
    size = int(rng.choice((50_000, 1_000_000, 3_000_000)) * scale)
    text = _repeat(rng.choice(("word ", "x", "longword" * 50 + " ", "\u3042", "&lt;")), size)
    return html.replace("<div class=\"story\">", f"<div class=\"story\"><p>{text}</p>", 1)


def tag_soup(rng, html, scale):
    tags = ("div", "p", "b", "i", "table", "tr", "td", "ul", "li", "span", "a", "h1", "form", "select",
            "option", "script", "style", "title", "html", "body", "head", "frameset", "svg", "math", "!--",
            "![CDATA[", "?php", "template", "noscript", "textarea", "plaintext", "xmp")
    parts = []
    for _ in range(rng.randint(20, int(3000 * scale) + 20)):
        r = rng.random()
        tag = rng.choice(tags)
        if r < 0.4:
            parts.append(f"<{tag} class='{words(rng, 1)}' id=\"{rng.randint(0, 9)}\">")
        elif r < 0.7:
            parts.append(f"</{tag}>")
        elif r < 0.8:
            parts.append(rng.choice(("<", ">", "</", "<<>>", "\"", "'", "=", "&", "<!", "<?", "-->", "]]>")))
        else:
            parts.append(words(rng, rng.randint(1, 9)))
    soup = "".join(parts)
    cut = rng.randrange(len(html))
    return html[:cut] + soup + html[cut:]


def entity_flood(rng, html, scale):
    ents = ("&amp;", "&#0;", "&#xD800;", "&#x1F600;", "&nosuch;", "&#99999999999;", "&", "&#", "&#x;",
            "&lt;p&gt;", "&nbsp;", "&NotNestedGreaterGreater;", "&#x110000;")
    flood = "".join(rng.choice(ents) for _ in range(int(rng.choice((1000, 50_000, 300_000)) * scale)))
    return html.replace("<div class=\"story\">", f"<div class=\"story\"><p>{flood}</p>", 1)


def bad_urls(rng, html, scale):
    elements = []
    for tag, attr in URL_ATTRS:
        url = rng.choice(BAD_URLS)
        if tag in ("body", "html"):
            html = html.replace(f"<{tag}", f'<{tag} {attr}="{url}"', 1)
        else:
            elements.append(f'<{tag} {attr}="{url}">{words(rng, 2)}</{tag}>')
    head = (f'<base href="{rng.choice(BAD_URLS)}"><link rel="canonical" href="{rng.choice(BAD_URLS)}">'
            f'<meta property="og:url" content="{rng.choice(BAD_URLS)}">'
            f'<meta http-equiv="refresh" content="0;url={rng.choice(BAD_URLS)}">')
    html = html.replace("<head>", "<head>" + head, 1)
    return html.replace("<div class=\"story\">", "<div class=\"story\">" + "".join(elements), 1)


def many_blocks(rng, html, scale):
    n = int(rng.choice((2000, 20_000)) * scale)
    blocks = "".join(f"<p class='c{k % 7}'>{rng.choice(WORDS)} {k}</p>" for k in range(n))
    return html.replace("<div class=\"story\">", f"<div class=\"story\">{blocks}", 1)


def many_links(rng, html, scale):
    n = int(rng.choice((2000, 20_000)) * scale)
    links = "".join(f'<a href="/a{rng.randint(0, 50)}.html?{k}">{rng.choice(WORDS)}</a> ' for k in range(n))
    return html.replace("<ul class=\"nav\">", f"<ul class=\"nav\">{links}", 1)


def class_flood(rng, html, scale):
    tokens = " ".join(f"t{k}" for k in range(int(rng.choice((500, 20_000)) * scale)))
    return html.replace('<div class="post">', f'<div class="post {tokens}">', 1)


def unclosed(rng, html, scale):
    opener = rng.choice(("<!--", "<script>", "<style>", "<textarea>", "<title>", "<![CDATA[", "<plaintext>", "<xmp>"))
    cut = rng.randrange(len(html))
    return html[:cut] + opener + html[cut:]


def wrong_charset(rng, html) -> bytes:
    declared, actual = rng.choice(CHARSETS), rng.choice(("utf-8", "utf-16-le", "utf-16-be", "cp1252",
                                                         "shift_jis", "koi8-r", "latin-1", "utf-32"))
    html = html.replace("<head>", f'<head><meta charset="{declared}">', 1)
    html = html.replace("</h1>", " \u00e9\u00e8 \u0416 \u65e5\u672c \U0001F600</h1>", 1)
    data = html.encode(actual, "replace")
    if rng.random() < 0.3 and actual.startswith("utf-16"):
        data = (b"\xff\xfe" if actual.endswith("le") else b"\xfe\xff") + data
    return data


def truncate(rng, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def flip_bytes(rng, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 50)):
        if out:
            out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def stray_nuls(rng, data: bytes) -> bytes:
    out = bytearray()
    for chunk in data.split(b"<"):
        out += (b"\x00" if rng.random() < 0.3 else b"") + b"<" + chunk
    return bytes(out[1:] if data[:1] != b"<" else out)


def random_bytes(rng, data: bytes) -> bytes:
    return rng.randbytes(rng.choice((0, 10, 1000, 100_000)))


TEXT_MUTATIONS = {f.__name__: f for f in (deep_nesting, huge_attribute, huge_text, tag_soup, entity_flood,
                                          bad_urls, many_blocks, many_links, class_flood, unclosed)}
BYTE_MUTATIONS = {f.__name__: f for f in (truncate, flip_bytes, stray_nuls, random_bytes)}


def hostile_page(rng: random.Random, site: str, i: int, *, clean_share: float = 0.3,
                 scale: float = 1.0) -> HostilePage:
    """Page `i` of `site`: with probability `clean_share` a plain article, else 1-3 mutations.

    `scale` shrinks the sizes of the big mutations (2 MB attributes, 20,000 nested elements) for tests.
    """
    html = article(rng, site, i)
    kinds: list[str] = []
    data = None
    if rng.random() >= clean_share:
        for name in rng.sample((*TEXT_MUTATIONS, "wrong_charset", *BYTE_MUTATIONS), rng.randint(1, 3)):
            kinds.append(name)
            if name in TEXT_MUTATIONS and data is None:
                html = TEXT_MUTATIONS[name](rng, html, scale)
            elif name == "wrong_charset" and data is None:
                data = wrong_charset(rng, html)
            elif name in BYTE_MUTATIONS:
                data = BYTE_MUTATIONS[name](rng, data if data is not None else html.encode())
    path = rng.choice((f"a{i}.html", f"news/{i}.html", f"p/{i}/index.html", f"q{i}.html?x=1"))
    return HostilePage(site, path, data if data is not None else html.encode(), tuple(kinds) or ("clean",))


# --- containers --------------------------------------------------------------------------

CONTAINERS = ("wget", "warc", "warc.gz", "zip", "jsonl", "jsonl.gz")


def write_container(rng: random.Random, kind: str, pages: list[HostilePage], directory: Path,
                    name: str = "crawl") -> Path:
    """The pages written as `kind` under `directory`; the path to give the verbs."""
    directory.mkdir(parents=True, exist_ok=True)
    if kind == "wget":
        root = directory / name
        for p in pages:
            f = root / p.site / p.path
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(p.data)
        return root
    path = directory / f"{name}.{kind}"
    if kind.startswith("warc"):
        from warcio.statusandheaders import StatusAndHeaders
        from warcio.warcwriter import WARCWriter

        with open(path, "wb") as f:
            writer = WARCWriter(f, gzip=kind.endswith(".gz"))
            for p in pages:
                ctype = rng.choice(("text/html", "text/html; charset=" + rng.choice(CHARSETS), None))
                http = StatusAndHeaders("200 OK", [("Content-Type", ctype)] if ctype else [], protocol="HTTP/1.1")
                writer.write_record(writer.create_warc_record(p.url, "response", payload=io.BytesIO(p.data),
                                                              http_headers=http))
    elif kind == "zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for p in pages:
                z.writestr(f"200601010000/{p.site}/{p.path}", p.data)
            z.writestr("linkinfo", "".join(f"{(f'200601010000/{p.site}/{p.path}', [words(rng, 2)])!r}\n"
                                           for p in pages) + "garbage line\n")
    else:
        lines = b"".join(json.dumps({"url": p.url, "html": p.data.decode("utf-8", "replace")}).encode() + b"\n"
                         for p in pages)
        path.write_bytes(gzip.compress(lines) if kind.endswith(".gz") else lines)
    return path


def damage(rng: random.Random, path: Path) -> str:
    """Damage a container file in place (truncate, flip bytes, append garbage); what was done."""
    if path.is_dir():
        return "none"
    data = path.read_bytes()
    how = rng.choice(("none", "truncate", "flip", "garbage"))
    if how == "truncate":
        data = truncate(rng, data)
    elif how == "flip":
        data = flip_bytes(rng, data)
    elif how == "garbage":
        data += rng.randbytes(rng.randint(1, 2000))
    path.write_bytes(data)
    return how


# --- pattern, noise-library and model files ------------------------------------------------

def _mutate_json(rng: random.Random, doc):
    """`doc` with one value somewhere replaced, removed or retyped."""
    junk = (None, -1, 10**30, 1e308, float("nan") if rng.random() < 0.1 else 0.5, "", "x" * 1000, [], {}, [[]],
            {"a": 1}, True, "L0", "main", "title", "static", "1999-99-99")
    if isinstance(doc, dict) and doc and rng.random() < 0.8:
        key = rng.choice(list(doc))
        r = rng.random()
        if r < 0.25:
            return {k: v for k, v in doc.items() if k != key}
        if r < 0.5:
            return {**doc, key: rng.choice(junk)}
        return {**doc, key: _mutate_json(rng, doc[key])}
    if isinstance(doc, list) and doc and rng.random() < 0.8:
        i = rng.randrange(len(doc))
        r = rng.random()
        if r < 0.2:
            return doc[:i] + doc[i + 1:]
        if r < 0.35:
            return doc + doc  # duplicate ids, repeated sections
        return doc[:i] + [_mutate_json(rng, doc[i])] + doc[i + 1:]
    return rng.choice(junk)


def mutate_file(rng: random.Random, path: Path) -> str:
    """Mutate a pattern, noise-library or model file in place, as JSON or as bytes; what was done."""
    data = path.read_bytes()
    r = rng.random()
    if path.suffix == ".json" and r < 0.6:
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if doc is not None:
            for _ in range(rng.randint(1, 3)):
                doc = _mutate_json(rng, doc)
            path.write_text(json.dumps(doc))
            return "json"
    if r < 0.75:
        path.write_bytes(truncate(rng, data))
        return "truncate"
    if r < 0.9:
        path.write_bytes(flip_bytes(rng, data))
        return "flip"
    path.write_bytes(rng.choice((b"", b"\x80\x04\x95", b"PK\x03\x04", b"{", b"null", b"[]", b'{"format": 1}')))
    return "replace"


# --- the properties ------------------------------------------------------------------------

def unaccounted(pages: list[HostilePage], path: Path, how: str, said: str, out_ids: set[str]) -> list[HostilePage]:
    """The pages neither in the output (by id) nor named in what the run said (warnings, errors).

    A reader names a page by its URL (WARC, JSON Lines), ``host/path`` (wget mirror) or
    ``<timestamp>/host/path`` (zip). A damaged file is not checked page by page: a flipped
    byte can make a page's record another kind of record (a WARC request, a zip directory).
    """
    if how != "none":
        return []
    lost = []
    for page in pages:
        names = (page.url, f"{page.site}/{page.path}")
        if not any(n in out_ids or n in said or any(i.endswith(n) for i in out_ids) for n in names):
            lost.append(page)
    return lost
