"""stemmer: learn a website's page layouts from a crawl, then extract title and main text."""
import logging

from stemmer.api import analyze, extract, extract_html, html2txt, train
from stemmer.crawl import CrawlOptions, CrawlReport, crawl
from stemmer.errors import ClusterError, CrawlError, InputError, ModelError, PatternFileError, SettingError, StemmerError
from stemmer.extract import Extraction
from stemmer.fields.label import LabelError, LabelResult, label
from stemmer.layout.model import AnalyzeParams, Layout, Patterns, PatternSet, Section, SitePatterns
from stemmer.layout.store import load_patterns, save_patterns
from stemmer.pages import Page, read_pages
from stemmer.report import report
from stemmer.update.updater import UpdateResult, update

__all__ = [
    "AnalyzeParams", "CrawlOptions", "CrawlReport", "Extraction", "Layout", "Page", "Patterns", "PatternSet",
    "LabelResult", "Section", "SitePatterns", "UpdateResult", "__version__",
    "analyze", "crawl", "extract", "extract_html", "html2txt", "label", "load_patterns", "read_pages", "report", "save_patterns", "train", "update",
    "StemmerError", "InputError", "LabelError", "PatternFileError", "ModelError", "CrawlError", "ClusterError", "SettingError",
]

logging.getLogger("stemmer").addHandler(logging.NullHandler())


def __getattr__(name: str):
    if name == "__version__":  # read on first use (`stemmer.version`)
        from stemmer.version import package_version
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
