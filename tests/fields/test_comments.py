"""The built-in ``comments`` field: readers' comments beside the body, never in it (issue 44)."""
import io
import json
import random

import pytest

import stemmer
import stemmer.api as api
from stemmer import Page
from stemmer.outputs import Writer

ARTICLE = ("<h1>Why we plant trees in autumn</h1>"
           "<div class='entry-content'>"
           "<p>Autumn planting gives roots a whole season to settle before the summer heat arrives in the garden.</p>"
           "<p>The soil is still warm, rain is frequent, and the young trees need far less watering than in spring.</p>"
           "<p>Nurseries also sell bare-root stock only in the cold months, and it costs a third of potted trees.</p>"
           "</div>")
COMMENTS = [("Maria Lopez", "March 3, 2024 at 10:15 am", "We planted three apple trees last October and all of them took."),
            ("Tom", "March 4, 2024 at 8:02 pm", "Does this work for conifers too, or only for deciduous trees?"),
            ("Ann Baker", "March 5, 2024 at 9:30 am", "Thank you, this finally explains why the nursery was closed in May.")]
REPLY = ("Maria Lopez", "March 4, 2024 at 9:00 pm", "Conifers too, but water them well before the ground freezes.")


def _wordpress(comments=COMMENTS, reply=REPLY) -> str:
    """A WordPress page: the post, then `ol.commentlist` (a reply nested in the second comment), then the form."""
    def item(author, date, text, inner=""):
        return (f"<li class='comment even depth-1'><article class='comment-body'>"
                f"<footer class='comment-meta'><div class='comment-author vcard'><b class='fn'>{author}</b> "
                f"<span class='says'>says:</span></div><div class='comment-metadata'><a href='#c'>"
                f"<time>{date}</time></a></div></footer><div class='comment-content'><p>{text}</p></div>"
                f"<div class='reply'><a class='comment-reply-link' href='#r'>Reply</a></div></article>{inner}</li>")
    items = [item(*c, inner=f"<ol class='children'>{item(*reply)}</ol>" if k == 1 and reply else "")
             for k, c in enumerate(comments)]
    area = (f"<div id='comments' class='comments-area'><h2 class='comments-title'>{len(comments)} thoughts</h2>"
            f"<ol class='comment-list'>{''.join(items)}</ol>"
            "<div id='respond' class='comment-respond'><h3 id='reply-title'>Leave a Reply</h3>"
            "<form id='commentform'><p class='comment-notes'>Your email address will not be published.</p>"
            "<p><label>Comment</label><textarea></textarea></p></form></div></div>") if comments else ""
    return (f"<html><head><title>Why we plant trees in autumn</title></head><body><div id='page'>"
            f"<article class='post'>{ARTICLE}</article>{area}</div></body></html>")


def _disqus() -> str:
    """A page with a rendered Disqus thread: `li.comment` items, each one's replies in the `ul.children` beside it."""
    def item(author, text, depth=1):
        return (f"<li class='comment depth-{depth}' id='dsq-comment-{hash(text) % 1000}'>"
                f"<div class='dsq-comment-header'><cite><a href='http://example.net/{author}'>{author}</a></cite></div>"
                f"<div class='dsq-comment-body'><div class='dsq-comment-message'><p>{text}</p></div></div></li>")
    thread = (item("artsyphotos", "I kept reading the hashtag as a question about the future of the whole web.")
              + "<ul class='children'>" + item("johnbattelle", "It is a question, and the book tries to answer it.", 2)
              + "</ul>" + item("datron", "Thanks for the invitation to the trip, and good luck with the manuscript.")
              + item("Jim", "Always fun to step into the not knowing space. Thanks for sharing the outline."))
    return ("<html><head><title>Why we plant trees in autumn</title></head><body>"
            f"<div class='post'>{ARTICLE}</div>"
            f"<div id='disqus_thread'><div id='dsq-content'><ul id='dsq-comments'>{thread}</ul></div></div>"
            "</body></html>")


def _replies() -> str:
    """A news story with its readers' threaded replies (Slashdot's `ul#commentlisting`)."""
    def item(author, text, inner=""):
        return (f"<li class='comment full' id='tree_{abs(hash(text)) % 10000}'><div class='cw'>"
                f"<div class='commentTop'><h4><a href='#'>Re: story</a></h4>"
                f"<span class='by'>by {author} (12345)</span></div>"
                f"<div class='commentBody'><p>{text}</p></div></div>{inner}</li>")
    nested = "<ul>" + item("kcin", "I make my own silicon wafers in the garage, on weekends.") + "</ul>"
    listing = (item("garaged", "I can build a computer from parts, and so can my kids.", nested)
               + item("ballpoint", "I make my own wafers too, but mostly carbon based ones from the bakery."))
    return ("<html><head><title>The Nation Is Losing Its Toolbox</title></head><body>"
            f"<div class='story'>{ARTICLE}</div>"
            f"<section class='commentwrap' id='comments'><ul id='commentlisting'>{listing}</ul></section></body></html>")


def _extract(html: str, url: str = "https://garden.example/2024/03/autumn-trees.html"):
    return stemmer.extract_html(html, url)


