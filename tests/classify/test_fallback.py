import json
import subprocess
import sys

import numpy as np
import pytest

from stemmer import Page, extract
from stemmer.blocks import parse_html
from stemmer.cli import main
from stemmer.errors import ModelError
from stemmer.extract.fallback import Fallback, load_fallback, safe_extract

from .conftest import article


def pages(n=3, site="news.example"):
    return [Page(f"p{i}", f"http://{site}/{i}", site, article(i)[0]) for i in range(n)]


def test_pages_of_a_site_without_patterns_go_to_the_generic_classifier():
    [ex] = extract(pages(1), None)
    assert (ex.matched, ex.method) == (False, "classifier")
    assert ex.title == "Story 0"
    assert "the bridge over the river will be repaired" in ex.text
    assert "Home" not in ex.text.split() and "Privacy" not in ex.text
    assert all(b.method == "classifier" and 0.0 <= b.confidence <= 1.0 for b in ex.blocks)


def test_without_fallback_such_pages_stay_unmatched():
    [ex] = extract(pages(1), None, fallback=None)
    assert (ex.matched, ex.method, ex.text) == (False, "none", "")


def test_fitted_classifier_can_be_the_fallback(fitted):
    [ex] = extract(pages(1), None, fallback=Fallback(fitted))
    assert ex.method == "classifier" and ex.text == article(0)[1]


def test_page_with_no_text_gives_an_empty_classifier_record():
    for html in ("", "<html><body><img src=a.png></body></html>", "<html><body> \n </body></html>"):
        [ex] = extract([Page("e", None, "x.org", html)], None)
        assert (ex.method, ex.text, ex.blocks, ex.matched) == ("classifier", "", (), False)
    [ex] = extract([Page("b", None, "x.org", "\x00\x01\x02 binary")], None)
    assert not ex.matched


