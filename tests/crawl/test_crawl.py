import ast
import base64
import hashlib
import json
import logging
import socket
import time
import zipfile
import zlib
from types import SimpleNamespace

import pytest

from stemmer.crawl import CrawlOptions, CrawlReport, crawl
from stemmer.crawl.fetch import accept_encoding
from stemmer.errors import CrawlError

from .conftest import (MAX_BYTES, TIMEOUT, Route, Site, build_site, hub_links, read_warc, warc_linkinfo,
                       warc_pages)

ARTICLES = ["/", "/a1.html", "/a2.html", "/a3.html", "/section/", "/a4.html"]


def urls(site, paths, host="127.0.0.1"):
    return {site.url(p, host) for p in paths}


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """One default crawl of the fixture site (depth 1), shared by the tests that only look at it."""
    site = Site()
    build_site(site)
    path = tmp_path_factory.mktemp("hub") / "site.warc.gz"
    logger = logging.getLogger("stemmer")
    handler, level = _ListHandler(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        report = crawl(site.url("/"), path, CrawlOptions(delay=0, timeout=TIMEOUT, max_bytes=MAX_BYTES))
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        site.close()
    return SimpleNamespace(site=site, report=report, path=path, logged=handler.lines)


class _ListHandler(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


def test_depth_one_stores_the_html_pages_of_the_hub(hub):
    assert set(warc_pages(hub.path)) == urls(hub.site, ARTICLES)


def test_report_counts_every_outcome(hub):
    report = hub.report
    assert isinstance(report, CrawlReport)
    assert (report.fetched, report.stored, report.skipped, report.errors) == (13, 6, 3, 3)
    assert (report.off_host_redirects, report.robots_blocked, report.queued) == (1, 1, 0)
    assert report.output == str(hub.path)
    assert report.elapsed > 0


def test_robots_txt_disallow_is_obeyed(hub):
    assert hub.site.requests[0] == "/robots.txt"
    assert "/private/secret.html" not in hub.site.requests
    assert hub.report.robots_blocked == 1


def test_robots_txt_forbidding_the_start_url_raises(run, site, tmp_path):
    with pytest.raises(CrawlError, match=r"private/secret\.html: robots\.txt forbids it"):
        run("/private/secret.html")
    assert list(tmp_path.iterdir()) == []


def test_user_agent_names_the_tool_and_contact(run, site):
    run(depth=0, contact="mailto:ops@example.com")
    assert {headers["User-Agent"] for _, _, headers in site.log} == {"stemmer/0.1 (+mailto:ops@example.com)"}


def test_off_host_and_rejected_links_are_not_followed(hub):
    assert ("localhost", "/elsewhere.html") not in [(host, path) for host, path, _ in hub.site.log]
    assert "/img/photo.jpg" not in hub.site.requests


def test_any_host_follows_links_to_other_hosts(run, site, tmp_path):
    report = run(any_host=True)
    pages = warc_pages(tmp_path / "site.warc.gz")
    assert site.url("/elsewhere.html", "localhost") in pages
    assert site.url("/a1.html", "localhost") in pages  # /away.html's redirect target
    assert report.off_host_redirects == 0


def test_allowed_hosts_are_followed(run, site, tmp_path):
    run(hosts=["localhost"])
    assert site.url("/elsewhere.html", "localhost") in warc_pages(tmp_path / "site.warc.gz")


def test_acl_rules_first_match_decides_and_unmatched_are_rejected(run, site, tmp_path):
    run(acl=[("reject", r"a2"), ("accept", r"/a\d\.html$")])
    assert set(warc_pages(tmp_path / "site.warc.gz")) == urls(site, ["/", "/a1.html", "/a3.html"])


def test_depth_zero_fetches_only_the_start_pages(run, site):
    report = run("/", "/a1.html", depth=0)
    assert site.requests == ["/robots.txt", "/", "/a1.html"]
    assert report.fetched == 2


def test_depth_two_follows_links_of_linked_pages(run, site, tmp_path):
    run(depth=2)
    assert site.url("/section/deep.html") in warc_pages(tmp_path / "site.warc.gz")


def test_max_pages_caps_the_requests(run, site, tmp_path):
    report = run(max_pages=3)
    assert report.fetched == 3
    assert len(site.requests) == 4  # robots.txt + 3 pages
    assert report.queued == 11
    assert set(warc_pages(tmp_path / "site.warc.gz")) == urls(site, ["/", "/a1.html", "/a2.html"])


def test_on_host_redirect_is_followed_and_stored_under_its_final_url(hub):
    assert hub.site.url("/a4.html") in warc_pages(hub.path)
    assert warc_linkinfo(hub.path)[hub.site.url("/a4.html")] == ["Old"]


def test_off_host_redirect_is_reported_not_followed(hub):
    site = hub.site
    assert hub.report.redirects_not_followed == ((site.url("/away.html"), site.url("/a1.html", "localhost")),)
    assert "localhost" not in {host for host, _, _ in site.log}


def test_http_errors_and_timeouts_are_counted_and_logged(hub):
    assert hub.report.errors == 3
    logged = "\n".join(hub.logged)
    assert "WARNING: " + hub.site.url("/missing.html") + ": HTTP 404 Not Found" in logged
    assert "broken.html: HTTP 500" in logged
    assert "slow.html: no answer within 0.5 s" in logged
    assert "Traceback" not in logged


def test_oversized_and_non_html_responses_are_skipped(hub):
    pages = warc_pages(hub.path)
    assert not urls(hub.site, ["/big.html", "/big-stream.html", "/report"]) & set(pages)
    assert hub.report.skipped == 3
    logged = "\n".join(hub.logged)
    assert "big-stream.html: more than --max-bytes 10000 bytes" in logged
    assert "report: not HTML (application/pdf)" in logged


def test_gzipped_page_is_stored_decoded(hub):
    [record] = [r for r in read_warc(hub.path)
                if r["type"] == "response" and r["uri"] == hub.site.url("/a3.html")]
    assert record["body"].startswith(b"<html><head><title>Article three")
    assert record["http_headers"].get_header("Content-Encoding") is None
    assert record["http_headers"].get_header("Content-Length") == str(len(record["body"]))


def test_warc_read_back_by_warcio(hub):
    records = read_warc(hub.path)
    types = [r["type"] for r in records]
    assert types[0] == "warcinfo" and types[-1] == "metadata"
    assert types.count("request") == types.count("response") == len(ARTICLES)
    assert records[-1]["content_type"] == "application/x-stemmer-linkinfo+json"
    linkinfo = warc_linkinfo(hub.path)
    assert linkinfo[hub.site.url("/a1.html")] == ["Article one", "Comments", "One again"]
    assert linkinfo[hub.site.url("/a2.html")] == ["Article two", "Two again"]
    assert hub.site.url("/elsewhere.html", "localhost") not in linkinfo


def test_warc_read_back_by_fastwarc(hub):
    """FastWARC, a WARC library independent of warcio (which writes the file), reads every record."""
    fastwarc = pytest.importorskip("fastwarc")
    records = []
    with open(hub.path, "rb") as stream:
        for record in fastwarc.ArchiveIterator(stream, parse_http=False):
            assert record.verify_block_digest(), record.headers.get("WARC-Record-ID")
            kind = str(record.record_type)
            if kind in ("response", "request"):
                record.parse_http()
            if kind == "response":
                assert record.verify_payload_digest()
            status = record.http_headers.status_code if kind == "response" else None
            records.append({"type": kind, "uri": record.headers.get("WARC-Target-URI"),
                            "content_type": record.headers.get("Content-Type"),
                            "status": status, "body": record.reader.read()})
    by_warcio = [{**r, "status": int(r["status"]) if r["type"] == "response" else None}
                 for r in read_warc(hub.path)]
    assert records == [{k: r[k] for k in ("type", "uri", "content_type", "status", "body")} for r in by_warcio]
    assert {r["uri"] for r in records if r["type"] == "response"} == urls(hub.site, ARTICLES)


def test_warc_records_parse_by_hand_to_the_standard(hub):
    """The WARC read with nothing but gzip and hashlib: one record per gzip member, framing and digests."""
    with open(hub.path, "rb") as f:
        data = f.read()
    records = []
    while data:
        member = zlib.decompressobj(wbits=31)  # one gzip member at a time
        raw, data = member.decompress(data), member.unused_data
        assert member.eof
        head, _, rest = raw.partition(b"\r\n\r\n")
        version, *fields = head.decode("utf-8").split("\r\n")
        assert version == "WARC/1.0"
        headers = dict(field.split(": ", 1) for field in fields)
        length = int(headers["Content-Length"])
        block = rest[:length]
        assert rest[length:] == b"\r\n\r\n"  # exactly one record in the member
        assert headers["WARC-Block-Digest"] == _sha1(block)
        assert {"WARC-Type", "WARC-Record-ID", "WARC-Date"} <= set(headers)
        records.append((headers, block))

    assert len({h["WARC-Record-ID"] for h, _ in records}) == len(records)
    assert [h["WARC-Type"] for h, _ in records][:1] == ["warcinfo"]
    assert records[0][0]["Content-Type"] == "application/warc-fields"
    ids = {h["WARC-Record-ID"]: h for h, _ in records}
    responses = [(h, b) for h, b in records if h["WARC-Type"] == "response"]
    for h, block in responses:
        assert h["Content-Type"] == "application/http; msgtype=response"
        http_head, _, payload = block.partition(b"\r\n\r\n")
        assert h["WARC-Payload-Digest"] == _sha1(payload)
        http_fields = dict(line.split(": ", 1) for line in http_head.decode("latin-1").split("\r\n")[1:])
        assert int(http_fields["Content-Length"]) == len(payload)
        assert "Content-Encoding" not in http_fields and "Transfer-Encoding" not in http_fields
    for h, block in records:
        if h["WARC-Type"] == "request":
            response = ids[h["WARC-Concurrent-To"]]
            assert (response["WARC-Type"], response["WARC-Target-URI"]) == ("response", h["WARC-Target-URI"])
            assert block.startswith(b"GET /")
    assert {h["WARC-Target-URI"] for h, _ in responses} == urls(hub.site, ARTICLES)
    linkinfo_headers, linkinfo = records[-1]
    assert (linkinfo_headers["WARC-Type"], linkinfo_headers["Content-Type"]) == \
        ("metadata", "application/x-stemmer-linkinfo+json")
    assert {line["url"]: line["anchors"] for line in map(json.loads, linkinfo.decode().splitlines())} == \
        warc_linkinfo(hub.path)


def _sha1(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def test_request_records_leave_out_cookies(run, site, tmp_path):
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t4102444800\tsession\tabc\n")
    run(depth=0, cookies=cookies)
    assert site.log[-1][2].get("Cookie") == "session=abc"
    [request] = [r for r in read_warc(tmp_path / "site.warc.gz") if r["type"] == "request"]
    assert request["http_headers"].get_header("Cookie") is None


def test_unreadable_cookie_file_raises_crawl_error(run, tmp_path):
    (tmp_path / "cookies.txt").write_text("not a cookie file\n")
    with pytest.raises(CrawlError, match="cookies.txt"):
        run(cookies=tmp_path / "cookies.txt")


def test_default_charset_is_recorded_in_warcinfo(run, tmp_path):
    run(depth=0, charset="iso-8859-1")
    assert b"default-charset: iso-8859-1" in read_warc(tmp_path / "site.warc.gz")[0]["body"]


def test_every_start_url_failing_raises_and_writes_nothing(run, tmp_path):
    with pytest.raises(CrawlError, match=r"every start URL failed: .*missing\.html \(HTTP 404 Not Found\)"):
        run("/missing.html")
    assert list(tmp_path.iterdir()) == []


def test_start_url_redirecting_off_host_suggests_the_host(run):
    with pytest.raises(CrawlError, match="--host localhost"):
        run("/away.html")


@pytest.mark.parametrize("options, message", [
    ({"depth": -1}, "depth must be >= 0"), ({"max_pages": 0}, "max_pages must be >= 1"),
    ({"format": "tar"}, "warc, zip"), ({"charset": "nope"}, "unknown charset"),
    ({"acl": [("allow", "x")]}, "accept, reject"),
])
def test_bad_arguments_raise_value_error(run, options, message):
    with pytest.raises(ValueError, match=message):
        run(**options)


def test_non_http_start_url_raises_value_error(tmp_path):
    with pytest.raises(ValueError, match="http:// or https://"):
        crawl("ftp://example.com/", tmp_path / "x.warc.gz")


def test_progress_is_called_after_each_url(run):
    seen = []
    run(progress=seen.append)
    assert [r.fetched for r in seen][-1] == 13
    assert len(seen) == 13  # once per URL requested


def test_zip_format_has_webstemmer_member_names_and_linkinfo(run, site, tmp_path):
    run(output="site.zip", index_name="index.html", timestamp="202401010000")
    host = f"127.0.0.1:{site.port}"
    with zipfile.ZipFile(tmp_path / "site.zip") as archive:
        names = archive.namelist()
        linkinfo = dict(ast.literal_eval(line) for line in archive.read("linkinfo").decode().splitlines())
        home = archive.read(f"202401010000/{host}/index.html")
    assert names[-1] == "linkinfo"
    assert sorted(names[:-1]) == sorted(f"202401010000/{host}{p}" + ("index.html" if p.endswith("/") else "")
                                        for p in ARTICLES)
    assert home.startswith(b"<html><head><title>Home")
    assert linkinfo[f"202401010000/{host}/a2.html"] == ["Article two", "Two again"]
    assert linkinfo[f"202401010000/{host}/section/index.html"] == ["Section"]


def test_second_run_with_url_db_fetches_only_new_articles(run, site, tmp_path):
    first = run(urldb=tmp_path / "urls.db", output="day1.warc.gz")
    assert first.stored == 6
    site.page("/a5.html", "Article five")
    site.page("/", "Home", hub_links(site) + [("/a5.html", "Article five")])
    site.requests.clear()
    second = run(urldb=tmp_path / "urls.db", output="day2.warc.gz")
    assert set(warc_pages(tmp_path / "day2.warc.gz")) == {site.url("/a5.html")}
    assert "/" in site.requests  # the hub is fetched for its links, not stored again
    assert not {"/a1.html", "/a2.html", "/a3.html", "/old.html", "/a4.html"} & set(site.requests)
    assert second.stored == 1


def test_unreachable_start_url_raises_with_the_reason(tmp_path):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(CrawlError, match=rf"cannot fetch http://127.0.0.1:{port}/robots.txt"):
        crawl(f"http://127.0.0.1:{port}/", tmp_path / "x.warc.gz", CrawlOptions(delay=0, timeout=TIMEOUT))


def test_delay_spaces_requests_to_a_host(run):
    assert run("/a1.html", "/a2.html", "/a3.html", depth=0, delay=0.15).elapsed >= 0.3


def test_longer_crawl_delay_of_robots_txt_wins(run, site):
    site.routes["/robots.txt"].body = b"User-agent: *\nCrawl-delay: 1\n"
    assert run("/a1.html", "/a2.html", depth=0, delay=0.01).elapsed >= 1.0


def test_several_requests_per_host_give_the_same_pages(run, site, tmp_path):
    run(per_host=3, output="parallel.warc.gz")
    assert set(warc_pages(tmp_path / "parallel.warc.gz")) == urls(site, ARTICLES)


@pytest.mark.parametrize("per_host", [1, 2])
def test_per_host_limits_the_requests_in_flight_to_a_host(run, site, per_host):
    for path in ("/a1.html", "/a2.html", "/a3.html", "/a4.html"):
        site.routes[path].delay = 0.1
    run("/a1.html", "/a2.html", "/a3.html", "/a4.html", depth=0, per_host=per_host)
    assert site.peak == per_host


def test_brotli_is_asked_for_only_when_it_can_be_decoded():
    try:
        import brotli  # noqa: F401
    except ImportError:
        assert "br" not in accept_encoding().split(",")
    else:
        assert "br" in accept_encoding().split(",")
    assert "gzip" in accept_encoding()


def test_redirect_loops_fail_and_redirects_to_rejected_urls_are_skipped(run, site, caplog):
    site.routes["/loop1"] = Route(302, headers={"Location": "/loop2"})
    site.routes["/loop2"] = Route(302, headers={"Location": "/loop1"})
    site.routes["/to-image"] = Route(302, headers={"Location": "/img/photo.jpg"})
    report = run("/a1.html", "/loop1", "/to-image", depth=0)
    assert (report.stored, report.errors, report.skipped) == (1, 1, 1)
    assert "/img/photo.jpg" not in site.requests
    assert "loop2: more than 5 redirects or a loop" in caplog.text


def test_a_body_trickling_past_the_timeout_fails_at_the_deadline(run, site):
    site.routes["/trickle.html"] = Route(body=b"<html><body><p>" + b"x" * 60 + b"</p></body></html>",
                                         trickle=0.05)
    started = time.monotonic()
    with pytest.raises(CrawlError, match="body not read within 0.5 s"):
        run("/trickle.html", depth=0)
    assert time.monotonic() - started < 4 * TIMEOUT  # the whole body takes 4 s
