"""Stage 4: a site's pages cut into blocks in, its layouts out (`learn`), kept as pattern files (`store`)."""
from stemmer.layout.learn import learn_site
from stemmer.layout.model import AnalyzeParams, Layout, Patterns, PatternSet, Section, SitePage, SitePatterns
from stemmer.layout.store import LazyPatterns, load_patterns, open_patterns, save_patterns

__all__ = ["AnalyzeParams", "Layout", "LazyPatterns", "Patterns", "PatternSet", "Section", "SitePage", "SitePatterns",
           "learn_site", "load_patterns", "open_patterns", "save_patterns"]
