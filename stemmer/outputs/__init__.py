"""Stage 6: extractions out, as text and JSON Lines (`writers`) and per-site counts (`drift`)."""
from stemmer.outputs.drift import DriftStats
from stemmer.outputs.writers import FORMATS, Writer, to_record

__all__ = ["DriftStats", "FORMATS", "Writer", "to_record"]
