"""Files that appear whole or not at all: written beside their target, then renamed into place; read back as JSON.

Every file stemmer writes goes through here, so each has the mode of an
ordinary new file (``0666`` less the umask) or keeps the mode of the file it replaces.
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import BinaryIO

from stemmer.errors import PatternFileError


@contextmanager
def atomic_output(path: str | os.PathLike, *, fsync: bool = False) -> Iterator[BinaryIO]:
    """A binary file that appears under `path` only once the block has finished without error.

    Args:
        fsync: flush it to disk before the rename (a crawl's archive: hours of work).

    Raises:
        OSError: naming `path` (not the temporary file) when it cannot be written.
    """
    with _beside(path) as (out, finish):
        yield out
        if fsync:
            out.flush()
            os.fsync(out.fileno())
        out.close()
        finish()


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    with atomic_output(path) as out:
        out.write(text.encode("utf-8"))


def write_all(texts: dict[Path, str]) -> None:
    """Write several text files, all or none: each beside its target first, renamed once all are written."""
    with ExitStack() as stack:
        finishers = []
        for path, text in texts.items():
            out, finish = stack.enter_context(_beside(path))
            out.write(text.encode("utf-8"))
            out.close()
            finishers.append(finish)
        for finish in finishers:
            finish()


@contextmanager
def _beside(path: str | os.PathLike):
    """A temporary file beside `path` and the function that renames it into place; removed if that never runs."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    done = False

    def finish() -> None:
        nonlocal done
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)  # replacing a file keeps its mode
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # mkstemp makes 0600; give the usual mode of a new file
        try:
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        done = True

    try:
        with os.fdopen(fd, "wb") as out:
            yield out, finish
    finally:
        if not done:
            Path(tmp).unlink(missing_ok=True)


def read_json(path: Path):
    """The JSON document in `path`; a `PatternFileError` naming the file if it cannot be had."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternFileError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PatternFileError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
