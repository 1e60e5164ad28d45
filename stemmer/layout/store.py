"""Pattern files: versioned JSON, one per site, written atomically and checked on load.

Beside a site's ``<site>.json`` lie what analyze learned for the block
classifier: ``<site>.noise.json`` (the common-noise library,
`stemmer.layout.noise`) and ``<site>.model.json`` + ``.npz`` (the site's block
model, `BlockClassifier.save`).  Both are optional; one that cannot be read
costs a warning, never the patterns.

Also reads the original Webstemmer's ``.pat`` files (Python-literal tuples).

`load_patterns` reads every file of a directory up front: fine for a few sites,
slow and memory-hungry for the thousands of files of a crawl of many sites.
`LazyPatterns` answers `get(site)` like a `PatternSet`, reading the site's file
the first time the site is asked for; `open_patterns` picks one or the other.
"""
from __future__ import annotations

import ast
import json
import logging
import os
import re
import shutil
from collections import OrderedDict
from pathlib import Path

from stemmer.errors import PatternFileError
from stemmer.files import read_json, write_atomic
from stemmer.layout.model import FIELD_TYPES, ROLES, Layout, Patterns, PatternSet, Section, SitePatterns
from stemmer.layout.noise import load_noise
from stemmer.layout.pins import carry_over
from stemmer.version import package_version

log = logging.getLogger("stemmer")

FORMAT = "stemmer-patterns"
VERSION = 3
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
NOISE_SUFFIX = ".noise.json"
MODEL_SUFFIX = ".model.json"
# Where analyze writes and extract looks when given no patterns.
DEFAULT_DIRECTORY = "patterns"
# Sites a `LazyPatterns` keeps in memory; a pattern file is some 10-50 kB as objects.
CACHE_SITES = 1000


def site_filename(site: str) -> str:
    """A safe file name for a site's pattern file."""
    return (_UNSAFE.sub("_", site).strip("._") or "site") + ".json"


def is_pattern_file(path: Path) -> bool:
    """Whether a file of a pattern directory is a pattern file (not a noise library or site model)."""
    return path.suffix in (".json", ".pat") and not path.name.endswith((NOISE_SUFFIX, MODEL_SUFFIX))


def sidecar(pattern_file: Path, suffix: str) -> Path:
    """The file beside a pattern file ``<site>.json`` that ends in `suffix` (``<site>.noise.json``)."""
    return pattern_file.with_name(pattern_file.name.removesuffix(".json") + suffix)


def to_json(patterns: SitePatterns) -> dict:
    """The JSON document of one site's patterns (deterministic: sorted keys, fixed order)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "stemmer": package_version(),
        "site": patterns.site,
        "params": dict(sorted(patterns.params.items())),
        "tokens": dict(sorted(patterns.tokens.items())),
        "layouts": [
            {
                "id": lay.id,
                "pages": lay.pages,
                "score": lay.score,
                "container": "/".join(lay.container),
                "members": list(lay.members),
                **_seen_fields(lay),
                **({"title_names": list(lay.title_names)} if lay.title_names else {}),
                "blocks": [
                    {"key": s.key, "role": s.role, "diff": s.diff, "main": s.main,
                     "repeats": s.repeats, "share": s.share, "sample": s.sample,
                     **({"pinned": True} if s.pinned else {}),
                     **({"day_first": s.day_first} if s.day_first is not None else {}),
                     **_field_entries(s)}
                    for s in lay.sections
                ],
            }
            for lay in patterns.layouts
        ],
        **({"history": [dict(h) for h in patterns.history]} if patterns.history else {}),
    }


def _field_entries(s: Section) -> dict:
    """A named slot's ``field``, ``many`` and ``type`` (those set; nothing for an unnamed slot)."""
    if not s.field:
        return {}
    return {"field": s.field, **({"many": True} if s.many else {}),
            **({"type": s.field_type} if s.field_type != "text" else {}),
            **({"prefix": s.prefix} if s.prefix else {})}


def _seen_fields(lay: Layout) -> dict:
    """The optional first/last-seen dates, count and stale flag of a layout (only those set)."""
    return {k: v for k, v in (("first_seen", lay.first_seen), ("last_seen", lay.last_seen),
                              ("seen", lay.seen), ("stale", lay.stale)) if v}


