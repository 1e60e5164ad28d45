"""docs/cli.md has a section for every subcommand, and the README shows the report's screenshot."""
from pathlib import Path

from stemmer.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def test_every_subcommand_has_a_section_in_cli_md():
    text = (ROOT / "docs" / "cli.md").read_text()
    [sub] = [a for a in build_parser()._actions if a.dest == "command"]
    for verb in sub.choices:
        assert f"\n## {verb}\n" in text, verb


def test_readme_shows_the_report_screenshot():
    assert "](docs/report.png)" in (ROOT / "README.md").read_text()
    png = (ROOT / "docs" / "report.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 200_000
