"""Roles a user pinned by hand (``"pinned": true``) and named slots (``"field"``), kept when a
site's layouts are learned again.

A re-analysis replaces a site's pattern file; each new layout takes the pinned
roles and field names of the previous layout most like it, so that hand edits and
`stemmer label` are not undone
(`save_patterns` does it for the file it replaces).  `stemmer update` gives a
layout it learns the pins of the nearest existing one.
"""
from __future__ import annotations

from dataclasses import replace

from stemmer.cluster import layout_sequence, similarity
from stemmer.layout.model import HISTORY_MAX, Layout, Section, SitePatterns

# A new layout takes the pinned roles of the previous layout most like it, if at
# least this similar (the layout similarity of their slot sequences, as in
# matching): a re-analyzed template keeps most of its slots.
CARRY_MIN_SIMILARITY = 0.5
# Roles a layout gives one slot each.
SINGLE_ROLES = frozenset({"title", "date", "author", "byline"})


def layout_similarity(a: Layout, b: Layout) -> float:
    """How alike two layouts' slot sequences are: the Sim of matching, in [0, 1]."""
    ids = {k: i for i, k in enumerate(sorted({s.key for s in (*a.sections, *b.sections)}))}
    seq_a = layout_sequence((s.key for s in a.sections), ids, {s.key: s.repeats for s in a.sections})
    seq_b = layout_sequence((s.key for s in b.sections), ids, {s.key: s.repeats for s in b.sections})
    return similarity(seq_a, seq_b)


def is_pinned(s: Section) -> bool:
    """Whether a slot is kept over a new analysis: its role pinned by hand, or named (a field)."""
    return s.pinned or bool(s.field)


def apply_pins(target: Layout, source: Layout) -> tuple[Layout, list[str]]:
    """`target` with the pinned roles and the field names of `source` on the slots of the same key.

    A pinned title, date, author or byline slot replaces the one `target`
    learned (that slot becomes ``sub``): a layout has one of each.  A named
    slot gives its name (with ``many`` and its type) to the slot of its key,
    and a `target` slot of the same name loses it: a layout names one slot so.

    Returns:
        The layout, and the keys of pinned or named slots that `target` lacks.
    """
    kept = {s.key: s for s in source.sections if is_pinned(s)}
    if not kept:
        return target, []
    pins = {key: s.role for key, s in kept.items() if s.pinned}
    keys = {s.key for s in target.sections}
    replaced = {role for key, role in pins.items() if key in keys and role in SINGLE_ROLES}
    names = {s.field for key, s in kept.items() if s.field and key in keys}
    sections = []
    for s in target.sections:
        if s.key in pins:
            s = replace(s, role=pins[s.key], pinned=True)
        elif s.role in replaced and not s.pinned:
            s = replace(s, role="sub")
        if (old := kept.get(s.key)) is not None and old.field:
            s = replace(s, field=old.field, many=old.many, field_type=old.field_type, prefix=old.prefix)
        elif s.field in names:
            s = replace(s, field="", many=False, field_type="text", prefix="")
        sections.append(s)
    return replace(target, sections=tuple(sections)), [k for k in kept if k not in keys]


def carry_over(previous: SitePatterns, new: SitePatterns) -> tuple[SitePatterns, list[str]]:
    """Keep what a new analysis must not lose from a site's previous patterns.

    Each new layout is paired with the previous layout most like it (one to one,
    most similar pairs first, at least `CARRY_MIN_SIMILARITY`); it takes that
    layout's pinned roles and its earlier ``first_seen``. The history goes on.

    Returns:
        The new patterns, and one warning per pinned slot that found no place.
    """
    pairs = sorted(((layout_similarity(n, p), i, j) for i, n in enumerate(new.layouts)
                    for j, p in enumerate(previous.layouts)), key=lambda t: (-t[0], t[1], t[2]))
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for sim, i, j in pairs:
        if sim >= CARRY_MIN_SIMILARITY and i not in partner and j not in taken:
            partner[i] = j
            taken.add(j)
    layouts, warnings = [], []
    for i, lay in enumerate(new.layouts):
        if i in partner:
            old = previous.layouts[partner[i]]
            lay, lost = apply_pins(lay, old)
            if old.first_seen and (not lay.first_seen or old.first_seen < lay.first_seen):
                lay = replace(lay, first_seen=old.first_seen)
            warnings += [f"{new.site}: {_what(old, k)} {k!r} of layout {old.id} is not in the new layout {lay.id}"
                         for k in lost]
        layouts.append(lay)
    for j, old in enumerate(previous.layouts):
        if j not in taken and any(is_pinned(s) for s in old.sections):
            warnings.append(f"{new.site}: layout {old.id} with pinned or named blocks has no counterpart "
                            "in the new analysis")
    return replace(new, layouts=tuple(layouts), history=(*previous.history, *new.history)[-HISTORY_MAX:]), warnings


def _what(layout: Layout, key: str) -> str:
    """``pinned block`` or ``block of field 'price'``, for a warning about the slot of `key`."""
    s = next(s for s in layout.sections if s.key == key)
    return f"block of field {s.field!r}" if s.field else "pinned block"
