"""Clean a byline to the names it gives: "By Jane Doe and John Roe | March 5, 2024" → "Jane Doe, John Roe"."""
from __future__ import annotations

import functools
import html
import re

from stemmer.metadata.dates import parse_date

# Words that open a byline, in the languages of our sets ("By", "Posted by", "Par", "Von", "作者："),
# with what separates them from the name.
BYLINE_LEAD = re.compile(
    r"^\s*(?:(?:written|posted|published|reviewed|edited|updated|reported|photos?|words|story|text|article)"
    r"\s+by|by|par|écrit par|publié par|por|publicado por|escrito por|di|scritto da|von|geschrieben von|"
    r"door|autor(?:a|in)?|auteur|author|authors|writer|redacción|redazione|yazar|автор|penulis|oleh|"
    r"作者|著者|投稿者|글쓴이|작성자|نویسنده)(?:\s*[:：\-–—]\s*|\s+|$|(?<=[^\x00-\x7f]))", re.I)
# Where a byline goes on with something that is not a name: a date, a separator, a role.
_CUT = re.compile(r"\s[|•·–—]\s|\s\|\s?|\son\s(?=\w+\.?\s+\d)|\b(?:updated|published|posted|last updated|"
                  r"le|el|il|am|on|op|dnia)\b\s*:?\s*(?=\d)|\s*\(|\n", re.I)
_ROLES = re.compile(
    r",?\s*\b(?:senior|staff|contributing|guest|managing|executive|associate|deputy|chief|freelance|"
    r"special|local|sports?|news|food|travel|tech(?:nology)?|political|science|health|business)?\s*"
    r"(?:writer|editor|reporter|correspondent|contributor|columnist|journalist|author|producer|"
    r"editorial team|team|staff)s?\b\.?$", re.I)
_AND = re.compile(r"\s*(?:,\s*and\s+|,\s*&\s*|\s+and\s+|\s+&\s+|\s+et\s+|\s+y\s+|\s+e\s+|\s+und\s+|"
                  r"\s+en\s+|\s+i\s+|\s+ve\s+|\s+и\s+|\s+dan\s+|\s*;\s*|、|\s*،\s*)\s*", re.I)
_EMAIL = re.compile(r"\S+@\S+|https?://\S+|@\w+")
MAX_NAME = 60  # characters; a longer part is a sentence, not a name
MAX_WORDS = 6


@functools.lru_cache(maxsize=4096)  # a site's pages repeat their bylines and author tags
def clean_author(text: str | None) -> str | None:
    """The names a byline gives, joined with ", ", without "By", roles, dates, e-mails or links.

    Returns None where nothing name-like is left (a date alone, a sentence, a URL).
    """
    if not text:
        return None
    text = " ".join(html.unescape(text).split())
    text = _EMAIL.sub(" ", text)
    for _ in range(2):
        text = BYLINE_LEAD.sub("", text)
    if cut := _CUT.search(text):
        text = text[:cut.start()]
    names = []
    for part in _AND.split(text):
        part = part.strip(" ,:;-–—|·•")
        if "," in part:  # "Jane Doe, Staff Writer": a role after a comma (a degree such as "Ph.D." stays)
            head, _, tail = part.partition(",")
            if _ROLES.fullmatch("," + tail) or not tail.strip():
                part = head
        if part and _name_like(part):
            names.append(part)
    return ", ".join(dict.fromkeys(names)) or None


def _name_like(part: str) -> bool:
    """Whether `part` may be a name: short, has letters, is not a date (user names such as "admin" are kept)."""
    return (len(part) <= MAX_NAME and len(part.split()) <= MAX_WORDS and any(c.isalpha() for c in part)
            and parse_date(part) is None)