def save_patterns(patterns: PatternSet | SitePatterns, directory: str | Path, *,
                  keep_pins: bool = True) -> list[Path]:
    """Write one JSON file per site into `directory`, each atomically.

    Args:
        keep_pins: a site's file being replaced gives the new layouts its pinned
            roles, first-seen dates and history (`stemmer.layout.pins.carry_over`),
            as ``stemmer analyze -o`` does; a file that cannot be read is
            replaced with a warning.

    Returns:
        The paths written.
    """
    sites = [patterns] if isinstance(patterns, SitePatterns) else list(patterns.sites.values())
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for site in sites:
        path = out / site_filename(site.site)
        if keep_pins and path.is_file():
            site = _carry_over_from(path, site)
        write_atomic(path, json.dumps(to_json(site), ensure_ascii=False, indent=1) + "\n")
        save_sidecars(site, path)
        written.append(path)
    return written


def _carry_over_from(path: Path, site: SitePatterns) -> SitePatterns:
    """`site` with what its previous file at `path` must not lose (`carry_over`)."""
    try:
        previous = load_patterns(path).get(site.site)
    except PatternFileError as exc:
        log.warning("not keeping pinned roles: %s", exc)
        return site
    if previous is None:
        return site
    site, warnings = carry_over(previous, site)
    for w in warnings:
        log.warning("%s", w)
    return site


def save_sidecars(site: SitePatterns, path: Path) -> None:
    """Write the site's noise library and model beside its pattern file; remove stale ones."""
    noise, model = sidecar(path, NOISE_SUFFIX), sidecar(path, MODEL_SUFFIX)
    if site.noise is not None:
        site.noise.save(noise)
    else:
        noise.unlink(missing_ok=True)
    if site.model is None:
        model.unlink(missing_ok=True)
        model.with_suffix(".npz").unlink(missing_ok=True)
    elif isinstance(site.model, (str, Path)):  # read from another file: copy it along
        source = Path(site.model)
        if source.resolve() != model.resolve():
            for suffix in (".json", ".npz"):
                shutil.copyfile(source.with_suffix(suffix), model.with_suffix(suffix))
    else:
        site.model.save(model)


def load_patterns(source: str | Path) -> PatternSet:
    """Read a pattern file, or every ``*.json`` / ``*.pat`` file of a directory.

    Raises:
        PatternFileError: a file is not valid JSON, has another format or an
            unsupported version, or lacks a field; the message names file and field.
    """
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if is_pattern_file(p))
        if not files:
            raise PatternFileError(f"{path}: no pattern files (*.json, *.pat); run `stemmer analyze` first")
    elif path.exists():
        files = [path]
    else:
        raise PatternFileError(f"{path}: no such file or directory")
    sites: dict[str, SitePatterns] = {}
    for f in files:
        site = load_webstemmer(f) if f.suffix == ".pat" else _with_sidecars(from_json(_read_json(f), f), f)
        sites[site.site] = site
    return PatternSet(sites)


def _with_sidecars(site: SitePatterns, path: Path) -> SitePatterns:
    """Attach the noise library (read now) and the model's path (read on use) found beside `path`."""
    from dataclasses import replace

    noise = None
    noise_path = sidecar(path, NOISE_SUFFIX)
    if noise_path.is_file():
        try:
            noise = load_noise(noise_path)
        except PatternFileError as exc:
            log.warning("%s; going on without the site's noise library", exc)
    model_path = sidecar(path, MODEL_SUFFIX)
    model = model_path if model_path.is_file() else None
    return replace(site, noise=noise, model=model) if noise is not None or model is not None else site


def _read_json(path: Path) -> dict:
    doc = read_json(path)
    if not isinstance(doc, dict):
        raise PatternFileError(f"{path}: not a stemmer pattern file (top level is not an object)")
    return doc


