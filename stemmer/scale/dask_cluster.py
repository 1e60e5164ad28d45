"""Run the tasks on a Dask cluster: connect to its scheduler, then joblib's Dask backend sends them.

Dask is optional (``pip install 'stemmer[dask]'``) and imported only here, only
when a scheduler address is given.  The workers must have stemmer installed and
see the spill directory and the pattern directory (a shared filesystem):
tasks carry file names, not pages.  See docs/scale.md.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from stemmer.errors import ClusterError

# Seconds to wait for the scheduler to answer.
CONNECT_TIMEOUT = 30


@contextlib.contextmanager
def connect(address: str) -> Iterator[object]:
    """A Dask client of the scheduler at `address`, the default for joblib's ``dask`` backend.

    Args:
        address: the scheduler, e.g. ``tcp://10.0.0.5:8786`` (what ``dask scheduler`` prints).

    Yields:
        The ``distributed.Client``; closed on exit.

    Raises:
        ClusterError: Dask is not installed, or the scheduler does not answer.
    """
    try:
        from dask.distributed import Client
    except ImportError:
        raise ClusterError("a --scheduler needs Dask: pip install 'stemmer[dask]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=True)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"{address}: cannot reach the Dask scheduler ({exc})") from None
    try:
        yield client
    finally:
        client.close()
