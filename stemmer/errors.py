"""The exceptions stemmer raises; the CLI prints any of them as one line."""


class StemmerError(Exception):
    """Base class of stemmer's errors; never raised itself."""


class InputError(StemmerError):
    """A crawl input that cannot be read: unknown format, truncated archive, bad path."""


class PatternFileError(StemmerError):
    """A pattern file with bad JSON, an unsupported version or a schema violation."""


class ModelError(StemmerError):
    """A classifier model that is missing, corrupt or unfit."""


class CrawlError(StemmerError):
    """A crawl that cannot go on: robots.txt forbids it, or too many failures."""


class ClusterError(StemmerError):
    """A Dask cluster that cannot be used: Dask not installed, or its scheduler unreachable."""


class SettingError(StemmerError):
    """An environment setting that cannot be honoured (``STEMMER_WALKER``)."""
