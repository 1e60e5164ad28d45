import pytest

from stemmer.crawl.frontier import Acl, Entry, Frontier, Scope, normalize_url


@pytest.mark.parametrize("url, expected", [
    ("HTTP://Example.COM", "http://example.com/"),
    ("http://example.com:80/a#frag", "http://example.com/a"),
    ("https://example.com:443/a?b=1&c", "https://example.com/a?b=1&c"),
    ("http://example.com:8080/a b", "http://example.com:8080/a%20b"),
    ("http://example.com/caf\u00e9", "http://example.com/caf%C3%A9"),
    ("http://example.com/a%2Fb", "http://example.com/a%2Fb"),
])
def test_normalize_url_canonical_form(url, expected):
    assert normalize_url(url) == expected


@pytest.mark.parametrize("url", ["mailto:a@example.com", "javascript:void(0)", "ftp://example.com/",
                                 "http://example.com:99999/", "http:///nohost"])
def test_normalize_url_refuses_non_http(url):
    assert normalize_url(url) is None


def test_normalize_url_resolves_against_base():
    assert normalize_url("../b.html#x", base="http://example.com/a/c/d.html") == "http://example.com/a/b.html"


def test_default_acl_rejects_images_media_archives():
    acl = Acl()
    assert not acl.allows("http://example.com/photo.JPG")
    assert not acl.allows("http://example.com/clip.mp4?start=3")
    assert not acl.allows("http://example.com/dump.tar.gz")
    assert acl.allows("http://example.com/news/2024/story.html")
    assert acl.allows("http://example.com/gzip-explained")


def test_acl_first_matching_rule_decides():
    acl = Acl([("reject", r"/news/sport/"), ("accept", r"/news/")])
    assert acl.allows("http://example.com/news/world/1.html")
    assert not acl.allows("http://example.com/news/sport/1.html")


def test_acl_with_rules_rejects_urls_matching_none():
    assert not Acl([("accept", r"/news/")]).allows("http://example.com/about.html")


@pytest.mark.parametrize("rules, message", [([("allow", "x")], "accept, reject"), ([("accept", "(")], "bad ACL regex")])
def test_acl_bad_rules_raise_value_error(rules, message):
    with pytest.raises(ValueError, match=message):
        Acl(rules)


def test_scope_matches_host_names_not_ports():
    scope = Scope(["Example.com"])
    assert scope.contains("http://example.com:8080/x")
    assert not scope.contains("http://www.example.com/x")
    assert Scope(None).contains("http://anything.example/")


def test_frontier_pops_in_discovery_order_skipping_busy_hosts():
    frontier = Frontier([Entry(1, "http://a.example/1", 1), Entry(2, "http://a.example/2", 1),
                         Entry(3, "http://b.example/1", 1)])
    assert frontier.pop(lambda host: True).seq == 1
    assert frontier.pop(lambda host: host != "a.example").seq == 3
    assert frontier.pop(lambda host: host != "a.example") is None
    assert len(frontier) == 1
