# cython: language_level=3, boundscheck=False, wraparound=False
"""The classifier's feature arithmetic, compiled: the per-block text statistics
(`stemmer.classify.features._text_stats`), the per-page sums of `features._Stats`
(`page_arrays`), the second stage's context columns (`stemmer.classify.stacking`),
and the description of an element (`features._describe`).

One pass over each block's characters instead of a regex per statistic (over
the bytes of an ASCII text); the same counts by the same character classes
(Python's ``\\w``, ``\\d``, ``str.isspace``, ``str.isupper``), so the same
numbers to the last bit.  Each has its Python twin, which STEMMER_WALKER=python runs.
"""
from cpython.unicode cimport Py_UNICODE_ISALNUM, Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE, Py_UNICODE_ISUPPER
from libc.math cimport INFINITY, log, log1p
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memchr, memcmp, memset, strstr

cdef extern from "Python.h":
    ctypedef unsigned char Py_UCS1
    ctypedef unsigned short Py_UCS2
    # a character of a str by its storage kind and data: no call, no check (`str[i]` makes both)
    int PyUnicode_KIND(object text)
    const void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, const void* data, Py_ssize_t i) nogil
    bint PyUnicode_IS_ASCII(object text)
    object PyUnicode_DecodeASCII(const char* s, Py_ssize_t size, const char* errors)

import numpy as np

cdef str _PUNCT = ".,;:!?，。；：！？、"
cdef str _END_PUNCT = ".!?:;\"'”’。！？…)"


cdef bint _collapses_to(int kind, const void* data, Py_ssize_t n, str sig):
    """``" ".join(text.split()) == sig`` of the `n` characters of a text (of storage `kind` at `data`),
    without building the left side (`sig` is collapsed already)."""
    cdef Py_ssize_t i = 0, k = 0, m = len(sig)
    cdef bint gap = False
    cdef Py_UCS4 c
    cdef int sig_kind = PyUnicode_KIND(sig)
    cdef const void* sig_data = PyUnicode_DATA(sig)
    for i in range(n):
        c = PyUnicode_READ(kind, data, i)
        if Py_UNICODE_ISSPACE(c):
            gap = k > 0
            continue
        if gap:
            if k >= m or PyUnicode_READ(sig_kind, sig_data, k) != 32:
                return False
            k += 1
            gap = False
        if k >= m or PyUnicode_READ(sig_kind, sig_data, k) != c:
            return False
        k += 1
    return k == m


cdef inline bint _cjk(Py_UCS4 c) noexcept:
    return (0x3040 <= c <= 0x30ff or 0x3400 <= c <= 0x4dbf or 0x4e00 <= c <= 0x9fff
            or 0xac00 <= c <= 0xd7af or 0xf900 <= c <= 0xfaff)


cdef extern from *:
    """
    #define STEMMER_FNV_OFFSET 14695981039346656037ULL
    #define STEMMER_FNV_PRIME 1099511628211ULL
    """
    unsigned long long STEMMER_FNV_OFFSET
    unsigned long long STEMMER_FNV_PRIME


ctypedef struct WordRef:
    const void* data     # the str's characters
    int kind
    Py_ssize_t start, length
    unsigned long long hash


cdef inline unsigned long long _hash(int kind, const void* data, Py_ssize_t start, Py_ssize_t length) noexcept:
    """FNV-1a over the code points of a slice of a str."""
    cdef unsigned long long h = STEMMER_FNV_OFFSET
    cdef Py_ssize_t i
    for i in range(start, start + length):
        h = (h ^ <unsigned long long>PyUnicode_READ(kind, data, i)) * STEMMER_FNV_PRIME
    return h


cdef inline bint _same(const WordRef* a, const WordRef* b) noexcept:
    """Whether two slices hold the same code points."""
    cdef Py_ssize_t i
    if a.hash != b.hash or a.length != b.length:
        return False
    for i in range(a.length):
        if PyUnicode_READ(a.kind, a.data, a.start + i) != PyUnicode_READ(b.kind, b.data, b.start + i):
            return False
    return True


