"""Write extractions as JSON Lines, Webstemmer's text format, plain text or Markdown."""
from __future__ import annotations

import io
import json
import math
from typing import BinaryIO, TextIO

from stemmer.extract import Extraction

try:  # optional (stemmer[fast]): encodes a record's strings as json does, in a fraction of the time
    from orjson import dumps as _orjson_dumps
except ImportError:
    _orjson_dumps = None

FORMATS = ("jsonl", "webstemmer", "text", "markdown")
_JSON = json.JSONEncoder(ensure_ascii=False)  # what json.dumps(record, ensure_ascii=False) builds for each call


def to_record(ex: Extraction) -> dict:
    """The JSON Lines record of one page; its text leaves out the title, whichever method found them."""
    return {"id": ex.id, "url": ex.url, "site": ex.site, "matched": ex.matched, "pattern": ex.pattern,
            "similarity": ex.similarity, "method": ex.method, "title": ex.title,
            "date": ex.date, "author": ex.author, "date_from": ex.date_from, "author_from": ex.author_from,
            "text": "\n".join(b.text for b in _main_blocks(ex)), "sub": ex.sub, "fields": ex.fields}


def jsonl_line(record: dict) -> bytes:
    """The record's JSON Lines line in UTF-8: ``json.dumps(record, ensure_ascii=False) + "\\n"``, byte for byte.

    With orjson, each value is encoded by it (its strings are json's, escapes
    included) and joined with json's separators; a float by its `repr`, as json
    writes it (orjson writes 1e-05 as 0.00001).  What orjson refuses (a lone
    surrogate, an integer past 64 bits) and a float that is not finite go to json.
    """
    if _orjson_dumps is not None:
        try:
            parts = [b"{"]
            for key, value in record.items():
                if type(value) is float:
                    if not math.isfinite(value):
                        raise TypeError("not finite")
                    encoded = repr(value).encode()
                elif type(value) is dict:  # orjson writes no spaces inside: the fields, by json as a whole
                    encoded = _JSON.encode(value).encode("utf-8")
                else:
                    encoded = _orjson_dumps(value)
                parts += (_orjson_dumps(key), b": ", encoded, b", ")
            parts[-1] = b"}\n" if len(parts) > 1 else b"{}\n"
            return b"".join(parts)
        except TypeError:
            pass
    return (_JSON.encode(record) + "\n").encode("utf-8")


def to_webstemmer(ex: Extraction) -> str:
    """Webstemmer's extract format: ``!MATCHED``/``!UNMATCHED``, ``PATTERN:``, ``TITLE:``, ``MAIN-n:``, ``SUB-n:``.

    A page's date and author, where known, follow as ``DATE:`` and ``AUTHOR:`` lines
    (after ``PATTERN:``, or after ``!UNMATCHED:``), then its named fields as
    ``FIELD-name:`` lines, one per value (none for an empty one); a value that is a
    record (a comment: text, author, date) as its JSON object on one line.
    """
    known = [f"{key}: {_one_line(value)}" for key, value in (("DATE", ex.date), ("AUTHOR", ex.author)) if value]
    known += [f"FIELD-{name}: {_field_line(v)}" for name, value in ex.fields.items()
              for v in (value if isinstance(value, list) else [value]) if v]
    if not ex.matched:
        return "\n".join([f"!UNMATCHED: {ex.id}", *known]) + "\n\n"
    lines = [f"!MATCHED: {ex.id}", f"PATTERN: {ex.pattern}", *known]
    last = 0
    for b in ex.blocks:
        # A block found in the main-text container has no slot (section -1): it is
        # numbered like the slot before it, so every line keeps the `MAIN-n:` form.
        last = b.section if b.section >= 0 else last
        label = "TITLE" if b.role == "title" else f"{b.role.upper()}-{last}"
        lines.append(f"{label}: {_one_line(b.text)}")
    return "\n".join(lines) + "\n\n"


def to_text(ex: Extraction) -> str:
    """Title, then the main text's blocks as paragraphs."""
    parts = ([ex.title] if ex.title else []) + [b.text for b in _main_blocks(ex)]
    return "\n\n".join(parts)


def _main_blocks(ex: Extraction):
    """The main-text blocks, without a first one that repeats the title (the classifier keeps headlines in)."""
    blocks = [b for b in ex.blocks if b.role == "main"]
    if blocks and ex.title and blocks[0].method == "classifier" and blocks[0].text == ex.title:
        return blocks[1:]
    return blocks


_PREFIX = {"h1": "## ", "h2": "## ", "h3": "### ", "h4": "#### ", "h5": "##### ", "h6": "###### ",
           "li": "- ", "dt": "- ", "blockquote": "> "}


def front_matter(ex: Extraction) -> str:
    """The page's YAML front matter: its URL (else its id), title, date and author, those it has,
    and its fields (a mapping under ``fields``, each value a JSON string, list or list of objects
    such as the comments: valid YAML)."""
    fields = [("url", ex.url) if ex.url else ("id", ex.id), ("title", ex.title), ("date", ex.date),
              ("author", ex.author)]
    # Strings as JSON strings (valid YAML, escapes included); the ISO date bare, as YAML reads dates.
    lines = [f"{key}: {value if key == 'date' else json.dumps(value, ensure_ascii=False)}"
             for key, value in fields if value]
    if ex.fields:
        lines.append("fields:")
        lines += [f"  {json.dumps(name, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
                  for name, value in ex.fields.items()]
    return "---\n" + "\n".join(lines) + "\n---"


def to_markdown(ex: Extraction) -> str:
    """Title as a heading, then the main text's blocks, keeping headings, lists, quotes and code."""
    parts = [f"# {_one_line(ex.title)}"] if ex.title else []
    for b in _main_blocks(ex):
        if b.tag == "pre":
            parts.append(f"```\n{b.text}\n```")
        else:
            parts.append(_PREFIX.get(b.tag, "") + _one_line(b.text))
    return "\n\n".join(parts)


class Writer:
    """Writes a stream of extractions in one format; text and Markdown skip pages with nothing extracted.

    `out`: a text stream, or a binary one, which gets UTF-8 (JSON Lines: no text
    layer to pass through, `jsonl_line`'s bytes as they are).
    """

    def __init__(self, out: TextIO | BinaryIO, fmt: str = "jsonl") -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        self.out, self.fmt, self.count = out, fmt, 0
        self.binary = isinstance(out, (io.RawIOBase, io.BufferedIOBase))

    def write(self, ex: Extraction) -> None:
        if self.fmt == "jsonl":
            line = jsonl_line(to_record(ex))
            self.out.write(line if self.binary else line.decode("utf-8"))
            return
        if self.fmt == "webstemmer":
            text = to_webstemmer(ex)
        elif ex.matched or ex.method == "classifier":
            body = to_text(ex) if self.fmt == "text" else to_markdown(ex)
            header = f"==> {ex.url or ex.id} <==" if self.fmt == "text" else front_matter(ex)
            text = ("\n" if self.count else "") + f"{header}\n\n{body}\n"
            self.count += 1
        else:
            return
        self.out.write(text.encode("utf-8") if self.binary else text)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _field_line(value) -> str:
    """A field's value on one line: a string with its spaces collapsed, a record (a dict) as JSON."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else _one_line(value)
