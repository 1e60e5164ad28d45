"""stemmer's version: the installed package's, so that pyproject.toml is the one place it is written.

Read on first use (`stemmer.version.__version__`): importlib.metadata costs every command ~0.05 s
of start-up, and only pattern files, models, the crawler's User-Agent and ``-V`` need it.
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


def __getattr__(name: str) -> str:
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
