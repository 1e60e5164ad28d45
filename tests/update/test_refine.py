"""update re-reads the DiffScores of the layouts its pages match, pooled with the earlier ones."""
import random
from dataclasses import replace

import pytest

from stemmer import Page, analyze
from stemmer.update.updater import update



def words(seed: int, n: int) -> str:
    """Made-up words, different for every seed (texts of one vocabulary share too many letters)."""
    rng = random.Random(seed)
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8)))
                    for _ in range(n))


def page(i: int, note: str) -> Page:
    body = words(i, 60)
    html = ("<html><head><title>Story %d</title></head><body><nav><p>Home About Archive Contact</p></nav>"
            "<article><h1>Story number %d of %s</h1><div class=\"body\"><p>%s</p><p>%s</p>"
            "<p class=\"note\">%s</p></div></article><footer><p>All rights reserved by nobody</p></footer>"
            "</body></html>") % (i, i, words(100 + i, 3), body, words(200 + i, 40), note)
    return Page(f"blog.org/{i}.html", f"http://blog.org/{i}.html", "blog.org", html)


def note_slot(site):
    [layout] = site.layouts
    [slot] = [s for s in layout.sections if s.key.endswith("p.note")]
    return slot


def test_a_slot_that_varies_in_the_new_crawl_is_main_after_the_update():
    old = analyze([page(i, "Written at the kitchen table") for i in range(3)], date="2024-01-01")
    assert note_slot(old.get("blog.org")).role == "static"
    new = [page(i, words(-i, 5)) for i in range(3, 9)]
    slot = note_slot(update(new, old, date="2024-02-01").patterns.get("blog.org"))
    assert slot.role == "main"
    assert 0.5 < slot.diff < 1  # pooled: the old pairs still count


def test_a_pinned_slot_keeps_its_role_and_diffscore():
    old = analyze([page(i, "Written at the kitchen table") for i in range(3)], date="2024-01-01")
    site = old.get("blog.org")
    [layout] = site.layouts
    pinned = replace(layout, sections=tuple(replace(s, pinned=True) if s.key.endswith("p.note") else s
                                            for s in layout.sections))
    old = replace(old, sites={"blog.org": replace(site, layouts=(pinned,))})
    new = [page(i, words(-i, 5)) for i in range(3, 9)]
    slot = note_slot(update(new, old, date="2024-02-01").patterns.get("blog.org"))
    assert (slot.role, slot.diff, slot.pinned) == ("static", note_slot(site).diff, True)


def headed(i: int, heading: str, note: str) -> Page:
    """A page whose body has a heading between its paragraphs."""
    html = ("<html><head><title>Story %d</title></head><body><nav><p>Home About Archive Contact</p></nav>"
            "<article><h1>Story number %d of %s</h1><div class=\"body\"><p>%s</p><h2>%s</h2><p>%s</p>"
            "<p class=\"note\">%s</p></div></article><footer><p>All rights reserved by nobody</p></footer>"
            "</body></html>") % (i, i, words(100 + i, 3), words(i, 60), heading, words(200 + i, 40), note)
    return Page(f"blog.org/{i}.html", f"http://blog.org/{i}.html", "blog.org", html)


def slot_of(site, tail):
    [layout] = site.layouts
    [slot] = [s for s in layout.sections if s.key.endswith(tail)]
    return slot


def test_a_heading_amid_the_body_stays_main_when_its_text_stops_varying():
    old = analyze([headed(i, words(300 + i, 2), "Written at the kitchen table") for i in range(3)],
                  date="2024-01-01")
    assert slot_of(old.get("blog.org"), "h2").role == "main"
    new = [headed(i, "Introduction", "Written at the kitchen table") for i in range(3, 12)]
    site = update(new, old, date="2024-02-01").patterns.get("blog.org")
    heading, note = slot_of(site, "h2"), slot_of(site, "p.note")
    assert heading.diff < 0.5 and heading.role == "main"  # like analyze: it heads the body's text
    assert note.role == "static"


def translated(i: int, copy: str = "") -> Page:
    """A page of a two-page layout (a page and its translation) whose body shares a code block."""
    html = ("<html><head><title>Note %d</title></head><body><nav><p>Home About Archive Contact</p></nav>"
            "<article><h1>Note number %d of %s</h1><div class=\"body\"><p>%s</p>"
            "<pre>for line in open(path): print(line.strip())</pre><p>%s</p></div></article>"
            "<footer><p>All rights reserved by nobody</p></footer></body></html>"
            ) % (i, i, words(100 + i, 3), words(i, 60), words(200 + i, 40))
    return Page(f"blog.org/{copy}{i}.html", f"http://blog.org/{copy}{i}.html", "blog.org", html)


def test_refined_roles_are_analyzes_on_the_same_pages():
    # analyze calls the shared code main (the same by chance: the site does not
    # repeat it); update, given the same pages again, must label every slot alike.
    old = analyze([translated(i) for i in range(2)], date="2024-01-01")
    [layout] = old.get("blog.org").layouts
    assert slot_of(old.get("blog.org"), "pre").role == "main"
    result = update([translated(i, "copy/") for i in range(2)], old, date="2024-02-01")
    assert result.sites[0].matched == {layout.id: 2}
    [refined] = result.patterns.get("blog.org").layouts
    assert [(s.key, s.role) for s in refined.sections] == [(s.key, s.role) for s in layout.sections]
    assert [s.diff for s in refined.sections] == pytest.approx([s.diff for s in layout.sections], abs=1e-3)