def test_wordpress_comments_one_per_commenter_with_author_and_date():
    ex = _extract(_wordpress())
    comments = ex.fields["comments"]
    assert [c["text"] for c in comments] == [COMMENTS[0][2], COMMENTS[1][2], REPLY[2], COMMENTS[2][2]]
    assert [c["author"] for c in comments] == ["Maria Lopez", "Tom", "Maria Lopez", "Ann Baker"]
    assert [c["date"][:10] for c in comments] == ["2024-03-03", "2024-03-04", "2024-03-04", "2024-03-05"]
    assert "apple trees" not in ex.text and "Leave a Reply" not in json.dumps(comments)
    assert "Autumn planting" in ex.text


def test_disqus_comments_with_replies_beside_their_comment():
    comments = _extract(_disqus()).fields["comments"]
    assert [c["author"] for c in comments] == ["artsyphotos", "johnbattelle", "datron", "Jim"]
    assert comments[1]["text"] == "It is a question, and the book tries to answer it."
    assert all(c["date"] is None for c in comments)  # the markup gives none


def test_forum_replies_after_a_story_are_comments_but_a_threads_posts_are_its_text():
    comments = _extract(_replies()).fields["comments"]
    assert [c["author"] for c in comments] == ["garaged", "kcin", "ballpoint"]
    assert comments[1]["text"] == "I make my own silicon wafers in the garage, on weekends."
    # A thread: its posts follow its title directly, whatever their markup calls them: they are the page.
    posts = "".join(f"<div class='comment' id='comment-{k}'><p class='author'>user{k}</p><p>{text}</p></div>"
                    for k, text in enumerate(c[2] for c in COMMENTS))
    thread = _extract(f"<html><body><h1>Planting apple trees in autumn?</h1><div id='comments'>{posts}</div></body></html>")
    assert COMMENTS[0][2] in thread.text and "comments" not in thread.fields


def test_a_page_without_comments_has_no_comments_key():
    assert _extract(_wordpress()).fields["comments"]
    bare = _extract(_wordpress(comments=[], reply=None))
    assert "comments" not in bare.fields and "Autumn planting" in bare.text
    form_only = _extract(_wordpress(comments=[], reply=None).replace(
        "</article>", "</article><div id='respond'><h3>Leave a Reply</h3><form><p>Your email address "
                      "will not be published. Required fields are marked.</p></form></div>"))
    assert "comments" not in form_only.fields
    counted = _extract(_wordpress(comments=[], reply=None).replace(
        "</article>", "</article><div id='comments'><h3>Comments</h3><p class='count'>0 Comments</p></div>"))
    assert "comments" not in counted.fields


@pytest.mark.parametrize("page", [_wordpress, _disqus, _replies])
def test_the_body_is_byte_identical_with_and_without_the_comments_field(page, monkeypatch):
    html = page()
    with_them = _extract(html)
    monkeypatch.setattr(api, "with_comments", lambda result, *args: result)
    without = _extract(html)
    assert with_them.fields["comments"] and "comments" not in without.fields
    assert with_them.blocks == without.blocks and with_them.text == without.text and with_them.title == without.title
    said = "\n".join(c["text"] for c in with_them.fields["comments"])
    assert not any(b.text in said for b in with_them.body_blocks())


WORDS = ("roses pears beans apples tulips garlic onions cherries plums maples birches hedges lawns ponds mulch "
         "compost seeds bulbs frost rain shade clay sand worms bees ladders fences paths walls barrows").split()


def _site(n: int = 8) -> list[Page]:
    """A blog of one layout whose posts have comments: each post its own title and text, 2 or 3 comments."""
    rng = random.Random(44)
    pages = []
    for k in range(n):
        def sentence(m: int) -> str:
            return " ".join(rng.choice(WORDS) for _ in range(m)).capitalize() + "."
        paragraphs = "".join(f"<p>{sentence(14)} {sentence(12)}</p>" for _ in range(3))
        article = f"<h1>{sentence(4)[:-1]}</h1><div class='entry-content'>{paragraphs}</div>"
        comments = [(a, d.replace("2024", str(2010 + k)), f"{sentence(6)} {t}") for a, d, t in COMMENTS[: 2 + k % 2]]
        html = _wordpress(comments, reply=None).replace(ARTICLE, article)
        pages.append(Page(f"p{k}", f"https://garden.example/notes/{k}.html", "garden.example", html))
    return pages


def test_comments_on_pages_read_by_a_learned_layout_with_and_without_fallback():
    pages = _site()
    patterns = stemmer.analyze(pages[:6], site_model=False)
    for fallback in ("generic", None):
        out = list(stemmer.extract(pages[6:], patterns, fallback=fallback))
        assert all(ex.matched for ex in out)
        assert [len(ex.fields["comments"]) for ex in out] == [2, 3]
        last = out[1].fields["comments"][2]
        assert last["text"].endswith(COMMENTS[2][2]) and (last["author"], last["date"]) == ("Ann Baker", "2017-03-05T09:30")
        assert all(c[2] not in ex.text for ex in out for c in COMMENTS)


def test_comments_in_every_output_format():
    ex = _extract(_wordpress())
    writers = {}
    for fmt in ("jsonl", "webstemmer", "markdown"):
        out = io.StringIO()
        Writer(out, fmt).write(ex)
        writers[fmt] = out.getvalue()
    assert json.loads(writers["jsonl"])["fields"]["comments"] == ex.fields["comments"]
    lines = [line for line in writers["webstemmer"].splitlines() if line.startswith("FIELD-comments: ")]
    assert [json.loads(line.split(": ", 1)[1]) for line in lines] == ex.fields["comments"]
    front = writers["markdown"].split("---")[1]
    assert any(line.startswith('  "comments": [{"text": ') for line in front.splitlines())
