"""Stage 1: crawl inputs in, `Page` records out."""
from stemmer.pages.linkinfo import read_linkinfo
from stemmer.pages.page import DAMAGED_INPUT, SKIPPED_PAGE, Page, site_of
from stemmer.pages.read import read_pages

__all__ = ["DAMAGED_INPUT", "SKIPPED_PAGE", "Page", "read_linkinfo", "read_pages", "site_of"]
