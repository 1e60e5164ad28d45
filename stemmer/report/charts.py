"""Two small inline SVG charts: layout sizes, and how similar pages are to their nearest layout."""
from __future__ import annotations

from html import escape

# Bins of the similarity histogram over [0, 1].
SIM_BINS = 20
_W, _H = 340, 130


def layout_sizes(layouts: list[tuple[str, int, int | None, bool]]) -> str:
    """Horizontal bars: per layout its analyzed pages, and its matched input pages if any.

    Args:
        layouts: (id, pages, input pages matched or None, stale) per layout.
    """
    if not layouts:
        return _empty("No layouts: no cluster had enough pages.")
    row = 18
    top = 20
    height = top + row * len(layouts) + 8
    left, right = 44, _W - 40
    most = max(max(p, m or 0) for _, p, m, _ in layouts) or 1
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {_W} {height}" width="{_W}" height="{height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>Pages per layout</title>',
             f'<text x="{left}" y="12" class="axis">pages per layout'
             + (' (bar: analyzed, tick: input pages matched)' if any(m is not None for *_, m, _ in layouts)
                else '') + '</text>']
    for i, (lid, pages, matched, stale) in enumerate(layouts):
        y = top + i * row
        w = max(1.0, (right - left) * pages / most)
        cls = "bar stale" if stale else "bar"
        parts.append(f'<text x="{left - 6}" y="{y + 12}" class="label" text-anchor="end">{escape(lid)}</text>'
                     f'<rect class="{cls}" x="{left}" y="{y + 2}" width="{w:.1f}" height="{row - 6}">'
                     f'<title>{escape(lid)}: {pages} pages analyzed</title></rect>'
                     f'<text x="{left + w + 4:.1f}" y="{y + 12}" class="value">{pages}</text>')
        if matched is not None:
            x = left + (right - left) * matched / most
            parts.append(f'<line class="tick" x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + row - 2}">'
                         f'<title>{escape(lid)}: {matched} input pages matched</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def similarity_histogram(values: list[tuple[float, bool]], threshold: float) -> str:
    """Histogram of each page's similarity to its nearest layout, matched pages apart, with the threshold."""
    if not values:
        return _empty("No pages given: add pages of the site as INPUT to see how well they fit.")
    matched = [0] * SIM_BINS
    other = [0] * SIM_BINS
    for sim, ok in values:
        b = min(SIM_BINS - 1, max(0, int(sim * SIM_BINS)))
        (matched if ok else other)[b] += 1
    most = max(m + o for m, o in zip(matched, other)) or 1
    left, bottom, top = 30, _H - 22, 18
    width = (_W - left - 10) / SIM_BINS
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>Similarity of pages to their nearest layout</title>',
             f'<text x="{left}" y="12" class="axis">pages by similarity to their nearest layout</text>']
    for i in range(SIM_BINS):
        x = left + i * width
        y = bottom
        for count, cls in ((matched[i], "bar"), (other[i], "bar miss")):
            if count:
                h = (bottom - top) * count / most
                y -= h
                parts.append(f'<rect class="{cls}" x="{x + 1:.1f}" y="{y:.1f}" width="{width - 2:.1f}" '
                             f'height="{h:.1f}"><title>{i / SIM_BINS:.2f}–{(i + 1) / SIM_BINS:.2f}: {count} '
                             f'{"matched" if cls == "bar" else "unmatched"}</title></rect>')
    parts.append(f'<line class="axisline" x1="{left}" x2="{_W - 10}" y1="{bottom}" y2="{bottom}"/>')
    for v in (0, 0.5, 1):
        parts.append(f'<text x="{left + v * (_W - left - 10):.1f}" y="{bottom + 14}" class="axis" '
                     f'text-anchor="middle">{v:g}</text>')
    tx = left + threshold * (_W - left - 10)
    parts.append(f'<line class="threshold" x1="{tx:.1f}" x2="{tx:.1f}" y1="{top - 4}" y2="{bottom}"/>'
                 f'<text x="{tx + 3:.1f}" y="{top + 16}" class="axis">threshold {threshold:g}</text>')
    parts.append(f'<text x="{left - 4}" y="{top + 4}" class="axis" text-anchor="end">{most}</text></svg>')
    return "".join(parts)


def _empty(message: str) -> str:
    return f'<p class="chart empty">{escape(message)}</p>'
