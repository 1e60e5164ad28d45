import pytest

from stemmer.blocks import parse_html, segment
from stemmer.layout.learn import learn_site
from stemmer.layout.model import SitePage


def site_pages_of(pages) -> list[SitePage]:
    return [SitePage(p.id, segment(parse_html(p.html), with_links=True), list(p.anchors)) for p in pages]


@pytest.fixture
def learned(site_pages):
    """The patterns learn_site finds in the synthetic site (6 articles, 4 index pages)."""
    return learn_site("example.com", site_pages_of(site_pages))


@pytest.fixture
def layouts_by_kind(learned):
    """The article layout and the index layout of `learned`, told apart by their members."""
    by_kind = {}
    for layout in learned.layouts:
        kind = "index" if all("index" in m for m in layout.members) else "article"
        by_kind[kind] = layout
    return by_kind


def role_of(layout, key_end: str) -> str:
    [role] = {s.role for s in layout.sections if s.key.endswith(key_end)}
    return role