cdef class _WordSet:
    """A set of str slices by their code points, open addressing: `add` and `contains` make no str."""

    cdef WordRef* slots
    cdef unsigned int* gen   # a slot is taken where its gen is the set's current one
    cdef unsigned int current
    cdef Py_ssize_t mask, count
    cdef list keep  # the strs whose characters are referenced

    def __cinit__(self):
        self.slots, self.gen, self.mask, self.current, self.count, self.keep = NULL, NULL, -1, 1, 0, []

    def __dealloc__(self):
        free(self.slots)
        free(self.gen)

    cdef int reset(self, Py_ssize_t capacity) except -1:
        """Empty, for up to `capacity` words."""
        cdef Py_ssize_t size = 16
        while size < 2 * capacity + 2:
            size *= 2
        if size - 1 > self.mask:
            free(self.slots)
            free(self.gen)
            self.slots = <WordRef*>malloc(size * sizeof(WordRef))
            self.gen = <unsigned int*>calloc(size, sizeof(unsigned int))
            if self.slots is NULL or self.gen is NULL:
                raise MemoryError()
            self.mask, self.current = size - 1, 1
        else:
            self.current += 1
            if self.current == 0:  # wrapped: clear the marks
                memset(self.gen, 0, (self.mask + 1) * sizeof(unsigned int))
                self.current = 1
        self.count = 0
        self.keep = []
        return 0

    cdef inline Py_ssize_t _slot(self, const WordRef* w) noexcept:
        """The slot holding `w`, else the free slot where it would go."""
        cdef Py_ssize_t at = <Py_ssize_t>(w.hash & <unsigned long long>self.mask)
        while self.gen[at] == self.current and not _same(&self.slots[at], w):
            at = (at + 1) & self.mask
        return at

    cdef bint add(self, const WordRef* w) noexcept:
        """Add `w`; whether it was new."""
        cdef Py_ssize_t at = self._slot(w)
        if self.gen[at] == self.current:
            return False
        self.gen[at] = self.current
        self.slots[at] = w[0]
        self.count += 1
        return True

    cdef bint contains(self, const WordRef* w) noexcept:
        return self.gen[self._slot(w)] == self.current

    cdef int fill(self, words) except -1:
        """Empty, then hold the strs of `words`."""
        cdef WordRef w
        cdef str word
        self.reset(len(words))
        for word in words:
            self.keep.append(word)
            w.data, w.kind, w.start, w.length = PyUnicode_DATA(word), PyUnicode_KIND(word), 0, len(word)
            w.hash = _hash(w.kind, w.data, 0, w.length)
            self.add(&w)
        return 0


# What an ASCII character is to the text statistics, one bit per class (`_ASCII`).
cdef enum:
    _SPACE = 1      # str.isspace
    _UPPER = 2      # str.isupper
    _DIGIT = 4      # \d
    _PUNCT_C = 8    # one of _PUNCT
    _BAR = 16       # |
    _WORD_C = 32    # \w
    _END_C = 64     # one of _END_PUNCT
cdef unsigned char _ASCII[128]
cdef unsigned char _LOWER[128]


cdef int _ascii_tables() except -1:
    cdef int c
    for c in range(128):
        _LOWER[c] = c + 32 if 65 <= c <= 90 else c
        _ASCII[c] = ((_SPACE if Py_UNICODE_ISSPACE(c) else 0) | (_UPPER if 65 <= c <= 90 else 0)
                     | (_DIGIT if 48 <= c <= 57 else 0) | (_PUNCT_C if chr(c) in _PUNCT else 0)
                     | (_BAR if c == 124 else 0) | (_WORD_C if chr(c).isalnum() or c == 95 else 0)
                     | (_END_C if chr(c) in _END_PUNCT else 0))
    return 0


_ascii_tables()


cdef bint _has_year_ascii(const unsigned char* s, Py_ssize_t n) noexcept:
    """``re.search(r"\\b(19|20)\\d\\d\\b", text)`` of an ASCII text."""
    cdef Py_ssize_t i
    for i in range(n - 3):
        if not ((s[i] == 49 and s[i + 1] == 57) or (s[i] == 50 and s[i + 1] == 48)):  # "19", "20"
            continue
        if i > 0 and _ASCII[s[i - 1]] & _WORD_C:
            continue
        if not (_ASCII[s[i + 2]] & _DIGIT and _ASCII[s[i + 3]] & _DIGIT):
            continue
        if i + 4 < n and _ASCII[s[i + 4]] & _WORD_C:
            continue
        return True
    return False


cdef bint _holds(const unsigned char* s, Py_ssize_t n, const char* word, Py_ssize_t m) noexcept:
    """Whether `word` (`m` > 0 bytes) occurs in the first `n` bytes of `s`: each place of its first byte
    (`memchr`, which reads many bytes a step) compared with it."""
    cdef const unsigned char* at = s
    cdef const unsigned char* last
    if n < m:
        return False
    last = s + n - m  # the last place it may start
    while at <= last:
        at = <const unsigned char*>memchr(at, <unsigned char>word[0], last - at + 1)
        if at is NULL:
            return False
        if memcmp(at, word, m) == 0:
            return True
        at += 1
    return False


