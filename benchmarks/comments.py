"""Benchmark of the built-in ``comments`` field: readers' comments in `comments`, never in the body.

A fixed list of dev pages that show readers' comments (`PAGES`), from several
sites and comment systems (WordPress, Disqus, Blogger, TypePad, Movable Type,
Slashdot's threaded replies), each with a hand-written XPath that selects the
comments' own text on that page (the message, not its author line or date).
That selection is the truth: it does not depend on how stemmer finds comments.

A page of a site that ../shared/tools/split.py splits (10 pages or more) and
that is one of its test pages is read with the layouts learned from the site's
train pages (as benchmarks/layouts.py does, generic fallback on); any other page
by the generic model alone (no patterns).  Per page:

- ``recall``: the share of the truth's letters (its words, as a multiset, weighted
  by their letters) found in the text of the page's ``comments``;
- ``gold in comments``: the letters of gold body lines (lines of 20 letters or
  more of the set's gold text) found inside the comments' text and not inside
  the truth's (a commenter may quote the article): the body's letters that leaked
  into comments (0 is the aim; not on a page whose gold kept its comments,
  `GOLD_KEEPS_COMMENTS`); the same for the extraction's own body blocks;
- the comments found, and how many carry an author and a date.

With ``--body-check SET ...``: every page of those sets is extracted by the generic
model alone (no patterns: the fallback's path), once as shipped and once with the
comments step left out; the count of pages whose title, blocks or text differ (0
is the aim: comments only read the decision) and of pages that got comments.

    python benchmarks/comments.py                 # one table per site, then the totals
    python benchmarks/comments.py --json out.json
    python benchmarks/comments.py --body-check mceb dragnet
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from layouts import load, run_split, to_page  # noqa: E402

from stemmer import analyze, extract  # noqa: E402
from stemmer.blocks import letters, parse_html, sig  # noqa: E402

# Slashdot's comment bodies, less those of comments it collapses (``li.comment.hidden``: no reader sees
# their text, and stemmer's parse drops hidden elements).
SLASHDOT = ("//ul[@id='commentlisting']//div[contains(@class,'commentBody')]"
            "[not(ancestor::li[contains(concat(' ', @class, ' '), ' hidden ')])]")
# (dataset, page id, comment system, XPath of the comments' own text on the page)
PAGES = [
    # WordPress themes, read with learned layouts (dragnet sites of 10 pages or more: test pages)
    ("dragnet", "296", "wordpress", "//div[@id='comments']//div[contains(@class,'comment-body')]"
                                    "/p[not(contains(@class,'comment-meta'))]"),
    ("dragnet", "437", "wordpress", "//div[@id='comments']//div[contains(@class,'comment-body')]"
                                    "/p[not(contains(@class,'comment-meta'))]"),
    ("dragnet", "99", "wordpress", "//div[@id='comments']//div[contains(@class,'comment-body')]"
                                   "/p[not(contains(@class,'comment-meta'))]"),
    ("dragnet", "20", "wordpress", "//dl[@id='comment_list']/dd/div[contains(@class,'format_text')]"),
    ("dragnet", "69", "wordpress", "//dl[@id='comment_list']/dd/div[contains(@class,'format_text')]"),
    ("dragnet", "103", "wordpress", "//dl[@id='comment_list']/dd/div[contains(@class,'format_text')]"),
    ("dragnet", "119", "wordpress", "//dl[@id='comment_list']/dd/div[contains(@class,'format_text')]"
                                    "/p[not(@class='reply')]"),
    ("dragnet", "273", "wordpress", "//dl[@id='comment_list']/dd/div[contains(@class,'format_text')]"
                                    "/p[not(@class='reply')]"),
    ("dragnet", "343", "wordpress", "//dl[@id='comment_list']/dd/div[contains(@class,'format_text')]"
                                    "/p[not(@class='reply')]"),
    ("dragnet", "141", "wordpress", "//ol[contains(@class,'commentlist')]//div[contains(@class,'comment-entry')]"
                                    "/p[not(contains(@class,'thdrpy'))]"),
    ("dragnet", "346", "wordpress", "//ol[contains(@class,'commentlist')]//div[contains(@class,'comment-entry')]"
                                    "/p[not(contains(@class,'thdrpy'))]"),
    ("dragnet", "54", "wordpress", "//ol[contains(@class,'commentlist')]//div[contains(@class,'comment-entry')]"
                                   "/p[not(contains(@class,'thdrpy'))]"),
    ("dragnet", "R71", "wordpress", "//ol[contains(@class,'commentlist')]//div[contains(@class,'comment-content')]"),
    ("cleanportaleval", "blogs.wsj.com_brussels_02", "wordpress",
     "//ul[contains(@class,'commentlist')]//div[contains(@class,'commentContent')]"),
    ("cleanportaleval", "blogs.wsj.com_brussels_07", "wordpress",
     "//ul[contains(@class,'commentlist')]//div[contains(@class,'commentContent')]"),
    ("cleanportaleval", "blogs.wsj.com_brussels_11", "wordpress",
     "//ul[contains(@class,'commentlist')]//div[contains(@class,'commentContent')]"),
    # TypePad, with learned layouts
    ("dragnet", "R664", "typepad", "//div[@id='comments-content']//div[contains(@class,'comment-content')]"),
    ("dragnet", "R667", "typepad", "//div[@id='comments-content']//div[contains(@class,'comment-content')]"),
    # one page of its site in the set: the generic model alone
    ("dragnet", "R132", "wordpress", "//ul[contains(@class,'commentlist')]//div[contains(@class,'comment-container')]"
                                     "/*[self::p or self::blockquote]"),
    ("dragnet", "R681", "movabletype", "//div[contains(@class,'commentbody')]/div[starts-with(@id,'c')]"),
    ("dragnet", "R917", "blogger", "//dl[@id='comments-block']/dd[contains(@class,'comment-body')]"),
    ("dragnet", "R101", "blogger", "//dl[@id='comments-block']/dd[contains(@class,'comment-body')]"),
    ("dragnet", "R918", "blogger", "//dl[@id='comments-block']/dd[contains(@class,'comment-body')]"),
    ("dragnet", "R919", "blogger", "//dl[@id='comments-block']/dd[contains(@class,'comment-body')]"),
    ("dragnet", "R656", "blogger", "//div[contains(@class,'comment-thread')]//p[contains(@class,'comment-content')]"),
    ("dragnet", "R21", "disqus", "//ul[@id='dsq-comments']//div[contains(@class,'dsq-comment-message')]"),
    ("dragnet", "R22", "disqus", "//ul[@id='dsq-comments']//div[contains(@class,'dsq-comment-message')]"),
    ("dragnet", "R227", "disqus", "//ul[@id='dsq-comments']//div[contains(@class,'dsq-comment-message')]"),
    ("dragnet", "R146", "disqus", "//ul[@id='dsq-comments']//div[contains(@class,'dsq-comment-message')]"),
    ("dragnet", "R225", "disqus", "//ul[@id='dsq-comments']//div[contains(@class,'dsq-comment-message')]"),
    ("dragnet", "131", "forum replies", SLASHDOT),
    ("dragnet", "232", "forum replies", SLASHDOT),
    ("dragnet", "369", "forum replies", SLASHDOT),
]
# Pages whose gold text kept the readers' comments (dragnet's gold drops them on most pages, not on
# this one: its last 60 lines are the comments, bylines included): no leak check there.
GOLD_KEEPS_COMMENTS = {("dragnet", "437")}
# A gold body line counts in the leak check from this many letters (a "Reply" or a name is in both).
LINE_LETTERS = 20
_WORD = re.compile(r"\w+")


def truth_text(html: str, xpath: str) -> str:
    """The text of the elements the page's XPath selects, one per line."""
    root = parse_html(html)
    return "\n".join(" ".join(" ".join(el.itertext()).split()) for el in root.xpath(xpath))


