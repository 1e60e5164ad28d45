import random
import re

from stemmer import analyze
from stemmer.blocks import PageBlocks, parse_html, segment
from stemmer.layout.learn import learn_site
from stemmer.layout.model import AnalyzeParams, SitePage
from stemmer.pages import Page

from .conftest import role_of, site_pages_of


def test_two_templates_give_two_layouts(learned, layouts_by_kind):
    assert len(learned.layouts) == 2
    assert set(layouts_by_kind) == {"article", "index"}
    assert layouts_by_kind["article"].pages == 6
    assert layouts_by_kind["index"].pages == 4


def test_layout_ids_follow_the_score(learned):
    assert [lay.id for lay in learned.layouts] == ["L0", "L1"]
    assert learned.layouts[0].score >= learned.layouts[1].score > 0


def test_title_slot_is_the_headline(layouts_by_kind):
    article = layouts_by_kind["article"]
    [title] = [s for s in article.sections if s.role == "title"]
    assert title.key.endswith("h1.headline")


def test_main_slot_is_the_article_body(layouts_by_kind):
    article = layouts_by_kind["article"]
    assert [s.key for s in article.sections if s.role == "main"] == ["main.content/article.post/div.story/p"]
    assert article.container[-1] == "div.story"


def test_nav_and_footer_are_static(layouts_by_kind):
    for layout in layouts_by_kind.values():
        assert role_of(layout, "nav.menu/ul/li") == "static"
        assert role_of(layout, "footer.site-footer/p.copyright") == "static"


def test_byline_that_barely_varies_is_not_main(layouts_by_kind):
    assert role_of(layouts_by_kind["article"], "p.byline") != "main"


def test_index_layout_has_teasers_as_main_and_a_static_heading(layouts_by_kind):
    index = layouts_by_kind["index"]
    assert role_of(index, "ul.teasers/li.teaser") == "main"
    assert role_of(index, "h2.archive-title") == "static"


def test_sections_carry_scores_and_samples(layouts_by_kind):
    article = layouts_by_kind["article"]
    body = next(s for s in article.sections if s.role == "main")
    nav = next(s for s in article.sections if s.key.endswith("nav.menu/ul/li"))
    assert body.diff > 0.5 and body.main > 20
    assert nav.diff == 0.0
    assert nav.sample == "News"
    assert all(0 < s.share <= 1 for s in article.sections)


def test_per_post_ids_and_classes_stay_out_of_keys_and_tokens(learned):
    keys = [s.key for lay in learned.layouts for s in lay.sections]
    assert not any("post-" in k for k in keys)
    assert not any("post-" in t for t in learned.tokens)
    assert "post" in learned.tokens


def test_params_are_kept_with_the_patterns(learned):
    assert learned.site == "example.com"
    assert learned.params["match_threshold"] == AnalyzeParams().match_threshold
    assert learned.params["key_depth"] == AnalyzeParams().key_depth


def test_a_lone_page_makes_no_layout(site_pages):
    about = Page("example.com/about.html", None, "example.com",
                 "<html><body><div class='about'><p>We are a small paper with a big heart.</p></div></body></html>")
    patterns = learn_site("example.com", site_pages_of([*site_pages, about]))
    assert sum(lay.pages for lay in patterns.layouts) == 10


def test_min_pages_drops_small_layouts(site_pages):
    patterns = learn_site("example.com", site_pages_of(site_pages), AnalyzeParams(min_pages=5))
    assert [lay.pages for lay in patterns.layouts] == [6]


def test_strict_cluster_threshold_splits_nothing_of_one_template(site_pages):
    patterns = learn_site("example.com", site_pages_of(site_pages), AnalyzeParams(cluster_threshold=0.95))
    assert sorted(lay.pages for lay in patterns.layouts) == [4, 6]


def test_no_pages_give_no_layouts():
    assert learn_site("example.com", []).layouts == ()


def test_pages_without_text_learn_no_layout():
    patterns = learn_site("example.com", [SitePage(str(i), PageBlocks(())) for i in range(3)])
    assert patterns.layouts == ()


def test_learning_is_deterministic(site_pages):
    assert learn_site("example.com", site_pages_of(site_pages)) == learn_site("example.com", site_pages_of(site_pages))


def test_page_order_does_not_change_the_roles(site_pages):
    def roles(pages):
        layouts = learn_site("example.com", site_pages_of(pages)).layouts
        return [[(s.key, s.role) for s in lay.sections] for lay in layouts]
    assert roles(site_pages) == roles(reversed(site_pages))