def test_a_block_of_a_megabyte_of_text_goes_through_the_classifier_whole():
    sentence = "The council met again on Tuesday and argued about the bridge over the river. "
    huge = (sentence * (1_000_000 // len(sentence) + 1))[:1_000_000]
    html = article(0)[0].replace("</h1>", f"</h1><p>{huge}</p>", 1)
    [big, small] = extract([Page("big", None, "x.org", html), pages(1)[0]], None)
    assert big.method == "classifier" and big.title == "Story 0"
    assert any(b.text == huge.strip() for b in big.blocks)  # kept whole, not cut
    assert small.method == "classifier" and "the bridge over the river will be repaired" in small.text


class Unsure:
    """A classifier that finds no block main text."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.full(len(table.blocks), 0.1)


def test_a_page_that_is_one_run_of_text_keeps_it_when_the_classifier_finds_nothing():
    text = "One long letter to the editor about the bridge, with no markup at all. " * 40
    one_block = f"<html><body><a href=/>Home</a><p>{text}</p></body></html>"
    scattered = "<html><body>" + "".join(f"<p>Item {i} of a list</p>" for i in range(10)) + "</body></html>"
    [ex, none] = extract([Page("a", None, "x.org", one_block), Page("b", None, "x.org", scattered)], None,
                         fallback=Fallback(Unsure()))
    assert ex.text == text.strip() and [b.confidence for b in ex.blocks] == [0.1]
    assert none.text == "" and none.method == "classifier"


class Sure:
    """A classifier that finds every block main text."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.full(len(table.blocks), 0.9)


def test_readers_comments_are_left_out_unless_the_page_is_nothing_but_comments():
    story = "<p>The council agreed to repair the bridge before winter.</p>"
    comments = ('<ol class="commentlist"><li><p>Great story, thanks!</p></li>'
                "<li><p>The bridge was fine last year.</p></li></ol>")
    article_page = f"<html><body><div class=post>{story}</div>{comments}</body></html>"
    thread = f"<html><body>{comments}</body></html>"
    lookalike = f'<html><body><div class="comments-open">{story}</div></body></html>'  # not a section name
    [art, forum, other] = extract([Page(i, None, "x.org", html) for i, html in
                                   (("a", article_page), ("t", thread), ("o", lookalike))],
                                  None, fallback=Fallback(Sure()))
    assert art.text == "The council agreed to repair the bridge before winter."
    assert forum.text == "Great story, thanks!\nThe bridge was fine last year."
    assert other.text == "The council agreed to repair the bridge before winter."


def test_a_page_whose_chosen_blocks_are_all_comments_takes_its_article_instead():
    class FondOfComments:  # sure of the comments, unsure of the article
        threshold = 0.5

        def predict_proba(self, table):
            return np.array([0.9 if table.in_comments(i) else 0.3 if b.weight > 20 else 0.1
                             for i, b in enumerate(table.blocks)])

    story = ("<p>The council agreed on Monday to repair the old stone bridge before winter.</p>"
             "<p>Work starts in October and should take six weeks.</p>")
    comments = ('<article class="comment-41"><p>Great story, thanks!</p></article>'
                '<article class="comment-42"><p>The bridge was fine last year.</p></article>')
    article_page = f"<html><body><div class=post>{story}</div><nav>Home</nav>{comments}</body></html>"
    thread = f"<html><body><h1>Bridge?</h1>{comments}</body></html>"  # too short to be an article
    [art, forum] = extract([Page(i, None, "x.org", html) for i, html in
                            (("a", article_page), ("t", thread))], None, fallback=Fallback(FondOfComments()))
    assert art.text == ("The council agreed on Monday to repair the old stone bridge before winter.\n"
                        "Work starts in October and should take six weeks.")
    assert forum.text == "Great story, thanks!\nThe bridge was fine last year."


class SureButOfAds:
    """A classifier that finds every block main text but those that say Advertisement."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.array([0.1 if b.text == "Advertisement" else 0.9 for b in table.blocks])


def test_chosen_blocks_in_regions_other_than_the_article_are_dropped():
    story = ("<p>The council agreed on Monday to repair the old stone bridge before winter.</p>"
             "<p>Advertisement</p><p>Work starts in October and should take six weeks.</p>"
             '<div class="share-box"><p>Share this story with your friends</p></div>'  # a class word: dropped
             "<p>Advertisement</p><ul><li><a href=/ferry>The ferry runs again</a></li></ul>")  # links: dropped
    page = (f"<html><body><div class=post>{story}</div><p>Advertisement</p>"
            "<div class=more><p>Sign up for our daily mail</p></div></body></html>")  # outside: dropped
    item = "<div class=item><h2>{0}</h2><p>{1}</p></div>"
    listing = ("<html><body><div class=list>" + item.format("Bridge", "The council will repair the old stone bridge.")
               + "<p>Advertisement</p>" + item.format("Ferry", "The ferry runs again from May.") + "</div></body></html>")
    [art, items] = extract([Page("a", None, "x.org", page), Page("l", None, "x.org", listing)], None,
                           fallback=Fallback(SureButOfAds()))
    assert art.text == ("The council agreed on Monday to repair the old stone bridge before winter.\n"
                        "Work starts in October and should take six weeks.")  # after the ad, in the article's element
    assert items.text == "Bridge\nThe council will repair the old stone bridge.\nFerry\nThe ferry runs again from May."
    # a site model learned its site's regions itself: its choice stands
    own = Fallback("generic").extract("a", None, "x.org", parse_html(page), model=SureButOfAds())
    assert "Sign up for our daily mail" in own.text and "Share this story" in own.text


def test_the_article_is_the_run_of_most_text_outside_links():
    links = "".join(f"<li><a href=/{k}>Another story about the bridge and the river, part {k}</a></li>"
                    for k in range(6))
    page = (f"<html><body><div class=aside><ul>{links}</ul></div><p>Advertisement</p>"
            "<div class=post><p>The council agreed on Monday to repair the old stone bridge.</p></div></body></html>")
    [ex] = extract([Page("a", None, "x.org", page)], None, fallback=Fallback(SureButOfAds()))
    assert ex.text == "The council agreed on Monday to repair the old stone bridge."


def test_a_page_that_breaks_the_classifier_is_one_unmatched_page(fitted, caplog):
    class Broken:
        threshold = 0.5

        def predict_proba(self, table):
            raise ValueError("boom")

    assert safe_extract(Fallback(Broken()), "p", None, "x.org", parse_html(article(1)[0])) is None
    assert "classifier failed on p: boom" in caplog.text
    [ex] = extract(pages(1), None, fallback=Fallback(Broken()))
    assert ex.method == "none"


def test_missing_or_corrupt_model_is_a_model_error(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        load_fallback(tmp_path / "nope.json")
    (tmp_path / "m.json").write_text('{"format": "stemmer-block-classifier", "version": 1}')
    with pytest.raises(ModelError):
        list(extract(pages(1), None, fallback=str(tmp_path / "m.json")))


def test_cli_extract_without_patterns_uses_the_classifier(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ./patterns here
    path = tmp_path / "pages.jsonl"
    path.write_text("".join(json.dumps({"url": p.url, "html": p.html}) + "\n" for p in pages(2)))
    assert main(["extract", str(path)]) == 0
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["method"] for r in records] == ["classifier", "classifier"]
    assert "2 by the classifier" in err
    assert main(["extract", "--no-fallback", "-q", str(path)]) == 0
    assert {json.loads(line)["method"] for line in capsys.readouterr().out.splitlines()} == {"none"}


def test_cli_bad_model_is_one_error_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "pages.jsonl"
    path.write_text(json.dumps({"url": "http://a.org/", "html": article(1)[0]}) + "\n")
    (tmp_path / "bad.json").write_text("{oops")
    assert main(["extract", "--model", str(tmp_path / "bad.json"), str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("stemmer: error: ") and "bad.json" in err[0]

ONE_PAGE = """
import sys
from stemmer.cli import main
status = main(["extract", "-q", "-p", sys.argv[1], sys.argv[2]])
heavy = sorted(m for m in ("torch", "sentence_transformers", "sklearn", "transformers") if m in sys.modules)
print(status, heavy, file=sys.stderr)
"""
HTML = ('<html><body><div class="nav"><a href="/">Home</a> <a href="/x">News</a></div><div class="post">'
        '<h1>Title {i}</h1><p>Body text {i}: {words}.</p><p>Second paragraph {i}: {more}.</p></div>'
        '<div class="foot">Copyright 2024 A Org</div></body></html>')


def page_html(i: int) -> str:
    """A page of the tiny site; its body varies in words, not only in digits (else all of it is static)."""
    import random

    rng = random.Random(i)
    words = [" ".join("".join(rng.choice("abcdefghiklmnoprstuvw") for _ in range(6)) for _ in range(12))
             for _ in range(2)]
    return HTML.format(i=i, words=words[0], more=words[1])


def test_pattern_only_extract_of_one_page_imports_no_torch(tmp_path):
    """Its seconds are a benchmark figure (benchmarks/classifier.py), not a timed test."""
    from stemmer import analyze, save_patterns

    site = [Page(f"p{i}", f"http://a.org/{i}.html", "a.org", page_html(i)) for i in range(6)]
    save_patterns(analyze(site), tmp_path / "pat")
    page = tmp_path / "page.jsonl"
    page.write_text(json.dumps({"url": "http://a.org/9.html", "html": page_html(9)}) + "\n")
    res = subprocess.run([sys.executable, "-c", ONE_PAGE, str(tmp_path / "pat"), str(page)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stderr.strip() == "0 []", res.stderr
    assert '"matched": true' in res.stdout


def test_classifier_extract_imports_no_torch():
    code = ("import sys\nfrom stemmer import Page, extract\n"
            f"html = {article(1)[0]!r}\n"
            "[ex] = extract([Page('p', None, 'b.org', html)], None)\n"
            "assert ex.method == 'classifier'\n"
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'sklearn') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"



class Paragraphs:
    """A classifier that finds main text the paragraphs that say so."""

    threshold = 0.5

    def predict_proba(self, table):
        return np.array([0.9 if b.text.startswith("Paragraph") else 0.1 for b in table.blocks])


def test_the_records_blocks_are_the_main_ones_and_the_titles_in_page_order():
    html = ("<html><head><title>Storm hits coast</title></head><body><div><p>Paragraph one of the story.</p>"
            "<h2>Storm hits coast</h2><p>Paragraph two of the story.</p></div><p>Menu</p></body></html>")
    [ex] = extract([Page("s", None, "x.org", html)], None, fallback=Fallback(Paragraphs()))
    assert ex.title == "Storm hits coast"
    assert [(b.role, b.index, b.tag, b.confidence) for b in ex.blocks] == [
        ("main", 0, "p", 0.9), ("title", 1, "h2", 0.1), ("main", 2, "p", 0.9)]
    assert ex.text == "Paragraph one of the story.\nParagraph two of the story."
