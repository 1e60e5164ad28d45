# cython: boundscheck=False, wraparound=False, cdivision=True
"""Pages' UTF-8 bytes read without building their text, which parse_html would encode again: the compiled
twins of `stemmer.pages.jsonl._html_utf8_python` (a JSON line's ``"html"`` string straight into UTF-8
bytes), of `stemmer.pages.decode._valid_utf8_python` and of `stemmer.pages.decode._chars_end_python`."""
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.object cimport PyObject
from cpython.ref cimport Py_XDECREF
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

cdef extern from "Python.h":
    PyObject* _new_bytes "PyBytes_FromStringAndSize"(const char*, Py_ssize_t) except NULL
    int _PyBytes_Resize(PyObject**, Py_ssize_t) except -1

cdef extern from *:
    """
    /* The index of the first of eight bytes whose high bit is set in `high` (nonzero), where the
       compiler counts trailing zeros and the bytes are little-endian; -1 where not. */
    static inline int stemmer_first_high_byte(unsigned long long high) {
    #if defined(__GNUC__) && PY_LITTLE_ENDIAN
        return __builtin_ctzll(high) >> 3;
    #else
        (void)high;
        return -1;
    #endif
    }
    """
    int _first_high_byte "stemmer_first_high_byte"(uint64_t high) noexcept nogil

cdef extern from *:
    """
    /* How many bits of `bits` are set. */
    static inline int stemmer_bit_count(unsigned long long bits) {
    #if defined(__GNUC__)
        return __builtin_popcountll(bits);
    #else
        int n = 0;
        for (; bits; bits &= bits - 1) n++;
        return n;
    #endif
    }
    """
    int _bit_count "stemmer_bit_count"(uint64_t bits) noexcept nogil


cdef inline uint64_t _special(uint64_t w) noexcept nogil:
    """Nonzero where one of the eight bytes in `w` is a quote, a backslash, a control character or not
    ASCII, else 0 (the borrows of the subtractions start only at such a byte)."""
    cdef uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL
    cdef uint64_t quote = w ^ 0x2222222222222222ULL, backslash = w ^ 0x5C5C5C5C5C5C5C5CULL
    return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((w - 0x2020202020202020ULL) & ~w)
            | w) & highs