def from_json(doc: dict, path: Path | str = "<patterns>") -> SitePatterns:
    """Check and convert a pattern document; the inverse of `to_json`."""
    if doc.get("format") != FORMAT:
        raise PatternFileError(f"{path}: not a stemmer pattern file (format {doc.get('format')!r})")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PatternFileError(f"{path}: field 'version' must be a positive integer")
    if version > VERSION:
        raise PatternFileError(
            f"{path}: pattern file version {version} is newer than supported (1-{VERSION}); upgrade stemmer")
    try:
        layouts = tuple(_layout(lay, i) for i, lay in enumerate(_field(doc, "layouts", list)))
        site = _field(doc, "site", str)
        tokens = {str(k): float(v) for k, v in _field(doc, "tokens", dict).items()}
        params = {str(k): float(v) for k, v in _field(doc, "params", dict).items()}
        history = tuple(_history(doc.get("history", [])))
    except (_Missing, TypeError, ValueError) as exc:
        raise PatternFileError(f"{path}: {exc}") from None
    return SitePatterns(site, layouts, tokens, params, history)


def _history(entries) -> list[dict]:
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise _Missing("field 'history' must be a list of objects")
    return [dict(e) for e in entries]


class _Missing(ValueError):
    pass


def _field(obj: dict, name: str, kind: type, where: str = ""):
    if not isinstance(obj, dict) or name not in obj:
        raise _Missing(f"missing field '{where}{name}'")
    value = obj[name]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _Missing(f"field '{where}{name}' must be {kind.__name__}")
    return value


def _layout(obj: dict, i: int) -> Layout:
    where = f"layouts[{i}]."
    sections = []
    for j, blk in enumerate(_field(obj, "blocks", list, where)):
        w = f"{where}blocks[{j}]."
        role = _field(blk, "role", str, w)
        if role not in ROLES:
            raise _Missing(f"field '{w}role' is {role!r}; expected one of {', '.join(ROLES)}")
        sections.append(Section(
            _field(blk, "key", str, w), role,
            float(blk.get("diff", 0.0)), float(blk.get("main", 0.0)),
            int(blk.get("repeats", 1)), float(blk.get("share", 1.0)),
            str(blk.get("sample", "")), bool(blk.get("pinned", False)), _day_first(blk, w),
            *_named(blk, w)))
    container = str(obj.get("container", ""))
    return Layout(_field(obj, "id", str, where), int(obj.get("pages", 0)),
                  float(obj.get("score", 0.0)), tuple(sections),
                  tuple(container.split("/")) if container else (),
                  tuple(str(m) for m in obj.get("members", ())),
                  str(obj.get("first_seen", "")), str(obj.get("last_seen", "")),
                  int(obj.get("seen", 0)), bool(obj.get("stale", False)),
                  _strings(obj.get("title_names", []), f"{where}title_names"))


