# cython: boundscheck=False, wraparound=False, cdivision=True
"""A page's own stylesheet read in one pass in C: the compiled twins of `stemmer.blocks.parse._may_hide_pop_up`
and `stemmer.blocks.parse._declaration_rules` (a big site's stylesheets are tens of KB a page).

Both read the text case-blind in ASCII, as the Python twins read its `_lower_case` copy: only for a text
without `stemmer.blocks.block.CASE_TRAPS`, whose scans the caller leaves to the Python twins.
``\\s`` and ``\\w`` are the regexes' (`Py_UNICODE_ISSPACE`, `Py_UNICODE_ISALNUM` and ``_``).
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, strlen

cdef extern from "Python.h":
    int PY_LITTLE_ENDIAN
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    bint Py_UNICODE_ISSPACE(uint32_t c) nogil
    bint Py_UNICODE_ISALNUM(uint32_t c) nogil

# a text's code points as its str holds them: one, two or four bytes each
ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t

# `_POP_UP_WORDS`, lower-case
cdef const char* _WORDS[17]
_WORDS[:] = [b"modal", b"dialog", b"popup", b"pop-up", b"overlay", b"lightbox", b"cookie", b"consent", b"gdpr",
             b"login", b"signin", b"sign-in", b"register", b"newsletter", b"subscribe", b"paywall", b"interstitial"]
cdef enum:
    NONE = 0
    HIDES = 1
    SHOWS = 2
# What the scans stop at: the braces, and the first letters of the declarations (d, v) in either case
cdef bint _STOPS[128]
for _c in (123, 125, 100, 68, 118, 86):  # { } d D v V
    _STOPS[_c] = True


cdef inline uint64_t _zero_bytes(uint64_t w) noexcept nogil:
    """The high bit of each of the eight bytes in `w` that is zero, and no other bit."""
    return ~(((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w | 0x7F7F7F7F7F7F7F7FULL)


cdef inline Py_ssize_t _next_stop(const char_t* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """The first i on from `i` where s[i] is a brace or may start a declaration (a d or v, then an i: not
    most d's of base64 data), else `n`; eight characters at a time where they are bytes."""
    cdef uint64_t w, low, starts
    while True:
        if char_t is uint8_t:
            while i + 8 <= n:
                memcpy(&w, s + i, 8)
                low = w | 0x2020202020202020ULL  # a letter's lower case; no other byte becomes d, v or i
                starts = _zero_bytes(low ^ 0x6464646464646464ULL) | _zero_bytes(low ^ 0x7676767676767676ULL)
                if PY_LITTLE_ENDIAN:  # a d or v followed by an i (the last byte's next is in the next word)
                    starts &= (_zero_bytes(low ^ 0x6969696969696969ULL) >> 8) | 0x8000000000000000ULL
                if starts | _zero_bytes(w ^ 0x7B7B7B7B7B7B7B7BULL) | _zero_bytes(w ^ 0x7D7D7D7D7D7D7D7DULL):
                    break
                i += 8
        if i >= n:
            return n
        if s[i] < 128 and _STOPS[s[i]] and (s[i] == 123 or s[i] == 125 or (i + 1 < n and (s[i + 1] | 0x20) == 105)):
            return i
        i += 1


cdef inline bint _is(uint32_t c, char want) noexcept nogil:
    """Whether `c` is the lower-case ASCII letter `want` or its upper case (or `want` itself, not a letter)."""
    return c == <uint32_t>want or (97 <= want <= 122 and c == <uint32_t>(want - 32))


cdef inline bint _word_at(const char_t* s, Py_ssize_t i, Py_ssize_t end, const char* word) noexcept nogil:
    """Whether `word` (lower case) is at s[i:], case-blind, ending by `end`."""
    cdef Py_ssize_t k = 0
    while word[k]:
        if i + k >= end or not _is(s[i + k], word[k]):
            return False
        k += 1
    return True


cdef inline Py_ssize_t _spaces(const char_t* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    while i < n and Py_UNICODE_ISSPACE(s[i]):
        i += 1
    return i


cdef inline Py_ssize_t _value_at(const char_t* s, Py_ssize_t i, Py_ssize_t n, const char* name) noexcept nogil:
    """Where the value starts of the declaration of property `name` (lower case) at s[i], as the
    regex ``NAME\\s*:\\s*`` reads it: after the colon and the spaces around it; -1 where none is there."""
    if not _word_at(s, i, n, name):
        return -1
    i = _spaces(s, i + <Py_ssize_t>strlen(name), n)
    if i >= n or s[i] != 58:
        return -1
    return _spaces(s, i + 1, n)


cdef int _display(const char_t* s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t* end) noexcept nogil:
    """The regex ``display\\s*:\\s*(?:(none)|[a-z])`` at s[i]: HIDES (group 1), SHOWS or NONE; `end` after it."""
    i = _value_at(s, i, n, b"display")
    if i < 0:
        return NONE
    if _word_at(s, i, n, b"none"):
        end[0] = i + 4
        return HIDES
    if i < n and s[i] < 128 and 97 <= (s[i] | 0x20) <= 122:
        end[0] = i + 1
        return SHOWS
    return NONE


cdef int _visibility(const char_t* s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t* end) noexcept nogil:
    """The regex ``visibility\\s*:\\s*(?:(hidden)|visible)`` at s[i]: HIDES (group 1), SHOWS or NONE; `end` after it."""
    i = _value_at(s, i, n, b"visibility")
    if i < 0:
        return NONE
    if _word_at(s, i, n, b"hidden"):
        end[0] = i + 6
        return HIDES
    if _word_at(s, i, n, b"visible"):
        end[0] = i + 7
        return SHOWS
    return NONE


cdef inline int _declaration(const char_t* s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t* display_from,
                             Py_ssize_t* visibility_from) noexcept nogil:
    """The declaration that starts at s[i] (a d or v) as each property's regex, scanning on from where its last
    match ended (`display_from`, `visibility_from`, moved on past a match), finds it: HIDES, SHOWS or NONE."""
    cdef Py_ssize_t end = 0
    cdef int found = NONE
    if (s[i] | 0x20) == 100:
        if i >= display_from[0]:
            found = _display(s, i, n, &end)
            if found != NONE:
                display_from[0] = end
    elif i >= visibility_from[0]:
        found = _visibility(s, i, n, &end)
        if found != NONE:
            visibility_from[0] = end
    return found


cdef bint _names_pop_up(const char_t* s, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """Whether the regex ``[.#][\\w-]*(?:POP-UP WORDS)`` finds a match in s[start:end]: a ``.`` or ``#`` whose
    run of ``[\\w-]`` holds a word (the words are of ``[a-z-]``)."""
    cdef Py_ssize_t i = start, run, j
    cdef uint32_t c
    cdef int w
    while i < end:
        c = s[i]
        i += 1
        if c != 46 and c != 35:
            continue
        run = i
        while run < end and (s[run] == 45 or s[run] == 95 or Py_UNICODE_ISALNUM(s[run])):
            run += 1
        for j in range(i, run):
            for w in range(17):
                if _word_at(s, j, run, _WORDS[w]):
                    return True
        i = run
    return False


cdef bint _may_hide(const char_t* s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = -1, last = -1, before = -1, display_from = 0, visibility_from = 0
    cdef bint last_opens = False
    cdef uint32_t c
    while True:
        i = _next_stop(s, i + 1, n)
        if i >= n:
            break
        c = s[i]
        if c == 123 or c == 125:
            before, last, last_opens = last, i, c == 123
        elif (_declaration(s, i, n, &display_from, &visibility_from) == HIDES and last_opens
                and _names_pop_up(s, before + 1, last)):
            return True
    return False


cdef list _rules(const char_t* s, Py_ssize_t n):
    cdef Py_ssize_t i = -1, last = -1, before = -1, depth = 0, display_from = 0, visibility_from = 0
    cdef bint last_opens = False, top = False, hides = False, shows = False
    cdef int found
    cdef uint32_t c
    rules = []
    while True:
        i = _next_stop(s, i + 1, n)
        if i >= n:
            break
        c = s[i]
        if c == 123 or c == 125:
            if c == 125 and last_opens and (hides or shows):
                rules.append((before + 1, last, i, top, hides, shows))
            hides = shows = False
            if c == 123:
                top = depth == 0  # after the brace before
                depth += 1
            elif depth > 0:  # a `}` with no rule open closes nothing
                depth -= 1
            before, last, last_opens = last, i, c == 123
        else:
            found = _declaration(s, i, n, &display_from, &visibility_from)
            hides |= found == HIDES and last_opens
            shows |= found == SHOWS and last_opens
    return rules


def may_hide_pop_up(str css) -> bool:
    """`stemmer.blocks.parse._may_hide_pop_up(css, _lower_case(css))`, for a `css` without CASE_TRAPS: whether a
    declaration that hides follows a ``{`` whose selector (from the brace before it) names a pop-up."""
    cdef int kind = PyUnicode_KIND(css)
    cdef void* data = PyUnicode_DATA(css)
    if kind == 1:
        return _may_hide(<const uint8_t*>data, len(css))
    if kind == 2:
        return _may_hide(<const uint16_t*>data, len(css))
    return _may_hide(<const uint32_t*>data, len(css))


def declaration_rules(str css) -> list:
    """`stemmer.blocks.parse._declaration_rules(css, _lower_case(css))`, for a `css` without CASE_TRAPS."""
    cdef int kind = PyUnicode_KIND(css)
    cdef void* data = PyUnicode_DATA(css)
    if kind == 1:
        return _rules(<const uint8_t*>data, len(css))
    if kind == 2:
        return _rules(<const uint16_t*>data, len(css))
    return _rules(<const uint32_t*>data, len(css))