def word_recall(truth: str, found: str) -> float:
    """The share of `truth`'s letters whose words (a multiset) are in `found`."""
    want = Counter(_WORD.findall(truth.lower()))
    have = Counter(_WORD.findall(found.lower()))
    total = sum(letters(w) * n for w, n in want.items())
    return sum(letters(w) * min(n, have[w]) for w, n in want.items()) / total if total else float("nan")


def leaked(lines: list[str], comments: str, truth: str) -> int:
    """The letters of `lines` (of `LINE_LETTERS` or more) that lie inside the comments' text and not in
    the truth's (a commenter who quotes the article, a gold text that kept the comments)."""
    inside, theirs = sig(comments), sig(truth)
    return sum(letters(line) for line in lines
               if letters(line) >= LINE_LETTERS and (s := sig(line)) in inside and s not in theirs)


def read_pages(work: Path) -> list[dict]:
    """Each listed page's extraction, read as described above."""
    rows = []
    by_set: dict[str, list[tuple]] = {}
    for entry in PAGES:
        by_set.setdefault(entry[0], []).append(entry)
    for dataset, entries in by_set.items():
        data = load(dataset)
        split = run_split(dataset, work)
        test = set(split["test"])
        learned = {data[i]["site"] for _, i, _, _ in entries if i in test}
        results = {}
        for site in sorted(learned):
            patterns = analyze([to_page(data[i]) for i in split["train"] if data[i]["site"] == site])
            pages = [to_page(data[i]) for _, i, _, _ in entries if i in test and data[i]["site"] == site]
            results.update({r.id: r for r in extract(pages, patterns)})
        alone = [to_page(data[i]) for _, i, _, _ in entries if i not in results]
        results.update({r.id: r for r in extract(alone, None)})
        for _, pid, system, xpath in entries:
            d, r = data[pid], results[pid]
            comments = r.fields.get("comments", [])
            said = "\n".join(c["text"] for c in comments)
            truth = truth_text(d["html"], xpath)
            if not truth.strip():
                raise SystemExit(f"{dataset} {pid}: the XPath selects no text: {xpath}")
            gold = [line for line in (d.get("text") or "").split("\n") if line.strip()]
            if (dataset, pid) in GOLD_KEEPS_COMMENTS:
                gold = []
            rows.append({"set": dataset, "id": pid, "site": d["site"], "system": system,
                         "read_by": "layout" if r.matched else r.method, "comments": len(comments),
                         "with_author": sum(1 for c in comments if c["author"]),
                         "with_date": sum(1 for c in comments if c["date"]),
                         "truth_letters": letters(truth), "recall": word_recall(truth, said),
                         "gold_leaked": leaked(gold, said, truth), "gold_letters": sum(map(letters, gold)),
                         "body_leaked": leaked([b.text for b in r.body_blocks()], said, truth)})
    return rows


