"""Stage 2: a page's HTML -> its layout blocks in document order."""
from stemmer.blocks.segment import Block, PageBlocks, letters, segment, sig
from stemmer.blocks.parse import parse_html

__all__ = ["Block", "PageBlocks", "letters", "parse_html", "segment", "sig"]