def test_title_found_from_link_texts_when_head_title_is_generic(site_pages):
    generic = [Page(p.id, p.url, p.site, re.sub(r"<title>.*?</title>", "<title>The Daily Example</title>", p.html))
               for p in site_pages]
    article = analyze(generic).get("example.com").layouts[0]
    assert role_of(article, "h1.headline") == "title"


def test_analyze_groups_pages_by_site(site_pages):
    other = [Page(f"other.org/{p.id}", f"http://other.org/{p.id}", "other.org", p.html) for p in site_pages]
    patterns = analyze([*site_pages, *other])
    assert sorted(patterns.sites) == ["example.com", "other.org"]
    assert len(patterns.get("other.org").layouts) == 2


def _link_index(i: int) -> Page:
    """A wiki index page: a static menu and a varying list of links, no text of its own."""
    words = ["Dwarves", "Elven ship", "Ancient magic", "Saratov", "Chernobog", "Progress squads", "Languages",
             "Religion", "Simbirsk", "Moscow", "Artemy", "Stepanov", "Geography", "Automatons"]
    links = "".join(f'<li><a href="/wiki/{i}-{k}.html">{words[(i * 5 + k) % len(words)]}</a></li>'
                    for k in range(3 + i))
    heading = ["Peoples", "Places", "Gods", "Rules"][i]
    html = (f"<html><body><nav><p>Home Wiki About Contact us</p></nav><main><h1>{heading}</h1>"
            f"<ul>{links}</ul></main><footer><p>Written with care since long ago</p></footer></body></html>")
    return Page(f"wiki.org/index-{i}.html", f"http://wiki.org/index-{i}.html", "wiki.org", html)


def test_a_layout_of_link_lists_keeps_its_varying_links_as_main():
    [layout] = learn_site("wiki.org", site_pages_of([_link_index(i) for i in range(4)])).layouts
    assert role_of(layout, "ul/li") == "main"
    assert role_of(layout, "nav/p") == "static"
    assert role_of(layout, "footer/p") == "static"


def _word_maker(rng: random.Random):
    """Made-up six-letter words from `rng`, k at a time."""
    return lambda k: " ".join("".join(rng.choice("abcdefghijklmnoprstuvy") for _ in range(6)) for _ in range(k))


def _index_page(n: int) -> SitePage:
    rng = random.Random(n)

    words = _word_maker(rng)

    items = "".join(f'<li><a href="/{n}/{k}.html">{words(4)}</a></li>' for k in range(6))
    title = words(2)
    html = (f'<html><head><title>{title} | Wiki</title></head><body><nav class="menu"><a href="/">Home</a> <a href="/about">About us</a></nav>'
            f'<main class="wiki"><h1 class="page-title">{title}</h1>'
            f'<ul>{items}</ul></main><footer>Copyright the wiki people</footer></body></html>')
    return SitePage(f"index-{n}", segment(parse_html(html)))


def test_a_layout_of_link_lists_takes_its_links_as_main_text():
    [layout] = learn_site("wiki.example", [_index_page(n) for n in range(5)]).layouts
    assert role_of(layout, "ul/li") == "main"
    assert role_of(layout, "h1.page-title") == "title"
    assert role_of(layout, "nav.menu") == "static"


def _article_page(n: int) -> SitePage:
    rng = random.Random(100 + n)

    words = _word_maker(rng)

    paragraphs = "".join(f"<p>{words(30)}</p>" for _ in range(3))
    related = "".join(f'<li><a href="/{n}/{k}.html">{words(5)}</a></li>' for k in range(4))
    title = words(3)
    return _framed_page(f"post-{n}", title, "news",
                        f'<article class="post"><h1 class="headline">{title}</h1><div class="entry">'
                        f'<p>{words(40)}</p><h2>Introduction</h2>{paragraphs}<h3>Read these too</h3>'
                        f'<ul>{related}</ul></div></article>')


def _framed_page(page_id: str, title: str, site: str, body: str) -> SitePage:
    """A page of `site`'s frame: `<title>`, a menu, `body`, a footer."""
    html = (f'<html><head><title>{title} | {site.capitalize()}</title></head><body>'
            f'<nav class="menu"><a href="/">Home</a> <a href="/about">About us</a></nav>'
            f'{body}<footer>Copyright the {site} people</footer></body></html>')
    return SitePage(page_id, segment(parse_html(html)))


def test_a_repeated_heading_over_body_text_is_main_and_one_over_links_is_not():
    [layout] = learn_site("news.example", [_article_page(n) for n in range(6)]).layouts
    assert role_of(layout, "div.entry/p") == "main"
    assert role_of(layout, "div.entry/h2") == "main"
    assert role_of(layout, "div.entry/h3") == "static"
    assert role_of(layout, "h1.headline") == "title"


