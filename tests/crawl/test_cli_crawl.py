import zipfile

import pytest

from stemmer import cli
from stemmer.cli import main

from .conftest import warc_pages


def test_crawl_command_writes_a_warc_and_returns_0(site, tmp_path, capsys):
    out = tmp_path / "site.warc.gz"
    rc = main(["crawl", site.url("/"), "-o", str(out), "-D", "0", "--timeout", "0.5", "-m", "0"])
    assert rc == 0
    assert set(warc_pages(out)) == {site.url("/")}
    err = capsys.readouterr().err
    assert err.startswith("stemmer: crawl: 1 fetched, 1 stored,") and err.endswith(f"-> {out}\n")


def test_crawl_command_zip_with_index_name_and_timestamp(site, tmp_path, capsys):
    out = tmp_path / "site.zip"
    rc = main(["crawl", site.url("/"), "-o", str(out), "-D", "0", "-m", "0", "-q",
               "-i", "index.html", "-b", "202401010000"])
    assert rc == 0
    assert capsys.readouterr().err == ""
    with zipfile.ZipFile(out) as archive:
        assert archive.namelist() == [f"202401010000/127.0.0.1:{site.port}/index.html", "linkinfo"]


def test_crawl_flags_map_onto_crawl_arguments(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(cli, "crawl", lambda *args, **kw: calls.append((args, kw)) or _Report())
    rc = main(["crawl", "http://example.com/", "-o", str(tmp_path / "x.warc.gz"), "-q",
               "-a", "/news/", "-r", "/news/sport/", "-a", r"\.html$", "--host", "cdn.example.com",
               "--contact", "ops@example.com", "-k", "c.txt", "-c", "latin-1", "-U", "u.db",
               "--max-pages", "7", "--per-host", "2", "--max-bytes", "99", "--resume", "--format", "zip"])
    assert rc == 0
    [((urls, output, o), kw)] = calls
    assert (urls, output) == (["http://example.com/"], str(tmp_path / "x.warc.gz")) and kw == {"progress": None}
    assert o.acl == (("accept", "/news/"), ("reject", "/news/sport/"), ("accept", r"\.html$"))
    assert (o.hosts, o.contact, o.cookies, o.charset, o.urldb) == \
        (("cdn.example.com",), "ops@example.com", "c.txt", "latin-1", "u.db")
    assert (o.max_pages, o.per_host, o.max_bytes, o.resume, o.format) == (7, 2, 99, True, "zip")
    assert (o.depth, o.delay, o.timeout, o.index_name, o.any_host) == (1, 1.0, 30.0, "", False)


class _Report:
    fetched = stored = skipped = errors = robots_blocked = off_host_redirects = queued = 0
    elapsed, output = 0.0, "x"


def test_robots_forbidding_the_start_url_is_one_error_line(site, tmp_path, capsys):
    rc = main(["crawl", site.url("/private/secret.html"), "-o", str(tmp_path / "x.warc.gz"), "-D", "0"])
    assert rc == 1
    assert capsys.readouterr().err == (f"stemmer: error: {site.url('/private/secret.html')}: "
                                       "robots.txt forbids it for stemmer/0.1\n")


def test_bad_regex_exits_2_with_the_rule(tmp_path, capsys):
    rc = main(["crawl", "http://example.com/", "-o", str(tmp_path / "x.warc.gz"), "-a", "("])
    assert rc == 2
    assert capsys.readouterr().err.startswith("stemmer crawl: error: bad ACL regex '(':")


def test_output_is_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["crawl", "http://example.com/"])
    assert exc.value.code == 2
