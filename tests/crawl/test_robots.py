import pytest

from stemmer.crawl.fetch import FetchFailed
from stemmer.crawl.robots import RobotsCache

UA = "stemmer/0.1 (+ops@example.com)"


def cache(status=200, body=b"", error=None):
    asked = []

    def get(url, max_bytes):
        asked.append(url)
        if error:
            raise FetchFailed(url, "connection", error)
        return status, body
    return RobotsCache(get, UA), asked


def test_disallow_rules_for_all_agents_apply():
    robots, _ = cache(body=b"User-agent: *\nDisallow: /private/\n")
    assert robots.allowed("http://example.com/news/1.html")
    assert not robots.allowed("http://example.com/private/x.html")
    assert robots.refusal("http://example.com/private/x.html") == f"robots.txt forbids it for {UA}"


def test_rules_for_our_product_token_apply():
    robots, _ = cache(body=b"User-agent: stemmer\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
    assert not robots.allowed("http://example.com/a.html")


def test_robots_txt_is_fetched_once_per_origin():
    robots, asked = cache(body=b"")
    robots.allowed("http://example.com/a")
    robots.allowed("http://example.com/b")
    robots.allowed("https://example.com/c")
    assert asked == ["http://example.com/robots.txt", "https://example.com/robots.txt"]


def test_crawl_delay_is_read():
    robots, _ = cache(body=b"User-agent: *\nCrawl-delay: 2\n")
    assert robots.crawl_delay("http://example.com/") == 2.0


@pytest.mark.parametrize("status, allowed", [(404, True), (410, True), (401, False), (403, False), (503, False)])
def test_status_of_robots_txt_decides_for_the_whole_site(status, allowed):
    robots, _ = cache(status=status, body=b"User-agent: *\nDisallow: /\n")
    assert robots.allowed("http://example.com/a") is allowed


def test_unreachable_robots_txt_forbids_and_says_why():
    robots, _ = cache(error="connection refused")
    assert robots.refusal("http://example.com/a") == (
        "cannot fetch http://example.com/robots.txt (connection refused); not crawling this site")