def test_what_shares_the_headlines_header_is_not_main_text():
    """A post whose body sits in the element that also holds its <header>: subtitle and date are the header's."""
    def page(n: int) -> SitePage:
        words = _word_maker(random.Random(300 + n))
        title = words(3)
        return _framed_page(f"post-{n}", title, "blog",
                            f'<div class="post"><header class="post-header"><h1>{title}</h1><h2>{words(4)}</h2>'
                            f'<p class="meta">{n + 1} May 2018</p></header>'
                            + "".join(f"<p>{words(40)}</p>" for _ in range(4)) + '</div>')

    [layout] = learn_site("blog.example", [page(n) for n in range(6)]).layouts
    assert role_of(layout, "header.post-header/h1") == "title"
    assert role_of(layout, "header.post-header/h2") == "sub"
    assert role_of(layout, "div.post/p") == "main"


def test_body_text_that_goes_on_in_the_parent_of_a_box_it_starts_with_is_main():
    """A course page opens with an info box, then its text goes on loose in the article."""
    def page(n: int) -> SitePage:
        words = _word_maker(random.Random(500 + n))
        title = words(3)
        return _framed_page(f"course-{n}", title, "notes",
                            f'<article class="md-content"><h1>{title}</h1><div class="admonition info">'
                            f'<p>{words(50)}</p></div><p>{words(30)}</p><p>{words(30)}</p></article>')

    [layout] = learn_site("notes.example", [page(n) for n in range(6)]).layouts
    assert layout.container[-1] == "article.md-content"
    assert role_of(layout, "article.md-content/p") == "main"
    assert role_of(layout, "div.admonition.info/p") == "main"


def _manual_page(n: int, label: str, heading: str) -> SitePage:
    """A MkDocs-style page: a side menu with this page's entry marked current, then its own h1."""
    rng = random.Random(200 + n)
    words = _word_maker(rng)
    menu = "".join(f'<li class="toctree-l1{" current" if k == n else ""}"><a href="/p{k}/">'
                   f'{label if k == n else words(2)}</a></li>' for k in range(8))
    html = (f'<html><head><title>{label} - Manual</title></head><body>'
            f'<nav class="side"><div class="wy-menu"><ul>{menu}</ul></div></nav>'
            f'<div class="document"><h1>{heading}</h1>'
            + "".join(f"<p>{words(30)}</p>" for _ in range(3)) + '</div></body></html>')
    return SitePage(f"p{n}", segment(parse_html(html)), [label])  # the menu links to the page with its label


def test_a_menu_entry_that_repeats_the_links_to_a_page_is_not_its_title():
    words = _word_maker(random.Random(7))
    labels = [words(2) for _ in range(8)]
    # The menu says "PG-Strom v5.0", like the links to the page; the h1 says "PG-Strom v5.0 Release".
    pages = [_manual_page(n, labels[n], f"{labels[n]} guide") for n in range(8)]
    [layout] = learn_site("manual.example", pages).layouts
    assert role_of(layout, "div.document/h1") == "title"
    assert role_of(layout, "ul/li.current") != "title"


def _magazine_page(n: int) -> SitePage:
    """A page whose `<title>` is written for search engines, with a standfirst (h2) under its headline (h1)."""
    rng = random.Random(300 + n)
    words = _word_maker(rng)
    html = (f'<html><head><title>{words(3)} | Magazine</title></head><body>'
            f'<nav class="menu"><a href="/">Home</a> <a href="/about">About us</a></nav>'
            f'<header class="story"><h1>{words(4)}</h1><h2>{words(5)}</h2></header>'
            f'<article class="body">' + "".join(f"<p>{words(30)}</p>" for _ in range(3))
            + '</article><footer>Copyright the magazine people</footer></body></html>')
    return SitePage(f"story-{n}", segment(parse_html(html)))


def test_with_no_title_link_or_head_title_match_the_headline_is_the_h1_above_the_body():
    [layout] = learn_site("magazine.example", [_magazine_page(n) for n in range(6)]).layouts
    assert role_of(layout, "header.story/h1") == "title"
    assert role_of(layout, "header.story/h2") != "title"


def _translated_page(lang: str) -> SitePage:
    """One of a page and its translation: their words differ, their code listings are the same."""
    words = _word_maker(random.Random(lang))
    code = "$ java -jar arthas-boot.jar\n[INFO] Attach process 71560 success."
    html = (f'<html><head><title>{(title := words(2))} | Docs</title></head><body>'
            f'<nav class="menu"><a href="/">Home</a> <a href="/about">About us</a></nav>'
            f'<div class="content"><h1>{title}</h1><p>{words(40)}</p><pre>{code}</pre><p>{words(40)}</p>'
            f'<pre>{code}\n$ dashboard</pre><p>{words(30)}</p></div><footer>Copyright the docs people</footer></body></html>')
    return SitePage(f"{lang}/quick-start", segment(parse_html(html)))


