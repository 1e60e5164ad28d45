"""stemmer's version: the installed package's, so that pyproject.toml is the one place it is written."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("stemmer")
except PackageNotFoundError:  # a source tree on sys.path that pip never installed
    __version__ = "0+unknown"
