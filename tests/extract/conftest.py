import pytest

from stemmer import analyze
from stemmer.blocks import parse_html, segment
from stemmer.extract import SiteMatcher


@pytest.fixture
def patterns(site_pages):
    """The synthetic site's patterns, learned with link texts: L0 articles, L1 index pages."""
    return analyze(site_pages).get("example.com")


@pytest.fixture
def matcher(patterns):
    return SiteMatcher(patterns)


@pytest.fixture
def about_html(site_parts):
    """A page of the site with its header and footer but neither template's body."""
    return (f'<html><body>{site_parts.header}<div class="about"><h3>Who we are</h3><p>A small paper run by '
            f'volunteers since 1911.</p><h3>Contact</h3><p>Write to the editor at the old mill.</p></div>'
            f'{site_parts.footer}</body></html>')


def blocks(html: str):
    return segment(parse_html(html))
