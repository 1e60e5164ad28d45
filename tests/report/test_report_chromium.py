"""The demo site's report rendered by headless Chromium: every layout and block is in the DOM with its role.

Needs Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run`` installs it).
Set ``STEMMER_SCREENSHOT=docs/report.png`` to keep the screenshot.
"""
import json
import os
import shutil
import subprocess

import pytest
from lxml import html as lxml_html

CHROMIUM = next((c for c in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if c and os.path.exists(c)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed: `apt-get install chromium` "
                                "(Debian's package; .ci/run installs it) to render the report in a browser")


def chromium(tmp_path, *args) -> subprocess.CompletedProcess:
    """Headless Chromium with every way out to the network closed."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
           "--disable-background-networking", "--disable-sync", "--disable-component-update",
           "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
           f"--user-data-dir={tmp_path / 'chromium-profile'}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def dom(tmp_path_factory, demo_report):
    """The report's DOM after Chromium loaded it and ran its script."""
    tmp = tmp_path_factory.mktemp("chromium")
    res = chromium(tmp, "--dump-dom", demo_report.as_uri())
    assert res.returncode == 0, res.stderr[-2000:]
    return lxml_html.fromstring(res.stdout)


def test_the_page_loaded_and_its_script_ran(dom):
    assert dom.get("data-ready") == "1"
    assert dom.findtext(".//title") == "stemmer report"


def test_every_layout_and_block_is_shown_with_its_role(dom, demo_patterns):
    doc = json.loads(demo_patterns.read_text())
    assert doc["layouts"]
    for lay in doc["layouts"]:
        [section] = dom.xpath('//details[@data-layout=$id][@data-site=$site]', id=lay["id"], site=doc["site"])
        rows = section.xpath('.//table[contains(@class, "slots")]//tr[@data-slot]')
        assert len(rows) == len(lay["blocks"])
        for i, (row, block) in enumerate(zip(rows, lay["blocks"])):
            assert (row.get("data-slot"), row.get("data-key"), row.get("data-role")) == (str(i), block["key"],
                                                                                       block["role"])
            assert row.xpath('string(td[@class="role"])').split()[0] == block["role"]
            assert f"role-{block['role']}" in row.get("class")


def test_pages_are_shown_block_by_block_beside_their_text(dom):
    page = dom.xpath('//details[@data-layout="L0"]//details[@data-matched="true"]')[0]
    roles = [r.get("data-role") for r in page.xpath('.//tr[@data-role]')]
    assert {"title", "main", "static"} <= set(roles)
    assert page.xpath('string(.//div[@class="extracted"]/h5)').strip()
    assert dom.xpath('//table[contains(@class, "unmatched")]//tr[@data-page="demo.stemmer.test/about.html"]')


def test_screenshot(tmp_path, demo_report):
    shot = tmp_path / "report.png"
    res = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,960", "--hide-scrollbars",
                   demo_report.as_uri())
    assert res.returncode == 0, res.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("STEMMER_SCREENSHOT"):
        shutil.copyfile(shot, os.environ["STEMMER_SCREENSHOT"])
