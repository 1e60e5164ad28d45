"""A block classifier on disk: ``NAME.json`` (what it is) beside ``NAME.npz`` (its numbers), never a pickle.

The JSON names the format and version, the feature groups, vocabularies and
threshold; the ``.npz`` holds the scorers' arrays and is read with
``allow_pickle=False``, so loading a file from someone else cannot run code.
Both are written atomically, the arrays first.
"""
from __future__ import annotations

import json
import zipfile
import zlib
from pathlib import Path

import numpy as np

from stemmer.errors import ModelError
from stemmer.files import atomic_output, write_atomic

FORMAT = "stemmer-block-classifier"
VERSION = 1


def model_paths(path: str | Path) -> tuple[Path, Path]:
    """``BASE.json`` and ``BASE.npz`` of a path given with either suffix or none (a dotted base keeps its dots)."""
    base = Path(path)
    base = base.with_suffix("") if base.suffix in (".json", ".npz") else base
    return base.with_name(base.name + ".json"), base.with_name(base.name + ".npz")


def write_model_files(path: str | Path, meta: dict, arrays: dict[str, np.ndarray]) -> tuple[Path, Path]:
    """Write the description and the arrays; returns the two paths."""
    json_path, npz_path = model_paths(path)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(npz_path) as out:
        np.savez_compressed(out, **arrays)
    write_atomic(json_path, json.dumps({"format": FORMAT, "version": VERSION} | meta, indent=1, sort_keys=True,
                                       ensure_ascii=False) + "\n")
    return json_path, npz_path


def read_model_files(path: str | Path) -> tuple[dict, dict[str, np.ndarray], Path]:
    """The description, the arrays and the JSON path of a model.

    Raises:
        ModelError: a file is missing, not valid JSON/npz, or of another format or version.
    """
    json_path, npz_path = model_paths(path)
    try:
        meta = json.loads(json_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{json_path}: classifier model file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{json_path}: not a classifier model file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelError(f"{json_path}: not a classifier model file (format is not {FORMAT!r})")
    if meta.get("version") != VERSION:
        raise ModelError(f"{json_path}: classifier model version {meta.get('version')} is not supported "
                         f"({VERSION}); retrain it or upgrade stemmer")
    try:
        with np.load(npz_path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except FileNotFoundError:
        raise ModelError(f"{npz_path}: classifier model arrays not found") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
        raise ModelError(f"{npz_path}: corrupt classifier model arrays ({exc})") from None
    return meta, arrays, json_path
