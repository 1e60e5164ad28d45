"""Stage 5: match a new page to its site's best layout and take its title and main text."""
from stemmer.extract.apply import ExtractedBlock, Extraction, apply_layout, foreign, unmatched
from stemmer.extract.match import Match, SiteMatcher

__all__ = ["ExtractedBlock", "Extraction", "Match", "SiteMatcher", "apply_layout", "foreign", "unmatched"]
