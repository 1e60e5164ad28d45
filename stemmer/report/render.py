"""The report as one self-contained HTML file: inline CSS, SVG and a few lines of JS, nothing fetched."""
from __future__ import annotations

import re
from html import escape

from stemmer.layout.model import Layout, Section
from stemmer.report import charts
from stemmer.report.collect import PageView, ReportData, SiteView

# Texts in tables are cut to this many characters; an extracted text to MAX_TEXT.
MAX_CELL = 160
MAX_TEXT = 4000

_CSS = """
:root{--title:#1f5fbf;--main:#1e8a44;--sub:#b7791f;--date:#7b3fa0;--static:#8a8f98;--drop:#c0392b;--bg:#fbfbfc;--line:#e3e5e8}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2329;background:var(--bg);margin:0}
header.top{background:#1d2329;color:#fff;padding:14px 24px}
header.top h1{margin:0;font-size:20px;font-weight:600}
header.top p{margin:4px 0 0;color:#c9ced6}
main{padding:8px 24px 40px;max-width:1400px}
h2{font-size:18px;margin:28px 0 6px;border-bottom:2px solid #1d2329;padding-bottom:4px}
h3{font-size:15px;margin:22px 0 6px}
h4{font-size:14px;margin:14px 0 4px}
a{color:#1f5fbf}
nav.sites{margin:10px 0;color:#555}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:6px 0}
dl.facts dt{color:#667}dl.facts dd{margin:0}
.summary{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}
.charts{display:flex;gap:16px;flex-wrap:wrap;margin:6px 0}
.chart{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px}
.chart.empty{width:360px;color:#667;font-style:italic;margin:0}
svg .bar{fill:var(--main)}svg .bar.stale{fill:var(--static)}svg .bar.miss{fill:var(--drop)}
svg .tick{stroke:#1d2329;stroke-width:2}svg .threshold{stroke:#1d2329;stroke-dasharray:4 3}
svg .axisline{stroke:#999}svg text{font-size:10px;fill:#333}svg .label{font-weight:600}
table{border-collapse:collapse;background:#fff;margin:4px 0 10px;width:100%}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f0f2f4;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.date{white-space:nowrap}
td.key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
.role{font-weight:600;white-space:nowrap}
tr.role-title td.role,.r-title{color:var(--title)}tr.role-main td.role,.r-main{color:var(--main)}
tr.role-sub td.role,.r-sub{color:var(--sub)}tr.role-static td.role{color:var(--static)}
tr.role-dropped td.role,tr.role-none td.role{color:var(--drop)}
tr.role-date td.role,tr.role-author td.role,tr.role-byline td.role,.r-date{color:var(--date)}
tr.role-title{background:#eaf1fc}tr.role-main{background:#eaf7ef}tr.role-sub{background:#fdf5e6}
tr.role-static,tr.role-dropped,tr.role-none{color:#777}
.badge{display:inline-block;font-size:11px;padding:0 6px;border-radius:8px;background:#e3e5e8;margin-left:4px;color:#333}
.badge.stale{background:#f6d7d3}.badge.pinned{background:#dce7fa}.badge.field{background:#f3e6c4}.badge.new{background:#d9f2e1}
details.layout,details.page{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:8px 0}
details>summary{cursor:pointer;font-weight:600}
details.members>summary{font-weight:400;color:#667}
.pageview{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:12px}
.extracted{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 10px;font-size:13px}
.extracted h5{margin:0 0 6px;font-size:15px;color:var(--title)}
.extracted p{margin:0 0 6px;white-space:pre-wrap}
.legend span{margin-right:12px}
.muted{color:#667}
body.hide-left tr.role-static,body.hide-left tr.role-dropped,body.hide-left tr.role-none{display:none}
"""

_JS = """
document.getElementById('hide-left').addEventListener('change',function(e){
  document.body.classList.toggle('hide-left',e.target.checked);});
document.documentElement.setAttribute('data-ready','1');
"""

# Nothing may be fetched: no network, only the inline style and script.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


