"""Issue 43, mechanism 2: a forum thread whose posts sit in a comment section is not replaced by what lies
after it (`stemmer.extract.decide.page_blocks`: `before_section`, `ARTICLE_FLOOR`)."""
import numpy as np

from stemmer.blocks import parse_html
from stemmer.classify.features import page_table
from stemmer.extract.decide import page_blocks

POSTS = [
    "I replaced the fan on my old laptop last week and now it runs much cooler, but the battery still drains "
    "within two hours even when the screen is dimmed and nothing else is running in the background.",
    "Have you checked the battery's wear level in the firmware settings? Mine showed forty percent after "
    "three years, and a new cell from the maker fixed it for good, so that is the first thing I would try.",
    "Thanks, the firmware says the battery is at sixty percent of its design capacity, so I will order a "
    "replacement and report back here once it has arrived and I have run it for a few days.",
]
JUMP = ("Go to forum: Laptops, Desktops, Phones and tablets, Networking, Operating systems, Software, Games, "
        "Buying advice, Off topic, Site feedback, Announcements")
BROWSING = "Recently browsing this topic: 3 members and 12 guests, including bob_1977, tinkerer and quietfan"
COOKIES = ("We use cookies and similar technologies to run this forum, to remember your settings and to "
           "measure how the site is used; you can change your choices at any time in the privacy settings.")


def decided(html: str, prob_of) -> list[str]:
    """The blocks `page_blocks` keeps where the classifier gives each block `prob_of(text)`."""
    table = page_table(parse_html(html))
    probs = np.array([prob_of(b.text) for b in table.blocks])
    return [b.text for b, keep in zip(table.blocks, page_blocks(table, probs, 0.35)) if keep]


def thread(after: str) -> str:
    # The thread's title is an h2 inside the posts' box (no h1 before it), each post a `comment-N` item.
    posts = "".join(f'<div class="comment" id="comment-{k}"><div class="author">member{k}</div><p>{p}</p></div>'
                    for k, p in enumerate(POSTS))
    return ('<html><body><div class="header"><a href="/">Forum home</a> <a href="/new">New posts</a></div>'
            f'<div id="comments"><h2>Battery drains fast after a fan swap</h2>{posts}</div>{after}</body></html>')


def test_navigation_after_a_thread_scored_under_the_threshold_is_not_its_article():
    after = f'<div class="jump"><p>{JUMP}</p></div><div class="browsing"><p>{BROWSING}</p></div>'
    kept = decided(thread(after), lambda t: 0.8 if t in POSTS else 0.15 if t in (JUMP, BROWSING) else 0.05)
    assert kept == POSTS


def test_a_box_chosen_after_the_posts_does_not_make_them_readers_comments():
    after = f'<div class="consent"><p>{COOKIES}</p></div>'
    kept = decided(thread(after), lambda t: 0.8 if t in POSTS else 0.5 if t == COOKIES else 0.05)
    assert all(p in kept for p in POSTS)


def test_an_article_before_its_comments_under_the_threshold_still_wins_over_them():
    # dragnet's shape (a blog post scored 0.2 to 0.3, its readers' comments above the threshold)
    article = ("The streets of the old town were crowded with cyclists on Sunday, when the council closed them "
               "to cars for the first time, and most of the shops stayed open late into the evening.")
    html = thread("").replace('<div id="comments">', f'<div class="post"><p>{article}</p></div><div id="comments">')
    kept = decided(html, lambda t: 0.8 if t in POSTS else 0.25 if t == article else 0.05)
    assert kept == [article]
