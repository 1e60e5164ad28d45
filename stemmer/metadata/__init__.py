"""Date and author of a page: what it says of itself, visible dates parsed, bylines cleaned."""
from stemmer.metadata.authors import clean_author
from stemmer.metadata.dates import parse_date
from stemmer.metadata.signals import PageSignals, Signal, page_signals

__all__ = ["PageSignals", "Signal", "clean_author", "page_signals", "parse_date"]
