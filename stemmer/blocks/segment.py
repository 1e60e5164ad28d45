"""Cut a parsed page into layout blocks, with the compiled walker where the install built it.

``STEMMER_WALKER=python`` or ``compiled`` forces either walker (tests and
benchmarks compare them); by default the compiled one is used when present.
Both cut the same blocks, byte for byte.
"""
from __future__ import annotations

import os

from stemmer.blocks import walk as _python_walker
from stemmer.blocks.block import HIDDEN_PAGE_RATIO, PageBlocks
from stemmer.blocks.walk import Recorder
from stemmer.errors import SettingError

try:
    from stemmer.blocks import _walker as _compiled_walker
    from stemmer.blocks._walker import hide_named, parse_checks  # parse_html's walks of the elements, in C
except ImportError:  # no compiler at install time: the pure-Python walker cuts the same blocks
    _compiled_walker = hide_named = parse_checks = None

WALKERS = {"python": _python_walker.walk}
if _compiled_walker is not None:
    WALKERS["compiled"] = _compiled_walker.walk


def _chosen_walker() -> tuple[str, str | None]:
    """The walker to use, and why not the one STEMMER_WALKER asks for (None where it can be had).

    Not raised here: an import error would be a traceback; the CLI says it in one
    line and `segment` raises it for API callers.
    """
    default = "compiled" if "compiled" in WALKERS else "python"
    wanted = os.environ.get("STEMMER_WALKER", "").strip().lower()
    if not wanted:
        return default, None
    if wanted not in ("python", "compiled"):
        return default, f"STEMMER_WALKER={wanted!r}: choose python or compiled"
    if wanted not in WALKERS:
        return default, ("STEMMER_WALKER=compiled, but the compiled walker is not built "
                         "(reinstall with a C compiler: pip install -e .)")
    return wanted, None


WALKER, WALKER_ERROR = _chosen_walker()  # the walker in use ("compiled" or "python"), and a bad request


def walker_in_use(walker: str | None = None) -> str:
    """The walker `segment(..., walker=walker)` runs."""
    return walker or WALKER


def segment(root, *, with_links: bool = False, recorder: Recorder | None = None,
            walker: str | None = None) -> PageBlocks:
    """Cut the parsed page `root` into blocks in document order.

    Args:
        root: an lxml element (from `parse_html`), or None for an empty page.
        with_links: also collect ``(href, link text)`` of every ``<a href>``.
        recorder: told what the walk passes (see `Recorder`); it must have a
            ``clear()`` for a page walked twice (below).
        walker: ``python`` or ``compiled``; default `WALKER`.

    Returns:
        The page's blocks; blocks without a letter are left out.
    """
    if WALKER_ERROR and walker is None:
        raise SettingError(WALKER_ERROR)
    if root is None:
        return PageBlocks(())
    walk = WALKERS[walker or WALKER]
    blocks, title, links, hidden_weight = walk(root, with_links, True, recorder)
    if hidden_weight and hidden_weight > HIDDEN_PAGE_RATIO * sum(b.weight for b in blocks):
        # Nearly all of the text is hidden: a page that its scripts show once loaded.
        if recorder is not None:
            recorder.clear()
        blocks, title, links, _ = walk(root, with_links, False, recorder)
    return PageBlocks(tuple(blocks), title, tuple(links))