cdef inline Py_ssize_t _ws(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    while i < n and (s[i] == 32 or s[i] == 9 or s[i] == 10 or s[i] == 13):
        i += 1
    return i


cdef inline Py_ssize_t _string_end(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """After the closing quote of the string opening at s[i]; -1 where it does not close."""
    i += 1
    while i < n:
        if s[i] == 34:
            return i + 1
        if s[i] == 92:
            i += 1
        i += 1
    return -1


cdef Py_ssize_t _value_end(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """After the value starting at s[i] (its brackets matched, strings skipped); -1 where it does not end."""
    cdef Py_ssize_t depth = 0
    cdef unsigned char c
    while i < n:
        c = s[i]
        if c == 34:
            i = _string_end(s, i, n)
            if i < 0:
                return -1
            if depth == 0:
                return i
            continue
        if c == 123 or c == 91:
            depth += 1
        elif c == 125 or c == 93:
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and (c == 44 or c == 32 or c == 9 or c == 10 or c == 13):
            return i
        i += 1
    return -1


cdef inline int _hex(unsigned char c) noexcept nogil:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


cdef inline long _u4(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """The code unit of the four hex digits at s[i]; -1 where they are not that."""
    cdef long u = 0
    cdef int d
    cdef Py_ssize_t k
    if i + 4 > n:
        return -1
    for k in range(i, i + 4):
        d = _hex(s[k])
        if d < 0:
            return -1
        u = u * 16 + d
    return u


cdef inline Py_ssize_t _utf8_length(const unsigned char* s, Py_ssize_t i, Py_ssize_t n,
                                    bint surrogates) noexcept nogil:
    """The length of the UTF-8 character at s[i] (a byte >= 0x80), surrogates allowed or not; 0 where
    it is not one."""
    cdef unsigned char c = s[i], lo = 0x80, hi = 0xBF
    cdef Py_ssize_t length, k
    if 0xC2 <= c <= 0xDF:
        length = 2
    elif 0xE0 <= c <= 0xEF:
        length = 3
        if c == 0xE0:
            lo = 0xA0
        elif c == 0xED and not surrogates:
            hi = 0x9F
    elif 0xF0 <= c <= 0xF4:
        length = 4
        if c == 0xF0:
            lo = 0x90
        elif c == 0xF4:
            hi = 0x8F
    else:
        return 0
    if i + length > n or not (lo <= s[i + 1] <= hi):
        return 0
    for k in range(i + 2, i + length):
        if not (0x80 <= s[k] <= 0xBF):
            return 0
    return length


cdef inline Py_ssize_t _put(unsigned char* out, Py_ssize_t o, long c) noexcept nogil:
    if c < 0x80:
        out[o] = <unsigned char>c
        return o + 1
    if c < 0x800:
        out[o] = <unsigned char>(0xC0 | (c >> 6))
        out[o + 1] = <unsigned char>(0x80 | (c & 0x3F))
        return o + 2
    if c < 0x10000:
        out[o] = <unsigned char>(0xE0 | (c >> 12))
        out[o + 1] = <unsigned char>(0x80 | ((c >> 6) & 0x3F))
        out[o + 2] = <unsigned char>(0x80 | (c & 0x3F))
        return o + 3
    out[o] = <unsigned char>(0xF0 | (c >> 18))
    out[o + 1] = <unsigned char>(0x80 | ((c >> 12) & 0x3F))
    out[o + 2] = <unsigned char>(0x80 | ((c >> 6) & 0x3F))
    out[o + 3] = <unsigned char>(0x80 | (c & 0x3F))
    return o + 4


cdef Py_ssize_t _unescape(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, unsigned char* out,
                          Py_ssize_t* end) noexcept nogil:
    """The JSON string content from s[i] to its closing quote written to `out` as UTF-8 without NULs,
    and `end` set to the quote's index: the length written, -1 where json.loads refuses the content
    (a control character, a bad escape, bytes not UTF-8) or the string does not close."""
    cdef Py_ssize_t o = 0, length, k
    cdef unsigned char c
    cdef long u, low
    cdef uint64_t word, special
    while i < n:
        while i + 8 <= n:  # eight plain bytes at a time (SWAR), up to the first that is not plain
            memcpy(&word, s + i, 8)
            special = _special(word)
            if special:  # the plain bytes before the first that is not (at most `n - start` bytes written)
                k = _first_high_byte(special)
                if k >= 0:
                    memcpy(out + o, s + i, 8)
                    o += k
                    i += k
                else:  # one by one, on any byte order
                    while 0x20 <= s[i] < 0x80 and s[i] != 92 and s[i] != 34:
                        out[o] = s[i]
                        o += 1
                        i += 1
                break
            memcpy(out + o, s + i, 8)
            o += 8
            i += 8
        if i >= n:
            break
        c = s[i]
        if 0x20 <= c < 0x80 and c != 92 and c != 34:
            out[o] = c
            o += 1
            i += 1
            continue
        if c == 34:
            end[0] = i
            return o
        if c < 0x20:
            return -1
        if c >= 0x80:
            length = _utf8_length(s, i, n, True)  # json.loads decodes a line's bytes with "surrogatepass"
            if length == 0:
                return -1
            for k in range(length):
                out[o + k] = s[i + k]
            o += length
            i += length
            continue
        if i + 1 >= n:
            return -1
        c = s[i + 1]
        i += 2
        if c == 34 or c == 92 or c == 47:
            out[o] = c
        elif c == 98:
            out[o] = 8
        elif c == 102:
            out[o] = 12
        elif c == 110:
            out[o] = 10
        elif c == 114:
            out[o] = 13
        elif c == 116:
            out[o] = 9
        elif c == 117:
            u = _u4(s, i, n)
            if u < 0:
                return -1
            i += 4
            if 0xD800 <= u <= 0xDBFF and i + 1 < n and s[i] == 92 and s[i + 1] == 117:
                low = _u4(s, i + 2, n)
                if low < 0:
                    return -1
                if 0xDC00 <= low <= 0xDFFF:
                    u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
            if u != 0:  # NULs dropped, as drop_nuls drops them
                o = _put(out, o, u)
            continue
        else:
            return -1
        o += 1
    return -1


def html_utf8(bytes line):
    """(the UTF-8 bytes, start, end) of the line's one top-level ``"html"`` string, whose content is
    ``line[start:end]``; None where the line is not plainly an object holding one such string, or
    json.loads would refuse that string (the caller then reads the line as before)."""
    cdef const unsigned char* s = <const unsigned char*>PyBytes_AS_STRING(line)
    cdef Py_ssize_t n = len(line), i, k, key_end, start = -1, stop = -1, length = 0
    cdef bint is_html
    cdef PyObject* out = NULL
    i = _ws(s, 0, n)
    if i >= n or s[i] != 123:
        return None
    i = _ws(s, i + 1, n)
    try:
        while True:
            if i >= n or s[i] != 34:
                return None
            key_end = _string_end(s, i, n)
            if key_end < 0:
                return None
            is_html = key_end - i == 6 and s[i + 1] == 104 and s[i + 2] == 116 and s[i + 3] == 109 and s[i + 4] == 108
            for k in range(i + 1, key_end - 1):
                if s[k] == 92:
                    return None
            i = _ws(s, key_end, n)
            if i >= n or s[i] != 58:
                return None
            i = _ws(s, i + 1, n)
            if is_html:
                if out is not NULL or i >= n or s[i] != 34:
                    return None
                start = i + 1
                out = _new_bytes(NULL, n - start)  # what the content holds at most
                length = _unescape(s, start, n, <unsigned char*>PyBytes_AS_STRING(<object>out), &stop)
                if length < 0:
                    return None
                i = stop + 1
            else:
                i = _value_end(s, i, n)
                if i < 0:
                    return None
            i = _ws(s, i, n)
            if i < n and s[i] == 44:
                i = _ws(s, i + 1, n)
                continue
            if i < n and s[i] == 125:
                break
            return None
        if out is NULL:
            return None
        _PyBytes_Resize(&out, length)
        return <object>out, start, stop
    finally:
        Py_XDECREF(out)


def valid_utf8(bytes data):
    """Whether `data` decodes as strict UTF-8 (``data.decode("utf-8")`` does not raise)."""
    cdef const unsigned char* s = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = len(data), i = 0, length
    cdef uint64_t word
    while i < n:
        while i + 8 <= n:
            memcpy(&word, s + i, 8)
            if word & 0x8080808080808080ULL:
                break
            i += 8
        if i >= n:
            break
        if s[i] < 0x80:
            i += 1
            continue
        length = _utf8_length(s, i, n, False)
        if length == 0:
            return False
        i += length
    return True


def chars_end(bytes data, Py_ssize_t count):
    """The length of the bytes that encode the first `count` characters of the UTF-8 bytes `data` (lone
    surrogates as "surrogatepass" writes them): a character starts at each byte that does not continue one
    (10xxxxxx), counted eight bytes at a time up to the word that holds the character after the last."""
    cdef const unsigned char* s = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = len(data), i = 0, chars = 0, starts
    cdef uint64_t word
    while i + 8 <= n:
        memcpy(&word, s + i, 8)
        starts = 8 - _bit_count(word & ~(word << 1) & 0x8080808080808080ULL)  # less the continuing bytes
        if chars + starts > count:
            break
        chars += starts
        i += 8
    while i < n:
        if (s[i] & 0xC0) != 0x80:
            if chars == count:
                return i
            chars += 1
        i += 1
    return n