def body_check(sets: list[str]) -> None:
    """Per set: pages whose body differs with and without the comments step, and pages with comments."""
    import stemmer.api as api

    step = api.with_comments
    for dataset in sets:
        pages = [to_page(d) for d in load(dataset).values()]
        start = time.perf_counter()
        shipped = list(extract(pages, None))
        api.with_comments = lambda result, *args: result
        try:
            bare = list(extract(pages, None))
        finally:
            api.with_comments = step
        differ = sum((a.title, a.blocks, a.text) != (b.title, b.blocks, b.text) for a, b in zip(shipped, bare))
        print(f"{dataset}: {len(pages)} pages, body differs on {differ}, comments on "
              f"{sum(bool(r.fields.get('comments')) for r in shipped)} "
              f"({sum(len(r.fields.get('comments', [])) for r in shipped)} comments)  "
              f"({time.perf_counter() - start:.0f} s)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path("/tmp/stemmer-bench-comments"))
    ap.add_argument("--json", type=Path, help="write the per-page rows here")
    ap.add_argument("--body-check", nargs="+", metavar="SET", help="the body with and without comments instead")
    args = ap.parse_args(argv)
    if args.body_check:
        body_check(args.body_check)
        return 0
    args.work.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    rows = read_pages(args.work)
    print(f"{'site':28} {'system':13} {'read by':10} {'pages':>5} {'comments':>8} {'author':>6} {'date':>5} "
          f"{'recall':>6} {'min':>5} {'gold in comments':>16}")
    for site in dict.fromkeys(r["site"] for r in rows):
        mine = [r for r in rows if r["site"] == site]
        n = sum(r["truth_letters"] for r in mine)
        recall = sum(r["recall"] * r["truth_letters"] for r in mine) / n
        found = sum(r["comments"] for r in mine)
        print(f"{site:28} {mine[0]['system']:13} {'/'.join(sorted({r['read_by'] for r in mine})):10} {len(mine):5d} "
              f"{found:8d} {sum(r['with_author'] for r in mine):6d} {sum(r['with_date'] for r in mine):5d} "
              f"{recall:6.3f} {min(r['recall'] for r in mine):5.3f} "
              f"{sum(r['gold_leaked'] for r in mine):7d} letters")
    n = sum(r["truth_letters"] for r in rows)
    print(f"\n{len(rows)} pages on {len({r['site'] for r in rows})} sites "
          f"({', '.join(sorted({r['system'] for r in rows}))}): "
          f"comments' letters in `comments` {sum(r['recall'] * r['truth_letters'] for r in rows) / n:.3f} "
          f"(pooled), pages at 0.95 or more {sum(r['recall'] >= 0.95 for r in rows)}/{len(rows)}; "
          f"gold body letters in `comments` {sum(r['gold_leaked'] for r in rows)} "
          f"of {sum(r['gold_letters'] for r in rows)}; extracted body blocks' letters in `comments` "
          f"{sum(r['body_leaked'] for r in rows)}  ({time.perf_counter() - start:.0f} s)")
    for r in rows:
        if r["recall"] < 0.95 or r["gold_leaked"]:
            print(f"  {r['set']} {r['id']} ({r['site']}): recall {r['recall']:.3f}, {r['comments']} comments, "
                  f"gold letters in comments {r['gold_leaked']}")
    if args.json:
        tmp = args.json.with_suffix(".part")
        tmp.write_text(json.dumps(rows, indent=1))
        tmp.replace(args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
