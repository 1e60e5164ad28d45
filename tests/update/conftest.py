"""The demo site, split into an older and a newer crawl, and a redesign of its pages."""
import re
import shutil
from pathlib import Path

import pytest

import stemmer
from stemmer.cli import main

DEMO = Path(stemmer.__file__).parent / "demo" / "site"
SITE = "demo.stemmer.test"


def redesign(html: str) -> str:
    """The page after a redesign: every class and id renamed, the body's content in a new wrapper."""
    html = re.sub(r'class="([^"]*)"', lambda m: 'class="%s"' % " ".join("nx-" + c for c in m.group(1).split()), html)
    html = re.sub(r'id="([^"]*)"', lambda m: f'id="nx-{m.group(1)}"', html)
    html = re.sub(r"(<body[^>]*>)", r'\1<div class="shell">', html)
    return html.replace("</body>", "</div></body>")


def copy_pages(root: Path, files: list[Path], transform=None) -> Path:
    """A wget-style mirror under `root` holding `files` of the demo site (optionally transformed)."""
    for f in files:
        target = root / f.relative_to(DEMO)
        target.parent.mkdir(parents=True, exist_ok=True)
        if transform is None:
            shutil.copyfile(f, target)
        else:
            target.write_text(transform(f.read_text(encoding="utf-8")), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def demo_files() -> list[Path]:
    return sorted(DEMO.rglob("*.html"))


@pytest.fixture
def crawls(tmp_path, demo_files):
    """Older crawl (every other page), newer crawl (the rest), and the newer crawl redesigned."""
    old = copy_pages(tmp_path / "old", demo_files[::2])
    new = copy_pages(tmp_path / "new", demo_files[1::2])
    redesigned = copy_pages(tmp_path / "redesigned", demo_files[1::2], redesign)
    return old, new, redesigned


@pytest.fixture
def analyzed(tmp_path, crawls):
    """The older crawl analyzed on 2024-01-01 into tmp_path/patterns; returns the site's file."""
    out = tmp_path / "patterns"
    assert main(["analyze", "-q", str(crawls[0]), "-o", str(out), "--date", "2024-01-01"]) == 0
    return out / f"{SITE}.json"