ctypedef fused char_t:
    Py_UCS1
    Py_UCS2
    Py_UCS4


ctypedef struct Row:
    # one block's counts for `text_stats`
    Py_ssize_t tokens, caps, digits, punct, bars, cjk, nw, word_chars, stop, common
    bint copyright, ends, year


cdef inline bint _is_space(Py_UCS4 c) noexcept:
    return (_ASCII[c] & _SPACE) != 0 if c < 128 else Py_UNICODE_ISSPACE(c)


cdef inline bint _is_word(Py_UCS4 c) noexcept:
    return (_ASCII[c] & _WORD_C) != 0 if c < 128 else Py_UNICODE_ISALNUM(c)


cdef inline bint _is_decimal(Py_UCS4 c) noexcept:
    return (_ASCII[c] & _DIGIT) != 0 if c < 128 else Py_UNICODE_ISDECIMAL(c)


cdef void _count_chars(const char_t* s, Py_ssize_t n, Row* row) noexcept:
    """The counts of a text's characters (tokens, their capitals, digits, punctuation, bars, CJK), the
    copyright sign, whether it ends with one of `_END_PUNCT` (trailing space aside) and holds a year."""
    cdef Py_ssize_t i
    cdef Py_UCS4 c
    cdef bint in_token = False
    for i in range(n):
        c = s[i]
        if c < 128:
            if _ASCII[c] & _SPACE:
                in_token = False
                continue
            if not in_token:
                in_token = True
                row.tokens += 1
                row.caps += (_ASCII[c] & _UPPER) != 0
            row.digits += (_ASCII[c] & _DIGIT) != 0
            row.punct += (_ASCII[c] & _PUNCT_C) != 0
            row.bars += (_ASCII[c] & _BAR) != 0
            continue
        if Py_UNICODE_ISSPACE(c):
            in_token = False
            continue
        if not in_token:
            in_token = True
            row.tokens += 1
            row.caps += Py_UNICODE_ISUPPER(c)
        if Py_UNICODE_ISDECIMAL(c):
            row.digits += 1
        if _cjk(c):
            row.cjk += 1
        if c == 0xbb or c == 0xb7:  # » ·
            row.bars += 1
        elif c == 0xa9:  # ©
            row.copyright = True
        elif c == 0xff0c or c == 0x3002 or c == 0xff1b or c == 0xff1a or c == 0xff01 or c == 0xff1f or c == 0x3001:
            row.punct += 1  # ，。；：！？、
    i = n - 1
    while i >= 0 and _is_space(s[i]):
        i -= 1
    if i >= 0:
        c = s[i]
        row.ends = ((_ASCII[c] & _END_C) != 0 if c < 128 else
                    c == 0x201d or c == 0x2019 or c == 0x3002 or c == 0xff01 or c == 0xff1f or c == 0x2026)  # ”’。！？…
    for i in range(n - 3):  # re.search(r"\\b(19|20)\\d\\d\\b")
        if not ((s[i] == 49 and s[i + 1] == 57) or (s[i] == 50 and s[i + 1] == 48)):  # "19", "20"
            continue
        if i > 0 and _is_word(s[i - 1]):
            continue
        if not (_is_decimal(s[i + 2]) and _is_decimal(s[i + 3])):
            continue
        if i + 4 < n and _is_word(s[i + 4]):
            continue
        row.year = True
        break


cdef void _count_words(const char_t* low, Py_ssize_t n, Row* row, _WordSet stops, _WordSet words, _WordSet titles,
                       Py_ssize_t longest_stop) noexcept:
    """The words (``\\w+``) of a lower-cased text: how many, their letters, the stop words among them,
    the distinct ones of `titles` (added to `words` where given), and whether it holds "copyright"."""
    cdef Py_ssize_t i, start = 0, k
    cdef bint in_word = False
    cdef unsigned long long h = 0
    cdef WordRef w
    cdef const char* copyright = b"copyright"
    w.data, w.kind = low, sizeof(char_t)
    for i in range(n + 1):
        if i < n and _is_word(low[i]):
            if not in_word:
                in_word, start, h = True, i, STEMMER_FNV_OFFSET
            h = (h ^ <unsigned long long>low[i]) * STEMMER_FNV_PRIME
            continue
        if in_word:
            in_word = False
            row.nw += 1
            row.word_chars += i - start
            w.start, w.length, w.hash = start, i - start, h
            if i - start <= longest_stop and stops.contains(&w):
                row.stop += 1
            if words is not None and words.add(&w) and titles.contains(&w):
                row.common += 1
    if not row.copyright:
        for i in range(n - 8):
            k = 0
            while k < 9 and low[i + k] == <Py_UCS4>copyright[k]:
                k += 1
            if k == 9:
                row.copyright = True
                break


