"""Files that appear whole or not at all: written beside their target, then renamed into place; read back as JSON."""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from stemmer.errors import PatternFileError


@contextmanager
def atomic_output(path: str | os.PathLike, *, fsync: bool = False) -> Iterator[BinaryIO]:
    """A binary file that appears under `path` only once the block has finished without error.

    Args:
        fsync: flush it to disk before the rename (a crawl's archive: hours of work).
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            if fsync:
                out.flush()
                os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual mode of a new file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    with atomic_output(path) as out:
        out.write(text.encode("utf-8"))


def read_json(path: Path):
    """The JSON document in `path`; a `PatternFileError` naming the file if it cannot be had."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternFileError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PatternFileError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