def test_code_that_a_few_pages_share_amid_their_body_is_main_and_their_frame_static():
    [layout] = learn_site("docs.example", [_translated_page("zh"), _translated_page("en")]).layouts
    assert role_of(layout, "div.content/pre") == "main"
    assert role_of(layout, "div.content/p") == "main"
    assert role_of(layout, "nav.menu") == "static"
    assert role_of(layout, "body/footer") == "static"


def test_code_right_under_the_headline_of_a_few_pages_is_main():
    """The title heads the body: code between it and the first paragraph is the body's, not the frame's."""
    def page(lang: str) -> SitePage:
        words = _word_maker(random.Random(lang))
        html = (f'<html><head><title>{(title := words(2))} | Docs</title></head><body>'
                f'<div class="toc"><p>{words(1)}</p></div>'
                f'<div class="content"><h1>{title}</h1><pre>$ curl -O https://example.org/demo.jar</pre>'
                f'<p>{words(40)}</p><pre>$ java -jar demo.jar</pre><p>{words(40)}</p></div>'
                f'<footer>Copyright the docs people</footer></body></html>')
        return SitePage(f"{lang}/start", segment(parse_html(html)))

    [layout] = learn_site("docs.example", [page("zh"), page("en")]).layouts
    assert role_of(layout, "div.content/h1") == "title"
    assert role_of(layout, "div.content/pre") == "main"


def test_the_headline_a_page_and_its_translation_share_is_their_title():
    """Two pages titled by one command's name: their h1 is the same by chance, not the frame's."""
    def page(lang: str, tutorial: str) -> SitePage:
        words = _word_maker(random.Random(lang))
        html = (f'<html><head><title>retransform | Docs</title></head><body>'
                f'<nav class="menu"><a href="/">Home</a> <a href="/{lang}/retransform">retransform</a></nav>'
                f'<div class="content"><h1>retransform</h1><p>mc-retransform {tutorial}</p>'
                f'<p>{words(40)}</p><p>{words(40)}</p></div>'
                f'<footer>Copyright the docs people</footer></body></html>')
        return SitePage(f"{lang}/retransform", segment(parse_html(html)))

    [layout] = learn_site("docs.example", [page("zh", "在线教程"), page("en", "online tutorial")]).layouts
    assert role_of(layout, "div.content/h1") == "title"
    assert role_of(layout, "nav.menu") == "static"


def test_code_that_a_few_pages_write_alike_amid_their_body_is_main_but_a_linked_box_there_is_not():
    """Near the static threshold, a few pages' unlinked text (code with its own comments) is chance."""
    def page(lang: str, comment: str, related: str) -> SitePage:
        words = _word_maker(random.Random(lang))
        code = f"# {comment}\n$ java -jar arthas-boot.jar\n[INFO] Attach process 71560 success."
        html = (f'<html><head><title>{(title := words(2))} | Docs</title></head><body>'
                f'<div class="content"><h1>{title}</h1><p>{words(40)}</p><pre>{code}</pre><p>{words(40)}</p>'
                f'<div class="rel">See also <a href="/{lang}/x">{related}</a></div><p>{words(30)}</p></div>'
                f'<footer>Copyright the docs people</footer></body></html>')
        return SitePage(f"{lang}/quick-start", segment(parse_html(html)))

    pages = [page("zh", "先下载再启动", "快速入门的其他方法"), page("en", "download, then start", "Other ways to start")]
    [layout] = learn_site("docs.example", pages).layouts
    pre = next(s for s in layout.sections if s.key.endswith("div.content/pre"))
    assert 0.05 <= pre.diff < 0.5 and pre.role == "main"
    assert role_of(layout, "div.content/div.rel") != "main"


def test_a_layout_whose_pages_give_little_main_text_is_suspect():
    from stemmer.layout.learn import thin_layouts
    from stemmer.layout.model import Layout, Section, SitePatterns

    def layout(lid: str, main: float) -> Layout:
        return Layout(lid, 5, 1.0, (Section("nav/p", "static", 0.0, 0.0, 1, 1.0, "Home"),
                                    Section("div.body/p", "main", 0.8, main, 1, 1.0, "Text")), (), ())

    patterns = SitePatterns("x.example", (layout("L0", 0.8 * 1500), layout("L1", 0.8 * 20)), {}, {})
    assert thin_layouts(patterns) == ("L1",)
