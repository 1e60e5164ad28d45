"""One bad page never costs its site: malformed URLs are no URL, a page that raises is skipped."""
import logging
from dataclasses import replace
from pathlib import Path

import pytest

import stemmer
from stemmer import analyze, read_pages, update
from stemmer.cli import main
from stemmer.crawl.links import extract_links
from stemmer.urls import join_url, split_url

DEMO = Path(stemmer.__file__).parent / "demo" / "site"
SITE = "demo.stemmer.test"
BAD_LINK = '<a href="http://[oops/x">a story</a>'


@pytest.mark.parametrize("url", ["http://[oops/x", "http://h.com:port/", "//[::1/"])
def test_malformed_url_is_no_url(url):
    assert split_url(url) is None
    assert join_url("http://h.com/a/", url) is None
    assert join_url(url, "b.html") is None


def test_good_urls_parse_and_join():
    assert split_url("http://[::1]:8080/a").port == 8080
    assert join_url("http://h.com/a/b.html", "../c.html#x") == "http://h.com/c.html#x"


def demo_pages(bad_on: int = 0):
    """The demo site's pages; the first `bad_on` of them carry a link with a malformed URL."""
    pages = list(read_pages(DEMO))
    return [replace(p, html=p.html.replace("</body>", BAD_LINK + "</body>")) if i < bad_on else p
            for i, p in enumerate(pages)]


def test_malformed_link_does_not_cost_the_site():
    good = analyze(demo_pages(), site_model=False).sites[SITE]
    learned = analyze(demo_pages(bad_on=3), site_model=False).sites[SITE]
    assert learned.layouts and len(learned.layouts) == len(good.layouts)


def test_malformed_link_in_update():
    patterns = analyze(demo_pages(), site_model=False)
    result = update(demo_pages(bad_on=3), patterns, site_model=False)
    assert [s.site for s in result.sites] == [SITE]


def test_malformed_base_and_links_in_a_crawled_page():
    body = b'<base href="http://[oops/"><a href="/a">A</a><a href="http://[x/">B</a><a href="b">C</a>'
    assert extract_links(body, "http://h.com/p/") == [("http://h.com/a", "A"), ("http://h.com/p/b", "C")]


def test_page_that_raises_is_skipped_with_a_warning(monkeypatch, caplog):
    from stemmer import site

    segment = site.segment

    def fragile(root, **kw):
        if "sourdough" in stemmer.blocks.parse.etree.tostring(root, encoding="unicode"):
            raise RecursionError("maximum recursion depth exceeded")
        return segment(root, **kw)

    monkeypatch.setattr(site, "segment", fragile)
    pages = demo_pages()
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        learned = analyze(pages, site_model=False).sites[SITE]
    bad = [p.id for p in pages if "sourdough" in p.html]
    assert bad and all(f"{pid}: skipped, RecursionError" in caplog.text for pid in bad)
    assert learned.layouts
    assert learned.history[-1]["skipped"] == len(bad)
    assert learned.history[-1]["pages"] == len(pages) - len(bad)


def test_cli_analyze_and_update_with_a_malformed_link(tmp_path, capsys):
    mirror = tmp_path / "m"
    for page in demo_pages(bad_on=5):
        path = mirror / page.id
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page.html)
    assert main(["analyze", str(mirror), "-o", str(tmp_path / "p")]) == 0
    assert (tmp_path / "p" / f"{SITE}.json").exists()
    assert main(["update", str(tmp_path / "p"), str(mirror)]) == 0
    assert "Traceback" not in capsys.readouterr().err


@pytest.fixture
def lossy_crawl(tmp_path, write_warc):
    """The demo site with an empty and a binary page, and a WARC cut short in its second record."""
    mirror = tmp_path / "m"
    for page in demo_pages():
        path = mirror / page.id
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page.html)
    (mirror / SITE / "empty.html").write_bytes(b"")
    (mirror / SITE / "binary.html").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 4)
    warc = write_warc([(f"http://w.com/{i}", f"<html><body><p>page {i}</p></body></html>") for i in range(3)],
                      name="cut.warc.gz")
    data = warc.read_bytes()
    warc.write_bytes(data[:-40])
    return [str(mirror), str(warc)]


@pytest.mark.parametrize("verb", ["analyze", "extract", "html2txt", "update"])
def test_summary_counts_skipped_pages_and_damaged_inputs(verb, lossy_crawl, tmp_path, capsys):
    out = ["-o", str(tmp_path / "out")] if verb in ("analyze", "extract") else []
    argv = [verb, *([str(tmp_path)] if verb == "update" else []), *lossy_crawl, *out]
    assert main(argv) == 0
    [summary] = [line for line in capsys.readouterr().err.splitlines() if "2 pages skipped" in line]
    assert summary.startswith(f"stemmer: {verb}: ") and "2 pages skipped, 1 input damaged" in summary
    assert main(["--strict", *argv, "-q"]) == 1
    assert capsys.readouterr().err == ""


def test_strict_run_without_losses_exits_0(tmp_path):
    assert main(["--strict", "analyze", "-q", str(DEMO), "-o", str(tmp_path / "p")]) == 0


def test_nesting_deeper_than_max_depth_is_made_siblings(caplog):
    from stemmer.blocks import parse_html, segment
    from stemmer.blocks.parse import MAX_DEPTH

    page = "<html><body>" + "".join(f"<div>t{i} " for i in range(1000)) + "</body></html>"
    with caplog.at_level(logging.WARNING, logger="stemmer"):
        blocks = segment(parse_html(page, name="deep.html")).blocks
    assert [b.text for b in blocks] == [f"t{i}" for i in range(1000)]
    assert max(len(b.path) for b in blocks) <= MAX_DEPTH
    assert "deep.html: elements nested deeper than" in caplog.text


def test_links_of_a_page_in_a_codec_libxml2_lacks():
    body = '<meta charset="iso-2022-jp"><a href="/a">日本</a>'.encode("iso2022_jp")
    assert extract_links(body, "http://h.com/", encoding="iso2022_jp") == [("http://h.com/a", "日本")]