def _strings(value, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Missing(f"field '{name}' must be a list of strings")
    return tuple(value)


def _named(blk: dict, where: str) -> tuple[str, bool, str, str]:
    """A block's ``field`` name, ``many``, ``type`` and ``prefix``: ("", False, "text", "") where it has none."""
    name = blk.get("field", "")
    if not isinstance(name, str):
        raise _Missing(f"field '{where}field' must be str")
    name = name.strip()
    many = blk.get("many", False)
    if not isinstance(many, bool):
        raise _Missing(f"field '{where}many' must be true, false or absent")
    kind = blk.get("type", "text")
    if kind not in FIELD_TYPES:
        raise _Missing(f"field '{where}type' is {kind!r}; expected one of {', '.join(FIELD_TYPES)}")
    prefix = blk.get("prefix", "")
    if not isinstance(prefix, str):
        raise _Missing(f"field '{where}prefix' must be str")
    return (name, many, kind, prefix) if name else ("", False, "text", "")


def _day_first(blk: dict, where: str) -> bool | None:
    value = blk.get("day_first")
    if value is not None and not isinstance(value, bool):
        raise _Missing(f"field '{where}day_first' must be true, false or absent")
    return value


# Webstemmer's extract.py defaults, used to turn its scores into roles.
_WS_DIFF_THRESHOLD = 0.5
_WS_MAIN_THRESHOLD = 50.0


def load_webstemmer(path: Path) -> SitePatterns:
    """Read an original Webstemmer pattern file (``analyze.py`` output).

    Its keys are Webstemmer's paths (``tag:class=x``, last three elements);
    extract matches them with ``key_style = webstemmer``.
    """
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise PatternFileError(f"{path}: cannot read: {exc}") from None
    layouts = []
    site = None
    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("!"):
            continue
        try:
            item = ast.literal_eval(line)
            score, name, title_no, secs = item[0], item[1], item[2], item[-1]
            # The older 5-field form names its main section and gives no MainScores.
            main_no = item[3] if len(item) == 5 else None
            sections = []
            for n, sec in enumerate(secs):
                diff, main, key = (sec[0], sec[1], sec[2]) if len(sec) == 3 else (sec[0], 0.0, sec[1])
                if n == title_no:
                    role = "title"
                elif n == main_no and len(sec) == 2:
                    role = "main"
                elif diff < _WS_DIFF_THRESHOLD:
                    role = "static"
                elif n > title_no and main >= _WS_MAIN_THRESHOLD:
                    role = "main"
                else:
                    role = "sub"
                sections.append(Section(str(key), role, float(diff), float(main)))
        except (ValueError, SyntaxError, TypeError, IndexError, MemoryError, RecursionError):
            raise PatternFileError(f"{path}: line {lineno}: not a Webstemmer pattern") from None
        parts = str(name).split("/")
        site = site or (parts[1] if len(parts) > 1 else parts[0]).removeprefix("www.")
        layouts.append(Layout(f"L{len(layouts)}", 0, float(score), tuple(sections), (), (str(name),)))
    if not layouts:
        raise PatternFileError(f"{path}: no patterns in Webstemmer file")
    return SitePatterns(site or path.stem, tuple(layouts), {},
                        {"key_style_webstemmer": 1.0, "key_depth": 3.0, "match_threshold": 0.8})


def open_patterns(source: str | os.PathLike | None = None) -> Patterns | None:
    """The patterns to extract with: a directory's files read as their sites come, a file's now.

    Args:
        source: a pattern directory, a site's ``.json`` or a ``.pat`` file; None:
            `DEFAULT_DIRECTORY` if it holds pattern files, else no patterns (None).

    Raises:
        PatternFileError: `source` does not exist, holds no pattern file or cannot be read.
    """
    if source is None:
        default = Path(DEFAULT_DIRECTORY)
        if not (default.is_dir() and any(is_pattern_file(f) for f in default.iterdir())):
            return None
        source = default
    return LazyPatterns(source) if os.path.isdir(source) else load_patterns(source)


class LazyPatterns:
    """The pattern files of a directory, each read on first use.

    Webstemmer ``.pat`` files, whose names do not say their site, are read up front.

    Args:
        directory: a pattern directory, as `stemmer analyze -o` writes it.
        cache: how many sites to keep in memory.

    Raises:
        PatternFileError: `directory` is not a directory or holds no pattern
            file; later, from `get`, a site's file is broken.

    Example:
        >>> patterns = LazyPatterns("patterns/")    # doctest: +SKIP
        >>> patterns.get("example.com").layouts[0].id  # doctest: +SKIP
        'L0'
    """

    def __init__(self, directory: str | Path, *, cache: int = CACHE_SITES) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise PatternFileError(f"{directory}: not a directory")
        if cache < 1:
            raise ValueError(f"cache must be at least 1, got {cache}")
        names = [p for p in self.directory.iterdir() if is_pattern_file(p)]
        if not names:
            raise PatternFileError(f"{directory}: no pattern files (*.json, *.pat); run `stemmer analyze` first")
        self._pat = {}
        for path in sorted(p for p in names if p.suffix == ".pat"):
            self._pat.update(load_patterns(path).sites)
        self.cache = cache
        self._sites: OrderedDict[str, SitePatterns | None] = OrderedDict()

    def get(self, site: str) -> SitePatterns | None:
        """The patterns of `site`, or None when the directory has none for it."""
        if site in self._sites:
            self._sites.move_to_end(site)
            return self._sites[site]
        patterns = None
        path = self.directory / site_filename(site)
        if path.is_file():
            patterns = load_patterns(path).get(site)  # None for another site of the same file name
        if patterns is None:
            patterns = self._pat.get(site)
        self._sites[site] = patterns
        if len(self._sites) > self.cache:
            self._sites.popitem(last=False)
        return patterns

    def __contains__(self, site: object) -> bool:
        return isinstance(site, str) and self.get(site) is not None
