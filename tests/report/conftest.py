"""The demo site's patterns, analyzed once, and a report of them with the demo pages."""
from pathlib import Path

import pytest

import stemmer
from stemmer.cli import main

DEMO = Path(stemmer.__file__).parent / "demo" / "site"
SITE = "demo.stemmer.test"


@pytest.fixture(scope="package")
def demo_patterns(tmp_path_factory) -> Path:
    """The demo site's pattern file."""
    out = tmp_path_factory.mktemp("report-patterns")
    assert main(["analyze", "-q", str(DEMO), "-o", str(out), "--date", "2024-05-01"]) == 0
    return out / f"{SITE}.json"


@pytest.fixture(scope="package")
def demo_report(tmp_path_factory, demo_patterns) -> Path:
    """The report of the demo site's patterns with all its pages."""
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", "-q", str(demo_patterns), str(DEMO), "-o", str(out)]) == 0
    return out
