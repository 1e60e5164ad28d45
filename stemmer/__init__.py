"""stemmer: learn a website's page layouts from a crawl, then extract title and main text."""
import logging

from stemmer.api import analyze, extract, html2txt, train
from stemmer.extract import Extraction
from stemmer.layout.learn import AnalyzeParams
from stemmer.layout.model import Layout, PatternSet, Section, SitePatterns
from stemmer.layout.store import load_patterns, save_patterns
from stemmer.pages import Page, read_pages
from stemmer.report import report
from stemmer.update.updater import UpdateResult, update
from stemmer.version import __version__

__all__ = [
    "AnalyzeParams", "Extraction", "Layout", "Page", "PatternSet", "Section", "SitePatterns",
    "analyze", "extract", "html2txt", "load_patterns", "read_pages", "save_patterns",
    "report", "train", "update", "UpdateResult", "__version__",
]

logging.getLogger("stemmer").addHandler(logging.NullHandler())
