"""stemmer: learn a website's page layouts from a crawl, then extract title and main text."""
import logging

__version__ = "0.1.0"

from stemmer.api import analyze, extract, html2txt, train  # noqa: E402
from stemmer.extract import Extraction  # noqa: E402
from stemmer.layout.learn import AnalyzeParams  # noqa: E402
from stemmer.layout.model import Layout, PatternSet, Section, SitePatterns  # noqa: E402
from stemmer.layout.store import load_patterns, save_patterns  # noqa: E402
from stemmer.pages import Page, read_pages  # noqa: E402
from stemmer.reporter import report  # noqa: E402
from stemmer.updater import UpdateResult, update  # noqa: E402

__all__ = [
    "AnalyzeParams", "Extraction", "Layout", "Page", "PatternSet", "Section", "SitePatterns",
    "analyze", "extract", "html2txt", "load_patterns", "read_pages", "save_patterns",
    "report", "train", "update", "UpdateResult",
]

logging.getLogger("stemmer").addHandler(logging.NullHandler())