def render(data: ReportData, *, title: str = "stemmer report", generated: str = "", source: str = "") -> str:
    """The report's HTML."""
    out = [f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
           f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
           f'<meta name="viewport" content="width=device-width,initial-scale=1">'
           f'<meta name="generator" content="stemmer">'
           f'<title>{escape(title)}</title><style>{_CSS}</style></head><body>',
           f'<header class="top"><h1>{escape(title)}</h1><p>{len(data.sites)} site(s)'
           + (f' · patterns: <span title="{escape(source)}">{escape(_name(source))}</span>' if source else "")
           + f" · {data.pages} input page(s)" + (f" · {escape(generated)}" if generated else "")
           + "</p></header><main>"]
    if len(data.sites) > 1:
        out.append('<nav class="sites">Sites: ' + " · ".join(
            f'<a href="#{_site_anchor(i)}">{escape(v.site)}</a>' for i, v in enumerate(data.sites)) + "</nav>")
    out.append('<p class="legend">Roles: <span class="r-title role">title</span><span class="r-main role">main'
               '</span><span class="r-sub role">sub</span><span class="r-date role">date / author / byline</span>'
               '<span class="role" style="color:var(--static)">static'
               '</span><span class="role" style="color:var(--drop)">dropped / none</span>'
               '<label><input type="checkbox" id="hide-left"> hide blocks extract leaves out</label></p>')
    for i, view in enumerate(data.sites):
        out.append(_site(view, _site_anchor(i)))
    if data.other_sites:
        out.append('<h2>Pages of sites without patterns</h2><table class="other"><tr><th>site</th><th>pages</th>'
                   '</tr>' + "".join(f"<tr><td>{escape(s)}</td><td class='num'>{n}</td></tr>"
                                     for s, n in sorted(data.other_sites.items())) + "</table>")
    out.append(f"</main><script>{_JS}</script></body></html>\n")
    return "".join(out)


def _name(source: str) -> str:
    """The last part of a path, for the header."""
    return source.rstrip("/").rsplit("/", 1)[-1] or source


def _site_anchor(i: int) -> str:
    return f"site-{i}"


def _site(view: SiteView, anchor: str) -> str:
    sp = view.patterns
    covered = sum(lay.pages for lay in sp.layouts)
    matched = sum(view.matched.values())
    out = [f'<section class="site" id="{anchor}" data-site="{escape(sp.site)}">'
           f'<h2>{escape(sp.site)}</h2><div class="summary"><dl class="facts">'
           f'<dt>layouts</dt><dd>{len(sp.layouts)} covering {covered} analyzed pages'
           + (f', {sum(lay.stale for lay in sp.layouts)} stale' if any(lay.stale for lay in sp.layouts) else "")
           + f'</dd><dt>match threshold</dt><dd>{view.threshold:g}</dd>'
           f'<dt>cluster threshold</dt><dd>{sp.params.get("cluster_threshold", "–")}</dd>'
           f'<dt>key tokens</dt><dd>{len(sp.tokens)}</dd>']
    if view.pages:
        out.append(f'<dt>input pages</dt><dd>{view.pages}: {matched} matched ({matched / view.pages:.0%}), '
                   f'{view.unmatched_count} unmatched</dd>')
    out.append("</dl>")
    sizes = [(lay.id, lay.pages, view.matched.get(lay.id, 0) if view.pages else None, lay.stale)
             for lay in sp.layouts]
    out.append('<div class="charts">' + charts.layout_sizes(sizes)
               + charts.similarity_histogram(view.similarities, view.threshold) + "</div></div>")
    out.append(_overview(view))
    for n, lay in enumerate(sp.layouts):
        out.append(_layout(view, lay, open_=n == 0))
    if view.pages:
        out.append(_unmatched(view))
    if sp.history:
        out.append("<h3>History</h3><table class='history'><tr><th>date</th><th>command</th><th>pages</th>"
                   "<th>matched</th><th>new layouts</th></tr>" + "".join(
                       f"<tr><td class='date'>{escape(str(h.get('date', '')))}</td><td>{escape(str(h.get('command', '')))}</td>"
                       f"<td class='num'>{escape(str(h.get('pages', '')))}</td>"
                       f"<td class='num'>{escape(str(h.get('matched', '')))}</td>"
                       f"<td>{escape(', '.join(map(str, h.get('new_layouts', []) or [])))}</td></tr>"
                       for h in reversed(sp.history)) + "</table>")
    out.append("</section>")
    return "".join(out)


