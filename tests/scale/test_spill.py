from stemmer.pages import Page
from stemmer.scale.spill import SiteSpill, read_site, read_urls


def test_pages_come_back_by_site_in_input_order(tmp_path, crawl):
    spill = SiteSpill(tmp_path / "spill", chunk_pages=3)
    for page in crawl:
        spill.add(page)
    sites = spill.close()
    assert list(sites) == list(dict.fromkeys(p.site for p in crawl))
    for name, site in sites.items():
        expected = [p for p in crawl if p.site == name]
        assert list(read_site(site)) == expected
        assert site.pages == len(expected)
        assert len(site.chunks) == -(-len(expected) // 3)
        assert read_urls(site) == [p.url for p in expected]


def test_a_tiny_buffer_writes_as_it_goes(tmp_path, crawl):
    spill = SiteSpill(tmp_path, buffer_bytes=1)
    for page in crawl[:3]:
        spill.add(page)
        assert spill._buffered == 0
    sites = spill.close()
    assert [p for s in sites.values() for p in read_site(s)] == crawl[:3]


def test_anchors_and_missing_urls_survive(tmp_path):
    page = Page("a.html", None, "local", "<p>x</p>", ("a link text",))
    spill = SiteSpill(tmp_path)
    spill.add(page)
    [site] = spill.close().values()
    assert list(read_site(site)) == [page]
    assert read_urls(site) == []
