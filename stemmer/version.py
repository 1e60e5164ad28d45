"""stemmer's version: the installed package's, so that pyproject.toml is the one place it is written.

Read on first use: importlib.metadata costs every command ~0.05 s of start-up, and only pattern
files, models, the crawler's User-Agent, ``-V`` and ``stemmer.__version__`` need it.
"""
import functools


@functools.cache
def package_version() -> str:
    """The installed distribution's version, or ``0+unknown`` for a source tree pip never installed."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("stemmer")
    except PackageNotFoundError:
        return "0+unknown"
