"""The title slot by the agreement of each page's own names for itself, and the listing pages that have none."""
import random

import pytest

from stemmer import Page, analyze, extract
from stemmer.blocks import parse_html, segment
from stemmer.layout.learn import learn_site
from stemmer.layout.model import AnalyzeParams, SitePage
from stemmer.layout.titles import away_texts, own_titles, site_name_parts, title_less_names

from .conftest import role_of


def _words(rng: random.Random, k: int) -> str:
    return " ".join("".join(rng.choice("abcdefghijklmnoprstuvy") for _ in range(rng.randint(3, 8))) for _ in range(k))


def _kicker_page(n: int, head: str) -> SitePage:
    """A story whose headline is no heading while an h1 above it holds a varying kicker; `head` names the headline.

    Without a signal that names the headline, the highest heading above the body (the kicker) would be the title.
    """
    rng = random.Random(400 + n)
    headline, kicker = _words(rng, 5), _words(rng, 2)
    head = head.replace("HEADLINE", headline)
    html = (f'<html><head><title>The Daily Example</title>{head}</head><body>'
            f'<nav class="menu"><a href="/">Home</a> <a href="/about">About us</a></nav>'
            f'<div class="story"><h1 class="kicker">{kicker}</h1><p class="headline">{headline}</p>'
            + "".join(f"<p>{_words(rng, 40)}</p>" for _ in range(3))
            + '</div><footer>Copyright the example people</footer></body></html>')
    root = parse_html(html)
    return SitePage(f"story-{n}", segment(root, with_links=True), [], own_titles(root))


@pytest.mark.parametrize("head", [
    '<meta property="og:title" content="HEADLINE">',
    '<meta name="twitter:title" content="HEADLINE">',
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
    '"headline": "HEADLINE"}</script>',
    '<script type="application/ld+json">{"@graph": [{"@type": "WebSite", "name": "Example"}, '
    '{"@type": "BlogPosting", "headline": "HEADLINE"}]}</script>',
])
def test_a_page_s_own_title_signal_names_the_title_slot(head):
    [layout] = learn_site("daily.example", [_kicker_page(n, head) for n in range(6)]).layouts
    assert role_of(layout, "p.headline") == "title"
    assert role_of(layout, "h1.kicker") != "title"


def test_without_a_signal_the_highest_heading_is_the_title():
    [layout] = learn_site("daily.example", [_kicker_page(n, "") for n in range(6)]).layouts
    assert role_of(layout, "h1.kicker") == "title"


def test_title_less_the_site_name_parts():
    titles = [f"Story {n} | Daily Example" for n in range(5)] + ["About – Daily Example"]
    names = site_name_parts(titles)
    assert title_less_names("Storm hits the coast | Daily Example", names) == "Storm hits the coast"
    assert title_less_names("Daily Example", names) == ""
    names = site_name_parts([f"Site.com: Story {n}" for n in range(5)])
    assert title_less_names("Site.com: Storm: the aftermath", names) == "Storm: the aftermath"  # only its ends


def test_what_every_page_of_a_layout_has_in_its_title_names_no_page():
    from stemmer.layout.titles import layout_title_names

    titles = ["Online Edition: Breaking News"] * 3 + ["Online Edition: Storm hits coast"]
    assert layout_title_names(titles, frozenset()) == ("Breaking News", "Online Edition")
    assert layout_title_names(["A story", "Another"], frozenset({"another"})) == ("Another",)


def _boxed_headline_page(n: int) -> SitePage:
    """A Tailwind theme: the h1 in <header> carries 'font-extrabold' (Readability's 'extra': a box of noise)."""
    rng = random.Random(500 + n)
    title = _words(rng, 4)
    toc = "".join(f'<li><a href="#s{k}">{_words(rng, 3)}</a></li>' for k in range(3))
    html = (f'<html><head><title>{title} | Til</title><meta property="og:title" content="{title}"></head><body>'
            f'<main><article><header id="single_header"><h1 class="font-extrabold">{title}</h1>'
            f'<div class="meta">{rng.randint(1, 28)} May 2025</div></header>'
            f'<nav id="tableofcontents"><ul>{toc}</ul></nav><section class="article-content">'
            + "".join(f"<h2 id='s{k}'>{_words(rng, 3)}</h2><p>{_words(rng, 40)}</p>" for k in range(3))
            + '</section></article></main></body></html>')
    root = parse_html(html)
    return SitePage(f"til-{n}", segment(root, with_links=True), [], own_titles(root))


def test_a_headline_in_a_box_of_noise_is_still_the_title_when_the_page_names_it():
    [layout] = learn_site("til.example", [_boxed_headline_page(n) for n in range(6)]).layouts
    assert role_of(layout, "h1.font-extrabold") == "title"


def test_a_link_to_another_page_is_never_its_title():
    links = [("/posts/a-story/", "A story of ours"), ("./", "This very page"),
             ("https://blog.example/p/", "Itself again"), ("#top", "Back to top")]
    away = away_texts("https://blog.example/p/", links)
    assert away == {"astoryofours"}


def _template(title: str, main: str, n: int) -> str:
    rng = random.Random(n)
    side = "".join(f'<li><a href="/cat/{k}/">{_words(random.Random(k), 3)}</a></li>' for k in range(30))
    return (f'<html><head><title>{title} – My Blog</title></head><body><header class="site-header">'
            f'<p class="site-title"><a href="/">My Blog</a></p><nav><a href="/">Home</a> <a href="/about/">About</a>'
            f'</nav></header><div id="content"><main id="main">{main}</main><aside class="widget-area"><ul>{side}'
            f'</ul><p>{_words(random.Random(1), 60)}</p></aside></div>'
            f'<footer class="site-footer"><p>Proudly powered by WordPress {rng.randint(1, 3)}</p></footer></body></html>')


def _post(n: int) -> tuple[Page, str, str]:
    rng = random.Random(n)
    title = _words(rng, 5)
    body = [_words(rng, rng.randint(30, 50)) for _ in range(3)]
    main = (f'<article class="post"><header class="entry-header"><h1 class="entry-title">{title}</h1></header>'
            f'<div class="entry-content">' + "".join(f"<p>{p}</p>" for p in body) + "</div></article>")
    return Page(f"blog.test/p{n}/", f"http://blog.test/p{n}/", "blog.test", _template(title, main, n)), title, "\n".join(body)


def _index(n: int) -> Page:
    rng = random.Random(500 + n)
    teasers = "".join(f'<div class="teaser"><h3><a href="/p{n * 5 + k}/">{_words(rng, 5)}</a></h3>'
                      f'<p>{_words(rng, 35)}</p></div>' for k in range(5))
    main = f'<h1 class="page-title">Recent posts</h1><div class="recent-posts">{teasers}</div>'
    return Page(f"blog.test/page/{n}/", f"http://blog.test/page/{n}/", "blog.test",
                _template(f"Page {n}", main, 100 + n))


def test_articles_sharing_their_template_with_index_pages_get_their_body():
    # At this cluster threshold the two page types fall into one cluster; their teasers and
    # bodies lie in different containers, and the teasers, first, took the main role.
    train = [_post(n)[0] for n in range(12)] + [_index(n) for n in range(12)]
    patterns = analyze(train, params=AnalyzeParams(cluster_threshold=0.5), site_model=False)
    assert len(patterns.get("blog.test").layouts) == 2
    tests = [_post(n) for n in range(50, 56)] + [(_index(20), "Recent posts", None)]
    for (page, title, body), got in zip(tests, extract([t[0] for t in tests], patterns, fallback=None)):
        assert got.matched and got.title == title
        if body is not None:
            assert got.text == body

