"""Issue 43, mechanism 3: class and id words that name a forum's own structure are no marks of another
region (`stemmer.extract.decide.drop_boilerplate_regions`, `in_sidebar`)."""
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
    "Same here with an older model: the new battery took a couple of charge cycles to settle, and after "
    "that it lasted close to six hours of ordinary work, which is what the maker promised when it was new.",
]
NOTICE = ("The forum will be read-only on Saturday from eight to ten in the morning while we move it to a new "
          "server; posts written during that time will not be saved, so please wait until it is back.")


def decided(html: str, prob_of) -> list[str]:
    """The blocks `page_blocks` keeps where the classifier gives each block `prob_of(text)`."""
    table = page_table(parse_html(html))
    probs = np.array([prob_of(b.text) for b in table.blocks])
    return [b.text for b, keep in zip(table.blocks, page_blocks(table, probs, 0.35)) if keep]


def test_posts_in_wrappers_whose_id_holds_comment_are_all_kept():
    # Invision's shape: each post's content in `div#comment-N_wrap`, no element named as a comment section.
    posts = "".join(f'<article class="cPost ipsBox" id="elComment_{k}"><aside class="author">member{k}</aside>'
                    f'<div class="ipsComment_content" id="comment-{1065461 + k}_wrap"><div class="cPost_contentWrap">'
                    f'<div class="ipsType_richText"><p>{p}</p></div></div></div></article>'
                    for k, p in enumerate(POSTS))
    html = ('<html><body><nav><a href="/">Forums</a> <a href="/new">New posts</a></nav>'
            f'<h1>Battery drains fast after a fan swap</h1><div class="cTopic">{posts}</div>'
            '<footer><p>Powered by a forum engine.</p></footer></body></html>')
    kept = decided(html, lambda t: 0.8 if t in POSTS else 0.05)
    assert kept == POSTS


def test_a_main_column_whose_class_says_it_has_a_sidebar_is_no_side_column():
    # XenForo's shape: a notice above the page, the posts in `p-body-main p-body-main--withSidebar`,
    # the side column inside the same wrapper.
    posts = "".join(f'<article class="message message--post"><div class="message-userContent">'
                    f'<article class="message-body"><div class="bbWrapper">{p}</div></article></div></article>'
                    for p in POSTS)
    html = ('<html><body><div class="p-body-header"><ul class="notices"><li class="notice">'
            f'<div class="notice-content">{NOTICE}</div></li></ul></div>'
            '<div class="p-body-main p-body-main--withSidebar"><div class="p-body-contentCol">'
            f'<h1>Battery drains fast after a fan swap</h1><div class="block-body">{posts}</div></div>'
            '<div class="p-body-sidebarCol"><div class="p-body-sidebar"><h3>Similar threads</h3>'
            '<ul><li><a href="/t/1">Fan noise</a></li><li><a href="/t/2">Screen flicker</a></li></ul></div></div>'
            '</div></body></html>')
    kept = decided(html, lambda t: 0.8 if t in POSTS else 0.5 if t == NOTICE else 0.05)
    assert all(p in kept for p in POSTS)
    # the side column itself is still one: a box of prose there is no article
    side = ("Our members have written more than two hundred thousand posts about laptops since the forum "
            "opened, and the moderators pick the most useful of them for the guides on the front page.")
    html = html.replace("<h3>Similar threads</h3>", f"<p>{side}</p>")
    kept = decided(html.replace(NOTICE, "Notice"), lambda t: 0.8 if t in POSTS else 0.6 if t == side else 0.05)
    assert all(p in kept for p in POSTS) and side not in kept