def _overview(view: SiteView) -> str:
    rows = []
    for lay in view.patterns.layouts:
        title = next((s.sample for s in lay.sections if s.role == "title"), "")
        rows.append(f'<tr data-layout="{escape(lay.id)}"><td><a href="#{_layout_anchor(view, lay)}">'
                    f'{escape(lay.id)}</a>{_flags(lay)}</td><td class="num">{lay.pages}</td>'
                    f'<td class="num">{lay.seen or "–"}</td><td class="date">{escape(lay.first_seen or "–")}</td>'
                    f'<td class="date">{escape(lay.last_seen or "–")}</td><td class="num">{lay.score:g}</td>'
                    f'<td class="num">{len(lay.sections)}</td><td>{escape(_cut(title, 48))}</td>'
                    f'<td class="muted">{escape(_cut(lay.members[0], 64)) if lay.members else "–"}'
                    f'{f" and {len(lay.members) - 1} more" if len(lay.members) > 1 else ""}</td></tr>')
    return ("<h3>Layouts</h3><table class='overview'><tr><th>layout</th><th>pages</th><th>seen</th>"
            "<th>first seen</th><th>last seen</th><th>score</th><th>blocks</th><th>title sample</th>"
            "<th>member pages</th></tr>" + "".join(rows) + "</table>")


def _flags(lay: Layout) -> str:
    flags = ""
    if lay.stale:
        flags += ' <span class="badge stale">stale</span>'
    if any(s.pinned for s in lay.sections):
        flags += ' <span class="badge pinned">pinned roles</span>'
    if named := sum(bool(s.field) for s in lay.sections):
        flags += f' <span class="badge field">{named} named field{"" if named == 1 else "s"}</span>'
    return flags


def _field_badge(s: Section) -> str:
    """The badge of a named slot: its name, and whether it is a list, an address or a date."""
    if not s.field:
        return ""
    kind = ", ".join(k for k, on in (("list", s.many), (s.field_type, s.field_type != "text")) if on)
    return f' <span class="badge field">field {escape(s.field)}{f" ({kind})" if kind else ""}</span>'


def _fields(lay: Layout, samples: list[PageView]) -> str:
    """The layout's named fields, each with its slot and its value on each sample page."""
    named = [(i, s) for i, s in enumerate(lay.sections) if s.field]
    if not named:
        return ""
    head = "".join(f"<th>{escape(_cut(pv.url or pv.id, 40))}</th>" for pv in samples)
    rows = []
    for i, s in named:
        cells = "".join(f"<td>{escape(_cut(_shown(pv.extraction.fields.get(s.field)), MAX_CELL))}</td>"
                        for pv in samples)
        rows.append(f'<tr class="field" data-field="{escape(s.field)}"><td>{escape(s.field)}</td>'
                    f'<td class="num">{i}</td>{cells}</tr>')
    return (f"<h4>Named fields</h4><table class='fields'><tr><th>field</th><th>slot</th>{head}</tr>"
            + "".join(rows) + "</table>")


def _shown(value) -> str:
    """A field's value as the report shows it: a list joined by `` · ``, nothing as a dash."""
    if isinstance(value, list):
        return " · ".join(value) or "–"
    return value or "–"


def _layout_anchor(view: SiteView, lay: Layout) -> str:
    return "layout-" + re.sub(r"[^A-Za-z0-9_-]", "_", f"{view.site}-{lay.id}")


def _layout(view: SiteView, lay: Layout, *, open_: bool) -> str:
    head = (f'<details class="layout" id="{_layout_anchor(view, lay)}" data-site="{escape(view.site)}" '
            f'data-layout="{escape(lay.id)}"{" open" if open_ else ""}><summary>Layout {escape(lay.id)}: '
            f'{lay.pages} pages, score {lay.score:g}, {len(lay.sections)} blocks{_flags(lay)}</summary>')
    facts = ['<dl class="facts">',
             f'<dt>seen</dt><dd>{lay.seen or "–"} pages, {escape(lay.first_seen or "?")} to '
             f'{escape(lay.last_seen or "?")}</dd>',
             f'<dt>main-text container</dt><dd class="key">{escape("/".join(lay.container) or "none")}</dd>',
             '<dt>member pages</dt><dd>' + (f'<details class="members"><summary>{len(lay.members)} of '
                                               f'{lay.pages}</summary>{"<br>".join(escape(m) for m in lay.members)}'
                                               f'</details>' if lay.members else "–") + '</dd></dl>']
    rows = []
    for i, s in enumerate(lay.sections):
        pin = (' <span class="badge pinned">pinned</span>' if s.pinned else "") + _field_badge(s)
        rows.append(f'<tr class="slot role-{s.role}" data-slot="{i}" data-key="{escape(s.key)}" '
                    f'data-role="{s.role}"><td class="num">{i}</td><td class="key">{escape(s.key)}</td>'
                    f'<td class="role">{s.role}{pin}</td><td class="num">{s.diff:.3f}</td>'
                    f'<td class="num">{s.main:g}</td><td class="num">{s.share:g}</td>'
                    f'<td class="num">{s.repeats}</td><td>{escape(_cut(s.sample, MAX_CELL))}</td></tr>')
    table = ("<table class='slots'><tr><th>#</th><th>tag path (key)</th><th>role</th><th>DiffScore</th>"
             "<th>MainScore</th><th>share</th><th>weight</th><th>sample text</th></tr>" + "".join(rows) + "</table>")
    samples = view.samples.get(lay.id, [])
    pages = ""
    if samples:
        pages = (f"<h4>{len(samples)} of its {view.matched.get(lay.id, 0)} input pages, block by block</h4>"
                 + "".join(_page(pv, open_=open_ and k == 0) for k, pv in enumerate(samples)))
    elif view.pages:
        pages = '<p class="muted">No input page matched this layout.</p>'
    return head + "".join(facts) + table + _fields(lay, samples) + pages + "</details>"


