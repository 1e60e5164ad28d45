import pytest

from stemmer.pages import Page

WORDS = ("council harbour library river market school bridge garden festival budget volunteers "
         "station museum orchard tower theatre bakery meadow ferry railway clinic square").split()
NAV = '<nav class="menu"><a href="/">Home</a> <a href="/news/">News</a> <a href="/about.html">About</a></nav>'
FOOT = '<footer class="foot"><p>Copyright The Example Gazette, all rights reserved</p></footer>'


def _words(n: int, seed: int) -> str:
    return " ".join(WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(n))


def article(host: str, i: int) -> Page:
    body = "".join(f"<p>{_words(25 + j, i * 5 + j).capitalize()}.</p>" for j in range(3 + i % 4))
    html = (f"<html><head><title>Story {i} about the {_words(3, i)} - {host}</title></head><body>{NAV}"
            f'<article class="post"><h1 class="headline">Story {i} about the {_words(3, i)}</h1>'
            f'<div class="entry">{body}</div></article>{FOOT}</body></html>')
    return Page(f"{host}/story{i}.html", f"http://{host}/story{i}.html", host, html)


def index(host: str, i: int, stories: int) -> Page:
    items = "".join(f'<li class="teaser"><a href="/story{k}.html">Story {k} about the {_words(3, k)}</a> '
                    f"{_words(8, k + i)}</li>" for k in range(i, stories, 2))
    html = (f"<html><head><title>News page {i}</title></head><body>{NAV}<h2 class=\"section\">Latest news {i}</h2>"
            f'<ul class="list">{items}</ul>{FOOT}</body></html>')
    return Page(f"{host}/news/{i}.html", f"http://{host}/news/{i}.html", host, html)


def site(host: str, stories: int = 8, indexes: int = 3) -> list[Page]:
    return [article(host, i) for i in range(stories)] + [index(host, i, stories) for i in range(indexes)]


@pytest.fixture
def crawl() -> list[Page]:
    """Five sites of 5-14 pages, their pages interleaved as a crawl of many hosts has them."""
    sites = [site(f"site{k}.example", stories=4 + 2 * k, indexes=1 + k % 3) for k in range(5)]
    pages = []
    while any(sites):
        for pages_of_site in sites:
            if pages_of_site:
                pages.append(pages_of_site.pop(0))
    return pages


def files(directory) -> dict[str, bytes]:
    """The pattern files of a directory, by name."""
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.json"))}
