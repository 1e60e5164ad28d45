"""Link texts from Webstemmer's ``linkinfo`` files and records: the anchors of a page's title."""
from __future__ import annotations

import ast
import json
import logging
from collections.abc import Iterable

from stemmer.pages.page import DAMAGED_INPUT

log = logging.getLogger("stemmer")


def read_linkinfo(lines: Iterable[str], where: str) -> dict[str, list[str]]:
    """Anchor texts by link target, from linkinfo lines; a bad line is skipped with a warning.

    A line is either Webstemmer's ``repr`` of ``('<timestamp>/<host>/<path>', ['text', ...])``,
    read with ``ast.literal_eval`` so that it cannot run code, or a JSON object
    ``{"url": target, "anchors": ['text', ...]}``.

    Args:
        lines: the lines of a linkinfo file or record.
        where: names the file in warnings, e.g. ``crawl.zip:linkinfo``.

    Returns:
        The anchor texts of each target (member name or URL), in the order they appear.
    """
    anchors: dict[str, list[str]] = {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("{"):
                obj = json.loads(line)
                target, texts = obj["url"], obj["anchors"]
            else:
                target, texts = ast.literal_eval(line)
            if not (isinstance(target, str) and isinstance(texts, (list, tuple))
                    and all(isinstance(t, str) for t in texts)):
                raise TypeError("expected a target string and a list of anchor strings")
        except (ValueError, TypeError, KeyError, SyntaxError, MemoryError, RecursionError) as e:
            log.warning("%s line %d: skipped, not a linkinfo entry (%s)", where, number, e, extra=DAMAGED_INPUT)
            continue
        anchors.setdefault(target, []).extend(texts)
    return anchors
