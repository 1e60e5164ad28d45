"""Stage 2: a page's HTML -> its layout blocks in document order."""
from stemmer.blocks.block import Block, PageBlocks, letters, sig
from stemmer.blocks.parse import parse_html
from stemmer.blocks.segment import WALKER, WALKER_ERROR, segment

__all__ = ["WALKER", "WALKER_ERROR", "Block", "PageBlocks", "letters", "parse_html", "segment", "sig"]