def text_stats(blocks, Py_ssize_t max_text, frozenset stop_words, Py_ssize_t longest_stop, set title_words,
               str title_sig):
    """The rows of `_text_stats` for these blocks."""
    cdef Py_ssize_t n_blocks = len(blocks), r, i, start, n, nw, word_chars, punct, digits, caps, tokens
    cdef Py_ssize_t cjk, bars, stop, common, n_low, n_chars, n_titles = len(title_words)
    cdef double[:, ::1] out
    cdef str text, low
    cdef Py_UCS4 c
    cdef unsigned char ch, cls, lc
    cdef bint in_word, in_token, copyright, ends, year, same
    cdef int kind
    cdef const void* data
    cdef const unsigned char* s
    cdef unsigned char* buf = NULL
    cdef unsigned long long h = 0
    cdef WordRef w
    cdef Row row
    cdef _WordSet stops = _WordSet(), titles = _WordSet(), words = _WordSet()
    cdef _WordSet seen_words = words if n_titles else None  # a block's distinct words, for the likeness to <title>
    cdef list texts = [b.text for b in blocks]
    cdef dict counts = {}
    cdef object seen
    for text in texts:
        seen = counts.get(text)
        counts[text] = 1 if seen is None else <Py_ssize_t>seen + 1
    stops.fill(stop_words)
    titles.fill(title_words)
    rows = np.zeros((n_blocks, 16), dtype=np.float64)
    out = rows
    buf = <unsigned char*>malloc(max_text + 1)
    if buf is NULL:
        raise MemoryError()
    try:
        for r in range(n_blocks):
            text = <str>texts[r]
            punct = digits = caps = tokens = cjk = bars = 0
            nw = word_chars = stop = common = 0
            in_token = in_word = False
            memset(&row, 0, sizeof(Row))
            if PyUnicode_IS_ASCII(text):
                # one pass over the bytes: the lower-cased text is written to `buf` as the words are read
                n = min(len(text), max_text)
                s = <const unsigned char*>PyUnicode_DATA(text)
                if n_titles:
                    words.reset(n // 2 + 1)
                w.data, w.kind = buf, 1
                for i in range(n + 1):
                    if i < n:
                        ch = s[i]
                        cls = _ASCII[ch]
                        lc = buf[i] = _LOWER[ch]
                        if cls & _SPACE:
                            in_token = False
                        else:
                            if not in_token:
                                in_token = True
                                tokens += 1
                                caps += (cls & _UPPER) != 0
                            digits += (cls & _DIGIT) != 0
                            punct += (cls & _PUNCT_C) != 0
                            bars += (cls & _BAR) != 0
                        if cls & _WORD_C:
                            if not in_word:
                                in_word, start, h = True, i, STEMMER_FNV_OFFSET
                            h = (h ^ <unsigned long long>lc) * STEMMER_FNV_PRIME
                            continue
                    if in_word:
                        in_word = False
                        nw += 1
                        word_chars += i - start
                        w.start, w.length, w.hash = start, i - start, h
                        if i - start <= longest_stop and stops.contains(&w):
                            stop += 1
                        if n_titles and words.add(&w) and titles.contains(&w):
                            common += 1
                copyright = _holds(buf, n, b"copyright", 9)
                i = n - 1
                while i >= 0 and _ASCII[s[i]] & _SPACE:
                    i -= 1
                ends = i >= 0 and (_ASCII[s[i]] & _END_C) != 0
                year = digits >= 4 and _has_year_ascii(s, n)  # a year is four digits
                same = bool(title_sig) and n >= len(title_sig) and _collapses_to(1, buf, n, title_sig)
            else:
                # the same by code point: the text's characters, then the lower-cased text's words
                if len(text) > max_text:
                    text = text[:max_text]
                low = text.lower()
                n, n_low = len(text), len(low)
                kind, data = PyUnicode_KIND(text), PyUnicode_DATA(text)
                if kind == 1:
                    _count_chars(<const Py_UCS1*>data, n, &row)
                elif kind == 2:
                    _count_chars(<const Py_UCS2*>data, n, &row)
                else:
                    _count_chars(<const Py_UCS4*>data, n, &row)
                if n_titles:
                    words.reset(n_low // 2 + 1)
                kind, data = PyUnicode_KIND(low), PyUnicode_DATA(low)
                if kind == 1:
                    _count_words(<const Py_UCS1*>data, n_low, &row, stops, seen_words, titles,
                                 longest_stop)
                elif kind == 2:
                    _count_words(<const Py_UCS2*>data, n_low, &row, stops, seen_words, titles,
                                 longest_stop)
                else:
                    _count_words(<const Py_UCS4*>data, n_low, &row, stops, seen_words, titles,
                                 longest_stop)
                punct, digits, caps, tokens, cjk, bars = row.punct, row.digits, row.caps, row.tokens, row.cjk, row.bars
                nw, word_chars, stop, common = row.nw, row.word_chars, row.stop, row.common
                copyright, ends, year = row.copyright, row.ends, row.year
                same = bool(title_sig) and n_low >= len(title_sig) and _collapses_to(kind, data, n_low, title_sig)
            n_chars = n if n > 1 else 1
            out[r, 0] = log1p(<double>blocks[r].weight)
            out[r, 1] = log1p(<double>nw)
            out[r, 2] = (<double>word_chars / nw) if nw else 0.0
            out[r, 3] = (punct if punct < 20 else 20) / 20.0
            out[r, 4] = <double>punct / n_chars
            out[r, 5] = 1.0 if ends else 0.0
            out[r, 6] = 1.0 if copyright else 0.0
            out[r, 7] = 1.0 if year else 0.0
            out[r, 8] = <double>digits / n_chars
            out[r, 9] = (<double>caps / (tokens if tokens > 1 else 1)) if nw else 0.0
            out[r, 10] = (<double>stop / nw) if nw else 0.0
            out[r, 11] = <double>cjk / n_chars
            out[r, 12] = (bars if bars < 10 else 10) / 10.0
            out[r, 13] = log(<double><Py_ssize_t>counts[texts[r]])
            out[r, 14] = (2.0 * common / (words.count + n_titles)) if common else 0.0
            out[r, 15] = 1.0 if same else 0.0
    finally:
        free(buf)
    return rows


# The words of `stemmer.classify.features._KIND_WORDS`: a value holding none names no comment or body.
cdef tuple _KIND_WORDS = (b"comment", b"disqus", b"respond", b"body", b"content", b"text", b"entry", b"inner")


cdef class Describer:
    """`stemmer.classify.features._describe` as a callable: (tag, class, id) -> ((tag, words), kind).

    The words of an ASCII class or id value (runs of two or more letters a-z once
    lower-cased) are cut here, and its kind is 0 unless it holds a word of `_KIND_WORDS`:
    then `kind_of` (features' Python, whose regexes decide it) gives it.  A value that is
    not ASCII goes to `entry` (its words and kind).  Answers per value are kept in `values`,
    the dict the Python path keeps them in.
    """

    cdef dict values
    cdef object entry, kind_of

    def __init__(self, dict values, entry, kind_of):
        self.values, self.entry, self.kind_of = values, entry, kind_of

    cdef tuple _value(self, str value):
        cdef tuple known = self.values.get(value)
        if known is None:
            if len(self.values) > 100_000:
                self.values.clear()
            known = self.values[value] = self._new_value(value)
        return known

    cdef tuple _new_value(self, str value):
        cdef Py_ssize_t n = len(value), i, start = -1
        cdef const char* data
        cdef char* low
        cdef unsigned char c
        cdef list words = []
        cdef bytes kind_word
        if not PyUnicode_IS_ASCII(value):
            return tuple(self.entry(value))
        data = <const char*>PyUnicode_DATA(value)
        low = <char*>malloc(n + 1)
        if low is NULL:
            raise MemoryError()
        try:
            for i in range(n + 1):
                c = <unsigned char>data[i] if i < n else 0
                if c == 0 and i < n:
                    return tuple(self.entry(value))  # a NUL inside would end the C string for strstr
                if 65 <= c <= 90:
                    c += 32
                low[i] = <char>c
                if 97 <= c <= 122:
                    if start < 0:
                        start = i
                elif start >= 0:
                    if i - start >= 2:
                        words.append(PyUnicode_DecodeASCII(low + start, i - start, NULL))
                    start = -1
            for kind_word in _KIND_WORDS:
                if strstr(low, kind_word) is not NULL:
                    return tuple(words), <int>self.kind_of(value)
        finally:
            free(low)
        return tuple(words), 0

    def __call__(self, str tag, cls, ident):
        cdef tuple cls_words = (), id_words = (), known
        cdef int cls_kind = 0, id_kind = 0, kind
        if cls:
            known = self._value(<str>cls)
            cls_words, cls_kind = known
        if ident:
            known = self._value(<str>ident)
            id_words, id_kind = known
        kind = 1 if cls_kind == 1 or id_kind == 1 else max(cls_kind, id_kind)
        return (tag, cls_words + id_words if id_words else cls_words), kind


cdef inline bint _says(tuple words, frozenset title_words):
    cdef object w
    for w in words:
        if w in title_words:
            return True
    return False


def title_blocks(tuple blocks, list ancestors, list elements, frozenset title_words, frozenset heading_tags):
    """`stemmer.classify.title._title_blocks` in C: the same loops, without the interpreter's cost per block."""
    cdef dict named = {}, tags = {}
    cdef list titled = []
    cdef Py_ssize_t i, n
    cdef tuple anc, path
    cdef object e, says, b, tag
    cdef str last
    for i in range(len(ancestors)):
        anc = <tuple>ancestors[i]
        n = len(anc)
        if n:
            e = anc[n - 1]
            says = named.get(e)
            if says is None:
                says = named[e] = (_says((<tuple>elements[e])[1], title_words)
                                   or (n > 1 and _says((<tuple>elements[anc[n - 2]])[1], title_words)))
            if says:
                titled.append(i)
    for i in range(len(blocks)):
        b = blocks[i]
        path = b.path
        if path:
            last = <str>path[len(path) - 1]
            if len(last) and PyUnicode_READ(PyUnicode_KIND(last), PyUnicode_DATA(last), 0) == 104:  # "h"
                tag = b.tag
                if tag in heading_tags:
                    tags[i] = tag
    return titled, tags


def context_columns(const double[::1] p, list ancestors, Py_ssize_t n_elements, const double[::1] log1p_of,
                    double[:, ::1] out):
    """`stemmer.classify.stacking.context_features`' columns of the neighbours and of the two nearest
    enclosing elements, written into `out`'s columns 0 to 12 (`log1p_of[c]` is numpy's log1p of c).

    The same sums in the same order as the numpy there (a group's probabilities added in block order).
    """
    cdef Py_ssize_t n = p.shape[0], i, k, d, depth, g, col
    cdef long long* group = <long long*>malloc(max(n, 1) * sizeof(long long))
    cdef long long* count = <long long*>malloc((n_elements + 1) * sizeof(long long))
    cdef double* total = <double*>malloc((n_elements + 1) * sizeof(double))
    cdef double* top = <double*>malloc((n_elements + 1) * sizeof(double))
    cdef tuple anc
    cdef long long e
    cdef tuple offsets = (-3, -2, -1, 1, 2, 3)
    try:
        if group is NULL or count is NULL or total is NULL or top is NULL:
            raise MemoryError()
        for i in range(n):
            out[i, 0] = p[i]
        for k in range(6):
            d = offsets[k]
            for i in range(n):
                out[i, 1 + k] = p[i + d] if 0 <= i + d < n else -1.0
        col = 7
        for depth in range(1, 3):
            for g in range(n_elements + 1):
                count[g], total[g], top[g] = 0, 0.0, -INFINITY
            for i in range(n):
                anc = <tuple>ancestors[i]
                if len(anc) >= depth:
                    e = <long long>(<object>anc[len(anc) - depth])
                    if e < 0 or e >= n_elements:
                        raise IndexError(f"element {e} of a block is not one of the page's {n_elements}")
                    g = e + 1
                else:
                    g = 0
                group[i] = g
                count[g] += 1
                total[g] += p[i]
                if p[i] > top[g]:
                    top[g] = p[i]
            for i in range(n):
                g = group[i]
                out[i, col] = total[g] / <double>count[g]
                out[i, col + 1] = top[g]
                out[i, col + 2] = log1p_of[count[g]]
            col += 3
    finally:
        free(group)
        free(count)
        free(total)
        free(top)


cdef inline bint _ends_with(str text, str marks):
    """``text.rstrip().endswith(tuple(marks))``."""
    cdef Py_ssize_t i = len(text) - 1, k
    cdef int kind = PyUnicode_KIND(text), marks_kind = PyUnicode_KIND(marks)
    cdef const void* data = PyUnicode_DATA(text)
    cdef const void* marks_data = PyUnicode_DATA(marks)
    cdef Py_UCS4 c
    while i >= 0 and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
        i -= 1
    if i < 0:
        return False
    c = PyUnicode_READ(kind, data, i)
    for k in range(len(marks)):
        if PyUnicode_READ(marks_kind, marks_data, k) == c:
            return True
    return False


def page_arrays(tuple blocks, list links, list images, list ancestors, list parent, str end_marks,
                double prose_letters, double main_keep, Py_ssize_t n_levels):
    """What `stemmer.classify.features._Stats` computes of a page with numpy, in one pass and the same numbers.

    Returns (weight, anchor, ends, good, per_block, depth, chain, rows, inner, sums, page_sums, main,
    levels, in_main, block_parent): every number a whole one or a 0/1, summed exactly in any order.
    """
    cdef Py_ssize_t n = len(blocks), n_el = len(parent), m = 0, r, j, k, c, e, p, node, seen
    cdef long w, a
    cdef double held, inside, keep
    cdef tuple anc
    for r in range(n):
        m += len(<tuple>ancestors[r])
    per_block_a = np.empty((n, 6), dtype=np.float64)
    ends_a, good_a, in_main_a = np.empty(n), np.empty(n), np.zeros(n)
    depth_a, inner_a, block_parent_a = (np.empty(n, dtype=np.int64) for _ in range(3))
    chain_a, rows_a = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
    sums_a = np.zeros((n_el + 1, 6), dtype=np.float64)
    levels_a = np.full((n, n_levels), -1, dtype=np.int64)
    cdef double[:, ::1] per_block = per_block_a, sums = sums_a
    cdef double[::1] ends = ends_a, good = good_a, in_main = in_main_a
    cdef long long[::1] depth = depth_a, inner = inner_a, block_parent = block_parent_a, chain = chain_a, rows = rows_a
    cdef long long[:, ::1] levels = levels_a
    cdef double[6] page
    cdef long long* best = <long long*>malloc((n_el + 1) * sizeof(long long))  # per element + 1, its able child
    if best is NULL:
        raise MemoryError()
    try:
        for c in range(6):
            page[c] = 0.0
        j = 0
        for r in range(n):
            b = blocks[r]
            w, a = b.weight, b.anchor_weight
            ends[r] = _ends_with(<str>b.text, end_marks)
            good[r] = w if (a * 3 <= w and (ends[r] or w >= prose_letters)) else 0.0
            per_block[r, 0], per_block[r, 1] = w, a
            per_block[r, 2], per_block[r, 3] = <long>links[r], <long>images[r]
            per_block[r, 4], per_block[r, 5] = 1.0, good[r]
            for c in range(6):
                page[c] += per_block[r, c]
            anc = <tuple>ancestors[r]
            k = len(anc)
            depth[r] = k
            if k == 0:
                inner[r], block_parent[r] = n_el, -1
                for c in range(6):
                    sums[n_el, c] += per_block[r, c]
                continue
            for e in range(k):
                chain[j + e] = <long long>(<object>anc[e])
                if chain[j + e] < 0 or chain[j + e] >= n_el:
                    raise IndexError(f"element {chain[j + e]} of a block is not one of the page's {n_el}")
                rows[j + e] = r
                for c in range(6):
                    sums[chain[j + e], c] += per_block[r, c]
            j += k
            inner[r] = block_parent[r] = chain[j - 1]
        # the main container: from the root down, the able child of the most good text
        main = -1
        if page[5] > 0:
            keep = main_keep * page[5]
            for e in range(n_el + 1):
                best[e] = -1
            for e in range(n_el):
                if sums[e, 5] < keep:
                    continue
                p = <long>parent[e]
                if best[p + 1] < 0 or sums[e, 5] > sums[best[p + 1], 5]:
                    best[p + 1] = e
            node = -1
            while best[node + 1] >= 0:
                node = best[node + 1]
            main = node
        # per block, the nearest `n_levels` enclosing elements holding more blocks than the one inside
        j = 0
        for r in range(n):
            k = depth[r]
            inside, seen = 1.0, 0
            for e in range(j + k - 1, j - 1, -1):
                held = sums[chain[e], 4]
                if held > inside:
                    if seen < n_levels:
                        levels[r, seen] = chain[e]
                    seen += 1
                inside = held
                if chain[e] == main:
                    in_main[r] = 1.0
            j += k
    finally:
        free(best)
    page_sums_a = np.array([page[c] for c in range(6)])
    return (per_block_a[:, 0].copy(), per_block_a[:, 1].copy(), ends_a, good_a, per_block_a, depth_a, chain_a,
            rows_a, inner_a, sums_a, page_sums_a, main, levels_a, in_main_a, block_parent_a)


def vocab_counts(list elements, columns_of, const long long[::1] chain, const long long[::1] rows,
                 const long long[::1] inner, Py_ssize_t n_blocks, Py_ssize_t k):
    """Per block, how many of its enclosing elements have each of `k` columns, and which its innermost has:
    two float32 arrays (blocks, k), as `stemmer.classify.features._Stats.per_block` gives them.

    `columns_of(element)` gives an element's columns (a tuple of ints below `k`), asked once a page
    for each element that holds a block; `chain`, `rows`, `inner` as `page_arrays` gives them.
    """
    cdef Py_ssize_t n_el = len(elements), j, r, e, i, c, used = 0, size = 64
    cdef tuple cols
    counts_a = np.zeros((n_blocks, k), dtype=np.float32)
    own_a = np.zeros((n_blocks, k), dtype=np.float32)
    cdef float[:, ::1] counts = counts_a, own = own_a
    # per element, where its columns start in `flat` (-1: not asked yet) and how many
    cdef Py_ssize_t* start = <Py_ssize_t*>malloc((n_el + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* count = <Py_ssize_t*>malloc((n_el + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* flat = <Py_ssize_t*>malloc(size * sizeof(Py_ssize_t))
    cdef Py_ssize_t* grown
    try:
        if start is NULL or count is NULL or flat is NULL:
            raise MemoryError()
        for e in range(n_el):
            start[e] = -1
        for j in range(chain.shape[0]):
            e = chain[j]
            if e < 0 or e >= n_el:
                raise IndexError(f"element {e} of a block is not one of the page's {n_el}")
            if start[e] < 0:
                cols = <tuple>columns_of(elements[e])
                if used + len(cols) > size:
                    size = 2 * (used + len(cols))
                    grown = <Py_ssize_t*>realloc(flat, size * sizeof(Py_ssize_t))
                    if grown is NULL:
                        raise MemoryError()
                    flat = grown
                for i in range(len(cols)):
                    c = <Py_ssize_t>(<object>cols[i])
                    if c < 0 or c >= k:
                        raise IndexError(f"column {c} is not one of {k}")
                    flat[used + i] = c
                start[e], count[e] = used, len(cols)
                used += len(cols)
            r = rows[j]
            for i in range(start[e], start[e] + count[e]):
                counts[r, flat[i]] += 1
        for r in range(n_blocks):
            e = inner[r]
            if e < n_el:
                for i in range(start[e], start[e] + count[e]):
                    own[r, flat[i]] = 1
    finally:
        free(start)
        free(count)
        free(flat)
    return counts_a, own_a


def ratio_columns(const double[:, ::1] per_block, const double[:, ::1] sums, const double[::1] page,
                  const long long[:, ::1] levels, const double[::1] in_main, long long main,
                  const double[::1] log1p_of):
    """`stemmer.classify.features._Stats.ratios`, row by row (`log1p_of[c]`: numpy's log1p of c)."""
    cdef Py_ssize_t n = per_block.shape[0], n_levels = levels.shape[1], r, lv, c
    cdef long long e
    cdef const double* s
    out_a = np.empty((n, 8 * (n_levels + 1)))
    cdef double[:, ::1] out = out_a
    for r in range(n):
        for lv in range(n_levels + 1):
            e = levels[r, lv - 1] if lv > 0 else -1
            s = &per_block[r, 0] if lv == 0 else (&sums[e, 0] if e >= 0 else &page[0])
            c = 8 * lv
            out[r, c] = s[0] / (page[0] + 1)
            out[r, c + 1] = s[1] / (page[1] + 1)
            out[r, c + 2] = s[2] / (page[2] + 1)
            out[r, c + 3] = s[3] / (page[3] + 1)
            out[r, c + 4] = s[1] / (s[0] + 1)
            out[r, c + 5] = log1p_of[<Py_ssize_t>s[4]]
            out[r, c + 6] = s[5] / (page[5] + 1)
            out[r, c + 7] = in_main[r] if lv == 0 else (1.0 if e == main and main >= 0 else 0.0)
    return out_a


def neighbour_columns(const double[::1] log_weight, const double[::1] weight, const double[::1] anchor,
                      const double[::1] ends, const double[::1] good, const long long[::1] parent):
    """`stemmer.classify.features._Stats.neighbours`, row by row (`log_weight`: numpy's log1p of `weight`)."""
    cdef Py_ssize_t n = weight.shape[0], r, k, d, q
    cdef int[4] offsets = [-2, -1, 1, 2]
    out_a = np.zeros((n, 20))
    cdef double[:, ::1] out = out_a
    for r in range(n):
        for k in range(4):
            q = r + offsets[k]
            if q < 0 or q >= n:
                continue
            out[r, 5 * k] = log_weight[q]
            out[r, 5 * k + 1] = anchor[q] / (weight[q] + 1)
            out[r, 5 * k + 2] = ends[q]
            out[r, 5 * k + 3] = 1.0 if parent[r] == parent[q] else 0.0
            out[r, 5 * k + 4] = good[q] / (weight[q] + 1)
    return out_a
