"""Stage 1: crawl inputs in, `Page` records out."""
from stemmer.pages.linkinfo import read_linkinfo
from stemmer.pages.page import Page, site_of
from stemmer.pages.read import read_pages

__all__ = ["Page", "read_linkinfo", "read_pages", "site_of"]
