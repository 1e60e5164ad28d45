"""Date and author of a page: what it says of itself, the date and byline shown by its headline.

`page_signals` reads the page's machine-readable statements, `visible_metadata` the
date and byline by its headline, `page_metadata` chooses between them, and
`add_metadata` is extract's finishing step that fills an `Extraction`.
`parse_date` and `clean_author` read a date or a byline as a page writes it.
"""
from stemmer.metadata.authors import clean_author
from stemmer.metadata.choose import PageMetadata, add_metadata, page_metadata
from stemmer.metadata.dates import parse_date
from stemmer.metadata.signals import PageSignals, Signal, page_signals
from stemmer.metadata.visible import Visible, headline_element, visible_metadata

__all__ = ["PageMetadata", "PageSignals", "Signal", "Visible", "add_metadata", "clean_author", "headline_element",
           "page_metadata", "page_signals", "parse_date", "visible_metadata"]