def _page(pv: PageView, *, open_: bool = False) -> str:
    ex = pv.extraction
    how = (f"matched {escape(ex.pattern or '')} (similarity {ex.similarity:.3f}) by {escape(ex.method)}"
           if ex.matched else f"unmatched: {escape(pv.reason)}; nearest {escape(pv.nearest or '–')} "
           f"at {pv.similarity:.3f}; method {escape(ex.method)}")
    rows = []
    for i, b in enumerate(pv.blocks or []):
        chosen = b.chosen_by + (f" ({b.confidence:.2f})" if b.confidence is not None else "")
        rows.append(f'<tr class="block role-{b.role}" data-role="{b.role}" data-slot="{b.slot}">'
                    f'<td class="num">{i}</td><td class="role">{b.role}</td>'
                    f'<td>{escape(chosen or b.note)}</td><td class="num">{b.slot if b.slot >= 0 else ""}</td>'
                    f'<td>{escape(_cut(b.text, MAX_CELL))}</td></tr>')
    blocks = ("<table class='blocks'><tr><th>#</th><th>role</th><th>chosen by</th><th>slot</th><th>text</th>"
              "</tr>" + "".join(rows) + "</table>")
    text = "".join(f"<p>{escape(_cut(t, MAX_TEXT))}</p>" for t in ex.text.splitlines() if t)
    stated = " · ".join(f"{what} {escape(value)} ({escape(source or '')})" for what, value, source in
                        (("date", ex.date, ex.date_from), ("by", ex.author, ex.author_from)) if value)
    extracted = ('<div class="extracted"><h5>' + (escape(ex.title) if ex.title else '<span class="muted">'
                 '(no title)</span>') + "</h5>" + (f'<p class="muted">{stated}</p>' if stated else "")
                 + (text or '<p class="muted">(no main text)</p>') + "</div>")
    label = pv.url or pv.id
    return (f'<details class="page" data-page="{escape(pv.id)}" data-matched="{str(ex.matched).lower()}"'
            f'{" open" if open_ else ""}>'
            f'<summary>{escape(label)}</summary><p class="muted">{how}</p>'
            f'<div class="pageview">{blocks}{extracted}</div></details>')


def _unmatched(view: SiteView) -> str:
    if not view.unmatched_count:
        return "<h3>Unmatched pages</h3><p class='muted'>None: every input page matched a layout.</p>"
    rows = "".join(
        f'<tr data-page="{escape(pv.id)}"><td>{escape(pv.url or pv.id)}</td><td>{escape(pv.nearest or "–")}</td>'
        f'<td class="num">{pv.similarity:.3f}</td><td>{escape(pv.reason)}</td></tr>' for pv in view.unmatched)
    more = (f"<p class='muted'>{view.unmatched_count - len(view.unmatched)} more not listed.</p>"
            if view.unmatched_count > len(view.unmatched) else "")
    shown = "".join(_page(pv) for pv in view.unmatched if pv.blocks is not None)
    return (f"<h3>Unmatched pages ({view.unmatched_count})</h3><table class='unmatched'><tr><th>page</th>"
            f"<th>nearest layout</th><th>similarity</th><th>why</th></tr>{rows}</table>{more}{shown}")


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
