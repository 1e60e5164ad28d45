# cython: language_level=3
"""The block walker of `stemmer.blocks.walk`, compiled: it reads lxml's libxml2 nodes directly.

It visits the nodes `etree.iterwalk` visits, reads text, tails and attributes
as lxml's `.text`, `.tail`, `.get()` and `.itertext()` do, and applies the same
rules (`stemmer.blocks.block`), so it cuts the same blocks byte for byte,
without an lxml proxy object per element.  Built where the install has a C
compiler (setup.py); `stemmer.blocks.segment` falls back to the Python walker.
"""
from cpython.unicode cimport (Py_UNICODE_ISALNUM, Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE, PyUnicode_4BYTE_KIND, PyUnicode_DecodeASCII,
                              PyUnicode_DecodeUTF8, PyUnicode_FromKindAndData)
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.stdint cimport uint64_t
from libc.string cimport memchr, memcmp, memcpy, strchr, strcmp, strlen, strstr

from lxml.includes cimport tree
from lxml.includes.tree cimport const_xmlChar, xmlAttr, xmlNode
cimport lxml.includes.etreepublic as cetree

cdef extern from "Python.h":
    const void* PyUnicode_DATA(object text)  # a str's characters (one byte each in an ASCII str)
    ctypedef struct PyObject
    ctypedef struct PyTypeObject
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyType_GenericAlloc(object cls, Py_ssize_t n)

from stemmer.blocks.block import (BLOCK_TAGS, CHOP_TAGS, CJK_WEIGHT, SKIP_TAGS, Block, block_text, encode, is_hidden,
                                  is_permalink, is_screen_reader_only)

import dataclasses
import types

cetree.import_lxml__etree()

# `Block(path, text, weight, anchor_weight)` runs the dataclass's __init__ in Python, a sixth of a
# walk: `_new_block` writes the four slots of a new Block in C instead, where Block is the slots
# dataclass it is written as (else it calls Block).
cdef Py_ssize_t _BLOCK_SLOTS[4]
cdef bint _BLOCK_IN_C = False


def _block_slots() -> bool:
    if ([f.name for f in dataclasses.fields(Block)] != ["path", "text", "weight", "anchor_weight"]
            or hasattr(Block, "__post_init__") or Block.__new__ is not object.__new__):
        return False
    for i, name in enumerate(("path", "text", "weight", "anchor_weight")):
        slot = Block.__dict__.get(name)
        if type(slot) is not types.MemberDescriptorType or (<PyMemberDescrObject*>slot).d_member.type != 16:
            return False  # 16: T_OBJECT_EX, a slot that holds an object
        _BLOCK_SLOTS[i] = (<PyMemberDescrObject*>slot).d_member.offset
    return True


_BLOCK_IN_C = _block_slots()
BLOCKS_IN_C = _BLOCK_IN_C  # for the tests: Block changed shape where this is False


cdef inline void _set_slot(object obj, Py_ssize_t offset, object value):
    Py_INCREF(value)
    (<PyObject**>((<char*><PyObject*>obj) + offset))[0] = <PyObject*>value


cdef object _new_block(tuple path, str text, object weight, object anchor_weight):
    """`Block(path, text, weight, anchor_weight)`."""
    if not _BLOCK_IN_C:
        return Block(path, text, weight, anchor_weight)
    block = PyType_GenericAlloc(Block, 0)  # zeroed: no slot holds a value to release
    _set_slot(block, _BLOCK_SLOTS[0], path)
    _set_slot(block, _BLOCK_SLOTS[1], text)
    _set_slot(block, _BLOCK_SLOTS[2], weight)
    _set_slot(block, _BLOCK_SLOTS[3], anchor_weight)
    return block

cdef enum Kind:
    INLINE = 0
    BLOCK = 1
    CHOP = 2
    SKIP = 3
    ANCHOR = 4

# The tags with a kind, and the commonest inline ones (their `_tag` is then one str, whose
# hash is kept: the page table's memo looks each element up by it), found in C by a small
# hash (first letter, length) and one strcmp; the names are kept alive by _NAMES, the tags as str by _TAGS.
_INLINE_TAGS = ("html span img strong em b i u s small sup sub label font abbr cite code time mark strike big tt q "
                "var kbd samp picture source wbr nobr ins del dfn").split()
_KINDS = [(t.encode(), BLOCK) for t in BLOCK_TAGS] + [(t.encode(), CHOP) for t in CHOP_TAGS] \
    + [(t.encode(), SKIP) for t in SKIP_TAGS] + [(b"a", ANCHOR)] + [(t.encode(), INLINE) for t in _INLINE_TAGS]
cdef list _NAMES = [name for name, _ in _KINDS]
cdef tuple _TAGS = tuple(name.decode() for name, _ in _KINDS)
cdef const char* _NAME_PTRS[128]
cdef int _KIND_OF[128]
cdef int _NEXT[128]  # the next tag in the same bucket, or -1
cdef int _BUCKET[512]  # the first tag of each bucket, or -1
assert len(_KINDS) <= 128


cdef inline int _bucket(const char* name) noexcept nogil:
    cdef size_t n = strlen(name)
    return ((<unsigned char>name[0] & 31) << 4) | (n if n < 15 else 15)


for _i in range(512):
    _BUCKET[_i] = -1
for _i, (_, _k) in enumerate(_KINDS):
    _NAME_PTRS[_i] = <const char*>(<bytes>_NAMES[_i])
    _KIND_OF[_i] = _k
    _NEXT[_i] = _BUCKET[_bucket(_NAME_PTRS[_i])]
    _BUCKET[_bucket(_NAME_PTRS[_i])] = _i


cdef inline int _find(const char* name) noexcept nogil:
    """The index of `name` among the tags of `_KINDS`, or -1."""
    cdef int i = _BUCKET[_bucket(name)]
    while i >= 0 and strcmp(name, _NAME_PTRS[i]) != 0:
        i = _NEXT[i]
    return i


cdef inline int _kind(xmlNode* node) noexcept nogil:
    """What the element does to the block being read; an entity reference is skipped."""
    cdef int i
    if node.type != tree.XML_ELEMENT_NODE:
        return SKIP
    if node.ns is not NULL and node.ns.href is not NULL:
        return INLINE  # "{namespace}tag": no tag of ours
    i = _find(<const char*>node.name)
    return _KIND_OF[i] if i >= 0 else INLINE


cdef inline str _utf8(const_xmlChar* s):
    return PyUnicode_DecodeUTF8(<const char*>s, strlen(<const char*>s), NULL)


cdef str _tag(xmlNode* node):
    """lxml's `.tag` of an element."""
    cdef int i
    if node.ns is not NULL and node.ns.href is not NULL:
        return "{" + _utf8(node.ns.href) + "}" + _utf8(node.name)
    i = _find(<const char*>node.name)
    return _TAGS[i] if i >= 0 else _utf8(node.name)


cdef inline bint _is_text(xmlNode* node) noexcept nogil:
    return node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE


cdef inline xmlNode* _text_or_skip(xmlNode* node) noexcept nogil:
    """lxml's _textNodeOrSkip: the node if it is text, past XInclude markers; NULL at anything else."""
    while node is not NULL:
        if _is_text(node):
            return node
        if node.type == tree.XML_XINCLUDE_START or node.type == tree.XML_XINCLUDE_END:
            node = node.next
        else:
            return NULL
    return NULL


cdef object _collect(xmlNode* node):
    """lxml's _collectText: the run of text nodes from `node` (`.text` of a parent, `.tail` of a sibling), or None."""
    cdef xmlNode* first = _text_or_skip(node)
    cdef xmlNode* cur = first
    cdef const_xmlChar* text = NULL
    cdef int count = 0
    cdef bytes joined
    while cur is not NULL:
        if cur.content[0] != 0:
            text = cur.content
        count += 1
        cur = _text_or_skip(cur.next)
    if text is NULL:
        return "" if count > 0 else None
    if count == 1:
        return _utf8(text)
    joined = b""
    cur = first
    while cur is not NULL:
        joined += <bytes>(<const char*>cur.content)
        cur = _text_or_skip(cur.next)
    return joined.decode("UTF-8")


cdef object _attr(xmlNode* node, const char* name):
    """lxml's `.get(name)` for an attribute without namespace: its value, or None.

    libxml2's own functions are not linked (lxml carries them inside itself), so
    a value of several nodes is joined here: the HTML parser makes one text node.
    """
    cdef xmlAttr* attr = node.properties
    cdef xmlNode* value
    cdef bytes joined
    while attr is not NULL:
        if attr.ns is NULL and strcmp(<const char*>attr.name, name) == 0:
            value = attr.children
            if value is NULL:
                return ""
            if value.next is NULL and _is_text(value):
                return _utf8(value.content)
            joined = b""
            while value is not NULL:
                if _is_text(value):
                    joined += <bytes>(<const char*>value.content)
                value = value.next
            return joined.decode("UTF-8")
        attr = attr.next
    return None


cdef xmlNode* _one_text(xmlNode* node, const char* name, bint* present) noexcept nogil:
    """The attribute `name` (no namespace) of `node` where its value is one text node (as the HTML
    parser makes it), else NULL; `present`: whether `node` has the attribute."""
    cdef xmlAttr* attr = node.properties
    while attr is not NULL:
        if attr.ns is NULL and strcmp(<const char*>attr.name, name) == 0:
            present[0] = True
            if attr.children is not NULL and attr.children.next is NULL and _is_text(attr.children):
                return attr.children
            return NULL
        attr = attr.next
    present[0] = False
    return NULL


cdef inline bint _walked(xmlNode* node) noexcept nogil:
    """Whether iterwalk (events start and end) stops at the node: elements and entity references."""
    return node.type == tree.XML_ELEMENT_NODE or node.type == tree.XML_ENTITY_REF_NODE


cdef inline xmlNode* _next_walked(xmlNode* node) noexcept nogil:
    while node is not NULL and not _walked(node):
        node = node.next
    return node


cdef inline xmlNode* _next_element(xmlNode* node) noexcept nogil:
    """`node` or the first element node after it among its siblings (NULL if none)."""
    while node is not NULL and node.type != tree.XML_ELEMENT_NODE:
        node = node.next
    return node


cdef inline xmlNode* _next_in_order(xmlNode* node, xmlNode* top, int* depth) noexcept nogil:
    """The element after `node` in document order below `top`: its first child element, else the
    next element sibling of it or of its nearest ancestor; NULL after the last.  `depth` (levels
    below `top`) moves with it."""
    cdef xmlNode* child = _next_element(node.children)
    if child is not NULL:
        depth[0] += 1
        return child
    while node is not top:
        child = _next_element(node.next)
        if child is not NULL:
            return child
        node = node.parent
        depth[0] -= 1
    return NULL


cdef inline bint _in_itertext(xmlNode* node) noexcept nogil:
    """lxml's _isElement: what itertext visits (elements, comments, PIs, entity references)."""
    return (node.type == tree.XML_ELEMENT_NODE or node.type == tree.XML_COMMENT_NODE
            or node.type == tree.XML_ENTITY_REF_NODE or node.type == tree.XML_PI_NODE)


cdef inline xmlNode* _next_in_itertext(xmlNode* node) noexcept nogil:
    while node is not NULL and not _in_itertext(node):
        node = node.next
    return node


cdef str _itertext(xmlNode* top):
    """``"".join(el.itertext())``: texts of the subtree and tails inside it, comments' and PIs' tails included."""
    cdef list parts = []
    cdef xmlNode* node = top
    cdef xmlNode* child
    cdef object piece
    while True:
        # `node` starts
        if node.type == tree.XML_ELEMENT_NODE:
            piece = _collect(node.children)
            if piece is not None:
                parts.append(piece)
            child = _next_in_itertext(node.children)
            if child is not NULL:
                node = child
                continue
        elif node.type == tree.XML_ENTITY_REF_NODE:
            parts.append("&" + _utf8(node.name) + ";")
        # `node` ends (a comment or PI has one event, which yields its tail too)
        while True:
            if node is top:
                return "".join(parts)
            piece = _collect(node.next)
            if piece is not None:
                parts.append(piece)
            child = _next_in_itertext(node.next)
            if child is not NULL:
                node = child
                break
            node = node.parent


cdef struct Buf:
    char* data
    Py_ssize_t len
    Py_ssize_t cap


cdef int _add(Buf* buf, const char* text, Py_ssize_t n) except -1:
    cdef Py_ssize_t cap
    cdef char* data
    if buf.len + n > buf.cap:
        cap = max(2 * buf.cap, buf.len + n, 1024)
        data = <char*>realloc(buf.data, cap)
        if data is NULL:
            raise MemoryError()
        buf.data, buf.cap = data, cap
    memcpy(buf.data + buf.len, text, n)
    buf.len += n
    return 0


cdef inline bint _ascii_space(unsigned char c) noexcept nogil:
    """`str.isspace` of an ASCII character (the separators 0x1c-0x1f count)."""
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


cdef inline bint _ascii_alnum(unsigned char c) noexcept nogil:
    return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)


cdef bint _ascii(const char* data, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if <unsigned char>data[i] >= 128:
            return False
    return True


cdef Py_ssize_t _alnum(const char* data, Py_ssize_t n) noexcept nogil:
    """`letters` of ASCII text: its letters and digits."""
    cdef Py_ssize_t i, k = 0
    for i in range(n):
        if _ascii_alnum(<unsigned char>data[i]):
            k += 1
    return k


# What each byte is to `_collapsed`: 0 a space, 1 a letter or digit, 2 another ASCII character, 3 a byte of a
# character not ASCII (a word's bytes then add their class & 1 to its letters).
cdef unsigned char _BYTE_CLASS[256]
for _i in range(256):
    _BYTE_CLASS[_i] = 3 if _i >= 128 else 0 if _ascii_space(_i) else 1 if _ascii_alnum(_i) else 2


cdef str _collapsed(const char* data, Py_ssize_t n, char* out, Py_ssize_t* letters):
    """``" ".join(text.split())`` of ASCII text and its letters and digits (`letters`), in one pass
    writing through `out` (n bytes); None where the text is not ASCII."""
    cdef Py_ssize_t i = 0, k = 0, alnum = 0
    cdef unsigned char c, t
    while True:
        while i < n and _BYTE_CLASS[<unsigned char>data[i]] == 0:
            i += 1
        if i >= n:
            break
        if k:
            out[k] = 32
            k += 1
        while i < n:  # a word
            c = <unsigned char>data[i]
            t = _BYTE_CLASS[c]
            if t == 0:
                break
            if t == 3:
                return None
            out[k] = c
            k += 1
            alnum += t & 1
            i += 1
    letters[0] = alnum
    return PyUnicode_DecodeASCII(out, k, NULL)


cdef int _reserve(Buf* buf, Py_ssize_t n) except -1:
    """Room for `n` bytes (at least one) in `buf`, its content dropped."""
    cdef char* data
    buf.len = 0
    if n > buf.cap or buf.data is NULL:
        data = <char*>realloc(buf.data, n if n > 0 else 1)
        if data is NULL:
            raise MemoryError()
        buf.data, buf.cap = data, (n if n > 0 else 1)
    return 0


cdef inline void _count_letter(Py_UCS4 c, Py_ssize_t* n, Py_ssize_t* wide, Py_ssize_t* cjk) noexcept:
    """Count `c` into `_weight`'s tallies: ASCII alphanumerics (`n`), others (`wide`), CJK among those (`cjk`)."""
    if c < 128:
        if _ascii_alnum(<unsigned char>c):
            n[0] += 1
    else:
        if Py_UNICODE_ISALNUM(c):
            wide[0] += 1
        if (0x3040 <= c <= 0x30ff or 0x3400 <= c <= 0x4dbf or 0x4e00 <= c <= 0x9fff
                or 0xac00 <= c <= 0xd7af or 0xf900 <= c <= 0xfaff):
            cjk[0] += 1


cdef inline Py_ssize_t _weight(Py_ssize_t n, Py_ssize_t wide, Py_ssize_t cjk):
    """`stemmer.blocks.block.letters` from `_count_letter`'s tallies: a CJK character weighs `CJK_WEIGHT`
    (counted where the text has any non-ASCII alphanumeric)."""
    return n + (wide + (CJK_WEIGHT - 1) * cjk if wide else 0)


cdef inline int _utf8_char(const unsigned char* c, const unsigned char* end, unsigned int* code) noexcept nogil:
    """The bytes of the well-formed UTF-8 character at `c` (before `end`), its code point in `code`; 0 where none is."""
    cdef int more, i
    cdef unsigned int b = c[0]
    if b < 128:
        code[0] = b
        return 1
    if 0xC2 <= b <= 0xDF:
        code[0], more = b & 0x1F, 1
    elif 0xE0 <= b <= 0xEF:
        code[0], more = b & 0x0F, 2
    elif 0xF0 <= b <= 0xF4:
        code[0], more = b & 0x07, 3
    else:
        return 0
    if end - c <= more:
        return 0
    if ((b == 0xE0 and c[1] < 0xA0) or (b == 0xED and c[1] > 0x9F)  # overlong, a surrogate
            or (b == 0xF0 and c[1] < 0x90) or (b == 0xF4 and c[1] > 0x8F)):
        return 0
    for i in range(1, more + 1):
        if (c[i] & 0xC0) != 0x80:
            return 0
        code[0] = (code[0] << 6) | (c[i] & 0x3F)
    return more + 1


cdef str _collapsed_utf8(const char* data, Py_ssize_t n, Buf* scratch, Py_ssize_t* letters):
    """``" ".join(text.split())`` of the UTF-8 bytes `data` and its `_letters` (`letters`), in one pass as
    they are decoded (no str of the raw text made; spaces weigh no letter); None where they are not well-formed UTF-8."""
    cdef const unsigned char* c = <const unsigned char*>data
    cdef const unsigned char* end = c + n
    cdef unsigned int code
    cdef int size
    cdef Py_UCS4* out
    cdef Py_ssize_t k = 0, ascii = 0, wide = 0, cjk = 0
    cdef bint gap = False
    _reserve(scratch, 4 * n)
    out = <Py_UCS4*>scratch.data
    while c < end:
        size = _utf8_char(c, end, &code)
        if size == 0:
            return None
        c += size
        if Py_UNICODE_ISSPACE(<Py_UCS4>code):
            gap = k > 0
            continue
        if gap:
            out[k] = 32
            k += 1
            gap = False
        out[k] = <Py_UCS4>code
        k += 1
        _count_letter(<Py_UCS4>code, &ascii, &wide, &cjk)
    letters[0] = _weight(ascii, wide, cjk)
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, k)


cdef str _code_text(const char* data, Py_ssize_t n, Buf* scratch, Buf* lines):
    """`stemmer.blocks.block.block_text` of a ``<pre>`` block from its UTF-8 bytes: its lines, each without the
    space at its end, without blank lines at either end, joined and with tabs expanded to columns of 4, as
    `_code_text` does; None where the bytes are not well-formed UTF-8 or the text holds nothing but spaces and
    digits (`block_text` decides whether it is a gutter of line numbers)."""
    cdef const unsigned char* c = <const unsigned char*>data
    cdef const unsigned char* end = c + n
    cdef unsigned int code
    cdef int size
    cdef Py_UCS4* chars
    cdef Py_UCS4* out
    cdef Py_UCS4 ch
    cdef Py_ssize_t m = 0, k = 0, start = 0, stop, last, i, column = 0, blank = 0, pad
    cdef bint started = False, gutter = True
    _reserve(scratch, 4 * n)
    chars = <Py_UCS4*>scratch.data
    while c < end:  # decoded, each "\r\n" read as "\n"
        size = _utf8_char(c, end, &code)
        if size == 0:
            return None
        c += size
        if code == 13 and c < end and c[0] == 10:
            continue
        chars[m] = <Py_UCS4>code
        m += 1
    _reserve(lines, 16 * m)  # a tab is at most four spaces
    out = <Py_UCS4*>lines.data
    while start <= m:
        stop = start
        while stop < m and chars[stop] != 10:
            stop += 1
        last = stop
        while last > start and Py_UNICODE_ISSPACE(chars[last - 1]):
            last -= 1
        if last == start:  # a blank line: kept only between lines
            blank += started
        else:
            if started:
                for _ in range(blank + 1):
                    out[k] = 10
                    k += 1
                column = 0
            started, blank = True, 0
            for i in range(start, last):
                ch = chars[i]
                if ch == 9:
                    pad = 4 - column % 4
                    column += pad
                    for _ in range(pad):
                        out[k] = 32
                        k += 1
                    continue
                out[k] = ch
                k += 1
                column = 0 if ch == 13 else column + 1
                if gutter and not Py_UNICODE_ISSPACE(ch) and not Py_UNICODE_ISDECIMAL(ch):
                    gutter = False
        start = stop + 1
    if gutter:
        return None
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, k)


cdef Py_ssize_t _letters(str text):
    """`stemmer.blocks.block.letters`, one pass: alphanumerics (``\\w`` but ``_``), a CJK character weighing 3."""
    cdef Py_UCS4 c
    cdef Py_ssize_t n = 0, wide = 0, cjk = 0
    for c in text:
        _count_letter(c, &n, &wide, &cjk)
    return _weight(n, wide, cjk)


cdef inline bint _is_pre(tuple path):
    """`stemmer.blocks.block.is_pre`."""
    cdef str last
    if not path:
        return False
    last = <str>path[len(path) - 1]
    return last.startswith("pre") and (len(last) == 3 or last[3] == "." or last[3] == "#")


cdef int _raw_key(xmlNode* node, Buf* key) except -1:
    """`node`'s name, class and id as libxml2 holds them, in `key`: what its encoding and description
    depend on, with no str made; 0 where they cannot be read so (a namespace, a value of several nodes)."""
    cdef xmlNode* value
    cdef bint present
    cdef const char* name
    if node.ns is not NULL:
        return 0
    key.len = 0
    _add(key, <const char*>node.name, strlen(<const char*>node.name) + 1)  # with its NUL, a separator
    for name in (b"class", b"id"):
        value = _one_text(node, name, &present)
        if value is not NULL:
            _add(key, "T", 1)
            _add(key, <const char*>value.content, strlen(<const char*>value.content) + 1)
        elif present:
            return 0
        else:
            _add(key, "A", 1)
    return 1


cdef struct MemoEntry:
    char* key  # NULL: an empty place
    Py_ssize_t len
    uint64_t hash
    PyObject* value  # a reference held


cdef inline uint64_t _hash(const char* data, Py_ssize_t n) noexcept nogil:
    """A hash of `n` bytes, eight at a time (a dict's siphash of a bytes key made for it cost more than the lookup)."""
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL ^ <uint64_t>n, w
    cdef Py_ssize_t i = 0
    while i + 8 <= n:
        memcpy(&w, data + i, 8)
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL
        h ^= h >> 32
        i += 8
    if i < n:
        w = 0
        memcpy(&w, data + i, n - i)
        h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL
        h ^= h >> 32
    return h * 0x9E3779B97F4A7C15ULL


cdef class RawMemo:
    """A dict from byte strings (an element's `_raw_key`) to objects, in C: no bytes object made per lookup.

    It forgets all at `limit` entries, as the memo dicts of the package do.
    """

    cdef MemoEntry* table
    cdef Py_ssize_t cap, count, limit

    def __cinit__(self, Py_ssize_t limit=100_000):
        self.limit = limit
        self.cap = 1024
        self.count = 0
        self.table = <MemoEntry*>calloc(self.cap, sizeof(MemoEntry))
        if self.table is NULL:
            raise MemoryError()

    def __dealloc__(self):
        self._forget()
        free(self.table)

    def __len__(self):
        return self.count

    def __getitem__(self, bytes key):
        value = self.get(key, len(key))
        if value is None:
            raise KeyError(key)
        return value

    def __setitem__(self, bytes key, value):
        self.put(key, len(key), value)

    cdef void _forget(self):
        cdef Py_ssize_t i
        for i in range(self.cap):
            if self.table[i].key is not NULL:
                free(self.table[i].key)
                Py_XDECREF(self.table[i].value)
                self.table[i].key = NULL
                self.table[i].value = NULL
        self.count = 0

    cdef inline Py_ssize_t _place(self, const char* key, Py_ssize_t n, uint64_t h) noexcept:
        """Where `key` is, or the empty place where it would go."""
        cdef Py_ssize_t mask = self.cap - 1, i = <Py_ssize_t>(h & <uint64_t>mask)
        cdef MemoEntry* e
        while True:
            e = &self.table[i]
            if e.key is NULL or (e.hash == h and e.len == n and memcmp(e.key, key, n) == 0):
                return i
            i = (i + 1) & mask

    cdef object get(self, const char* key, Py_ssize_t n):
        """The value of `key`, or None."""
        cdef MemoEntry* e = &self.table[self._place(key, n, _hash(key, n))]
        return <object>e.value if e.key is not NULL else None

    cdef int put(self, const char* key, Py_ssize_t n, object value) except -1:
        cdef uint64_t h = _hash(key, n)
        cdef MemoEntry* e
        cdef MemoEntry* old
        cdef Py_ssize_t i, old_cap
        if self.count >= self.limit:
            self._forget()
        if 2 * (self.count + 1) > self.cap:  # grow: at most half full
            old, old_cap = self.table, self.cap
            self.table = <MemoEntry*>calloc(2 * old_cap, sizeof(MemoEntry))
            if self.table is NULL:
                self.table = old
                raise MemoryError()
            self.cap = 2 * old_cap
            for i in range(old_cap):
                if old[i].key is not NULL:
                    self.table[self._place(old[i].key, old[i].len, old[i].hash)] = old[i]
            free(old)
        e = &self.table[self._place(key, n, h)]
        if e.key is NULL:
            e.key = <char*>malloc(n if n > 0 else 1)
            if e.key is NULL:
                raise MemoryError()
            memcpy(e.key, key, n)
            e.len, e.hash, e.value = n, h, NULL
            self.count += 1
        Py_INCREF(value)
        Py_XDECREF(e.value)
        e.value = <PyObject*>value
        return 0


# A site repeats its few (tag, class, id) many times: the encoding of each, by its `_raw_key`.
cdef RawMemo _ENCODINGS = RawMemo()


cdef str _block_encoding(xmlNode* node, Buf* key):
    """`encode` of a block element's tag, class and id, remembered by their bytes (`_raw_key`)."""
    cdef bint raw = _raw_key(node, key)
    cdef object enc
    if raw:
        enc = _ENCODINGS.get(key.data, key.len)
        if enc is not None:
            return <str>enc
    tag, cls, ident = _tag(node), _attr(node, "class"), _attr(node, "id")
    enc = encode_ascii(tag, cls, ident) or encode(tag, cls, ident)
    if raw:
        _ENCODINGS.put(key.data, key.len, enc)
    return <str>enc


cdef tuple _child_path(tuple path, str enc):
    """``path + (enc,)``, built directly."""
    cdef Py_ssize_t n = len(path), i
    cdef tuple out = PyTuple_New(n + 1)
    for i in range(n):
        item = path[i]
        Py_INCREF(item)
        PyTuple_SET_ITEM(out, i, item)
    Py_INCREF(enc)
    PyTuple_SET_ITEM(out, n, enc)
    return out


cdef struct Token:
    const char* data
    Py_ssize_t len


cdef inline bint _token_before(Token a, Token b) noexcept nogil:
    """str order of two ASCII tokens: by bytes, a prefix first."""
    cdef Py_ssize_t n = a.len if a.len < b.len else b.len
    cdef int c = memcmp(a.data, b.data, n)
    return c < 0 or (c == 0 and a.len < b.len)


cpdef str encode_ascii(str tag, object cls, object ident):
    """`stemmer.blocks.block.encode` where the tag, class and id are ASCII (else None): the class's
    words lower-cased, once each, sorted, and the id stripped and lower-cased, in one buffer."""
    cdef const char* data
    cdef Py_ssize_t n, i, j, start, n_tokens = 0, size
    cdef Token* tokens = NULL
    cdef Token token
    cdef char* out = NULL
    cdef char* low = NULL
    if not tag.isascii() or (cls and not (<str>cls).isascii()) or (ident and not (<str>ident).isascii()):
        return None
    n = (len(<str>cls) if cls else 0) + (len(<str>ident) if ident else 0)
    size = len(tag) + 2 * n + 2
    low = <char*>malloc(n + 1)
    out = <char*>malloc(size)
    tokens = <Token*>malloc((n // 2 + 1) * sizeof(Token))
    try:
        if low is NULL or out is NULL or tokens is NULL:
            raise MemoryError()
        memcpy(out, PyUnicode_DATA(tag), len(tag))
        size = len(tag)
        if cls:
            data = <const char*>PyUnicode_DATA(<str>cls)
            n = len(<str>cls)
            for i in range(n):
                low[i] = data[i] + 32 if 65 <= data[i] <= 90 else data[i]
            i = 0
            while i < n:
                while i < n and _ascii_space(<unsigned char>low[i]):
                    i += 1
                if i >= n:
                    break
                start = i
                while i < n and not _ascii_space(<unsigned char>low[i]):
                    i += 1
                token.data, token.len = low + start, i - start
                j = n_tokens  # insertion sort: a class has a few words
                while j > 0 and _token_before(token, tokens[j - 1]):
                    tokens[j] = tokens[j - 1]
                    j -= 1
                tokens[j] = token
                n_tokens += 1
            for i in range(n_tokens):
                if i and not _token_before(tokens[i - 1], tokens[i]):
                    continue  # the same word again
                out[size] = 46  # "."
                memcpy(out + size + 1, tokens[i].data, tokens[i].len)
                size += 1 + tokens[i].len
        if ident:
            data = <const char*>PyUnicode_DATA(<str>ident)
            n = len(<str>ident)
            start = 0
            while start < n and _ascii_space(<unsigned char>data[start]):
                start += 1
            while n > start and _ascii_space(<unsigned char>data[n - 1]):
                n -= 1
            if n > start and memchr(data + start, 32, n - start) is NULL:
                out[size] = 35  # "#"
                for i in range(start, n):
                    out[size + 1 + i - start] = data[i] + 32 if 65 <= data[i] <= 90 else data[i]
                size += 1 + n - start
        return PyUnicode_DecodeASCII(out, size, NULL)
    finally:
        free(low)
        free(out)
        free(tokens)


# Per describe function, its answers by each element's `_raw_key`.
cdef dict _RAW_DESCRIBED = {}


cdef class TableRecorder:
    """A `stemmer.blocks.walk.Recorder` that the compiled walk fills without a Python call per element.

    It records what the classifier's page table (`stemmer.classify.features`)
    holds: per block its links, images and open elements; per element its
    parent and its description.  `describe(tag, cls, ident)` gives an element's
    (element, kind), kind 1 for a comment section, 2 for an article's body, else
    0; `memo` remembers it for each (tag, class, id), which a site repeats.  Any
    walker can drive it through the Recorder methods.
    """

    cdef public list links, images, ancestors, elements, parent
    cdef public set comments, content
    cdef list stack
    cdef long pending_links, pending_images
    cdef object describe
    cdef dict memo
    cdef RawMemo raw

    def __init__(self, describe, dict memo):
        self.describe, self.memo = describe, memo
        self.raw = _RAW_DESCRIBED.get(describe)
        if self.raw is None:
            self.raw = _RAW_DESCRIBED[describe] = RawMemo()
        self.clear()

    def clear(self):
        self.links, self.images, self.ancestors = [], [], []
        self.elements, self.parent, self.comments, self.content = [], [], set(), set()
        self.stack = []
        self.pending_links = self.pending_images = 0

    def open(self, str tag, cls, ident):
        self._open(tag, cls, ident)

    def close(self):
        self.stack.pop()

    def boundary(self):
        self.pending_links = self.pending_images = 0

    def block(self):
        self._block()

    cdef int _open(self, str tag, object cls, object ident) except -1:
        if tag == "a":
            self.pending_links += 1
        elif tag == "img":
            self.pending_images += 1
        return self._push(self._described(tag, cls, ident))

    cdef tuple _described(self, str tag, object cls, object ident):
        cdef tuple key = (tag, cls, ident)
        cdef tuple described = self.memo.get(key)
        if described is None:
            if len(self.memo) > 100_000:
                self.memo.clear()
            described = self.memo[key] = tuple(self.describe(tag, cls, ident))
        return described

    cdef int _open_node(self, xmlNode* node, Buf* key) except -1:
        """`_open` of an element of the walk, its description remembered by its `_raw_key` too (no str made)."""
        cdef tuple described
        if not _raw_key(node, key):
            return self._open(_tag(node), _attr(node, "class"), _attr(node, "id"))
        if node.name[0] == c"a" and node.name[1] == 0:
            self.pending_links += 1
        elif strcmp(<const char*>node.name, "img") == 0:
            self.pending_images += 1
        described = self.raw.get(key.data, key.len)
        if described is None:
            described = self._described(_tag(node), _attr(node, "class"), _attr(node, "id"))
            self.raw.put(key.data, key.len, described)
        return self._push(described)

    cdef int _push(self, tuple described) except -1:
        """A new element, below the open one."""
        cdef Py_ssize_t e = len(self.elements)
        cdef int kind
        self.parent.append(self.stack[len(self.stack) - 1] if self.stack else -1)
        self.stack.append(e)
        self.elements.append(described[0])
        kind = described[1]
        if kind == 1:
            self.comments.add(e)
        elif kind == 2:
            self.content.add(e)
        return 0

    cdef inline int _block(self) except -1:
        self.links.append(self.pending_links)
        self.images.append(self.pending_images)
        self.ancestors.append(tuple(self.stack))
        return 0


cdef inline bint _may_be_screen_reader_only(const char* cls) noexcept nogil:
    """Whether a class's bytes hold a substring that `is_screen_reader_only` looks for."""
    return (strstr(cls, "sr-only") is not NULL or strstr(cls, "visually") is not NULL
            or strstr(cls, "screen-reader-text") is not NULL)


cdef inline bint _in_heading(tuple path):
    """Whether the block at `path` is a heading (h1 to h6): `may_be_permalink`'s test of the path."""
    cdef str last
    if not path:
        return False
    last = <str>path[len(path) - 1]
    return (len(last) >= 2 and last[0] == "h" and "1" <= last[1] <= "6"
            and (len(last) == 2 or last[2] == "." or last[2] == "#"))


cdef bint _may_hide(const_xmlChar* style) noexcept nogil:
    """Whether `is_hidden` may read an inline style as hiding: it holds "none" or "hidden" in any case, or a
    character not ASCII (`_hides` reads ASCII styles lower-cased, and needs one of those words)."""
    cdef const unsigned char* c = <const unsigned char*>style
    cdef unsigned char low
    while c[0] != 0:
        if c[0] >= 128:
            return True
        low = c[0] | 32
        if low == c"n" and (c[1] | 32) == c"o" and (c[2] | 32) == c"n" and (c[3] | 32) == c"e":
            return True
        if (low == c"h" and (c[1] | 32) == c"i" and (c[2] | 32) == c"d" and (c[3] | 32) == c"d"
                and (c[4] | 32) == c"e" and (c[5] | 32) == c"n"):
            return True
        c += 1
    return False


cdef int _leading_space(xmlNode* node) noexcept:
    """Whether the run of text nodes from `node` is all space (``str.isspace`` of its text, not empty): 1 or 0,
    read as UTF-8 up to its first character not a space; -1 where a byte before it is not well-formed UTF-8."""
    cdef const unsigned char* c
    cdef const unsigned char* end
    cdef unsigned int code
    cdef int size
    while node is not NULL:
        c = <const unsigned char*>node.content
        end = c + strlen(<const char*>c)
        while c < end:
            size = _utf8_char(c, end, &code)
            if size == 0:
                return -1
            if not Py_UNICODE_ISSPACE(<Py_UCS4>code):
                return 0
            c += size
        node = _text_or_skip(node.next)
    return 1


cdef class _Walk:
    """The state of one walk: the blocks cut so far and the block being read (UTF-8 bytes, as libxml2 holds it)."""

    cdef list blocks, links, paths
    cdef Buf buf, anchor, scratch, key, lines
    cdef Buf kinds  # the `_kind` of each element entered and not left, a byte each
    cdef object recorder
    cdef TableRecorder table  # the recorder, when it is one (called in C)
    cdef bint with_links, skip_hidden
    cdef int in_anchor
    cdef long hidden_weight

    def __init__(self, bint with_links, bint skip_hidden, recorder):
        self.blocks, self.links, self.paths = [], [], [()]
        self.recorder = recorder
        self.table = recorder if isinstance(recorder, TableRecorder) else None
        self.with_links = with_links
        self.skip_hidden = skip_hidden
        self.in_anchor = 0
        self.hidden_weight = 0

    def __dealloc__(self):
        free(self.buf.data)
        free(self.anchor.data)
        free(self.scratch.data)
        free(self.key.data)
        free(self.kinds.data)
        free(self.lines.data)

    cdef int flush(self, tuple path) except -1:
        """Close the block being read: its text runs since the last block boundary."""
        cdef str text
        cdef object weight, anchor_weight = 0
        cdef Py_ssize_t letters
        if not _is_pre(path):
            _reserve(&self.scratch, self.buf.len)
            text = _collapsed(self.buf.data, self.buf.len, self.scratch.data, &letters)
            if text is None:  # not ASCII
                text = _collapsed_utf8(self.buf.data, self.buf.len, &self.scratch, &letters)
            if text is None:  # not well-formed: decoding raises as lxml's .text would
                text = " ".join(PyUnicode_DecodeUTF8(self.buf.data, self.buf.len, NULL).split())
                letters = _letters(text)  # spaces weigh no letter
            weight = letters
        else:
            text = _code_text(self.buf.data, self.buf.len, &self.scratch, &self.lines)
            if text is None:  # not well-formed, or perhaps a gutter of line numbers: as block_text reads it
                text = block_text(path, [PyUnicode_DecodeUTF8(self.buf.data, self.buf.len, NULL)])
            weight = _letters(text)
        if self.anchor.len:
            if _ascii(self.anchor.data, self.anchor.len):
                anchor_weight = _alnum(self.anchor.data, self.anchor.len)
            else:
                anchor_weight = _letters(PyUnicode_DecodeUTF8(self.anchor.data, self.anchor.len, NULL))
        self.buf.len = 0
        self.anchor.len = 0
        if text and weight:
            self.blocks.append(_new_block(path, text, weight, anchor_weight))
            if self.table is not None:
                self.table._block()
            elif self.recorder is not None:
                self.recorder.block()
        return 0

    cdef int boundary(self) except -1:
        if self.buf.len:
            self.flush(<tuple>self.paths[len(self.paths) - 1])
        if self.table is not None:
            self.table.pending_links = self.table.pending_images = 0
        elif self.recorder is not None:
            self.recorder.boundary()
        return 0

    cdef int read(self, xmlNode* first) except -1:
        """A text or tail (the run of text nodes from `first`): no block starts with a space."""
        cdef xmlNode* node = _text_or_skip(first)
        cdef xmlNode* cur
        cdef const unsigned char* c
        cdef bint empty = True
        cdef int space = True
        if node is NULL:
            return 0
        cur = node
        while cur is not NULL:
            c = <const unsigned char*>cur.content
            while c[0] != 0:
                empty = False
                if c[0] >= 128:
                    space = False  # decided below, by Python's isspace
                    break
                if not _ascii_space(c[0]):
                    return self._append(node)
                c += 1
            cur = _text_or_skip(cur.next)
        if empty:
            return 0  # "" is no text
        if self.buf.len == 0:
            if space:
                return 0
            space = _leading_space(node)
            if space == 1 or (space < 0 and (<str>_collect(node)).isspace()):
                return 0
        return self._append(node)

    cdef int _append(self, xmlNode* node) except -1:
        """Add the run of text nodes from `node` to the block (and to its link text inside a link)."""
        cdef Py_ssize_t n
        while node is not NULL:
            n = strlen(<const char*>node.content)
            _add(&self.buf, <const char*>node.content, n)
            if self.in_anchor:
                _add(&self.anchor, <const char*>node.content, n)
            node = _text_or_skip(node.next)
        return 0

    cdef bint start(self, xmlNode* node) except -1:
        """The walk enters `node`; False if it skips its subtree."""
        cdef int kind = _kind(node)
        cdef object cls = None, ident = None, style, hidden, href
        cdef bint cls_read = False, present
        cdef char kind_byte
        cdef str enc
        cdef xmlNode* value
        if kind == SKIP:
            return False
        if kind != BLOCK:
            # the substrings `is_screen_reader_only` looks for, in the class's bytes: most inline elements have none
            value = _one_text(node, "class", &present)
            if present and (value is NULL or _may_be_screen_reader_only(<const char*>value.content)):
                cls = _attr(node, "class")
                cls_read = True
                if ("sr-only" in cls or "visually" in cls or "screen-reader-text" in cls) and is_screen_reader_only(cls):
                    return False
        if kind == BLOCK:
            enc = _block_encoding(node, &self.key)
            if self.skip_hidden:
                # a style read as text only where its bytes may hide (`_may_hide`): is_hidden's answer is the same
                value = _one_text(node, "style", &present)
                style = _attr(node, "style") if present and (value is NULL or _may_hide(value.content)) else None
                _one_text(node, "hidden", &present)
                hidden = "" if present else None  # is_hidden asks only whether there is one
                if (".hidden" in enc or style or hidden is not None) and is_hidden(enc, style, hidden):
                    self.hidden_weight += _letters(_itertext(node))
                    return False
            self.boundary()
            self.paths.append(_child_path(<tuple>self.paths[len(self.paths) - 1], enc))
        elif kind == CHOP:
            if node.name[0] == c"b" and _is_pre(<tuple>self.paths[len(self.paths) - 1]):  # br, not hr
                _add(&self.buf, "\n", 1)  # a code listing written line by line with <br>
            else:
                self.boundary()
        elif kind == ANCHOR:
            # `may_be_permalink` in C: a "#" in the href's bytes, in a heading; the href read as text only then
            value = _one_text(node, "href", &present)
            if (present and (value is NULL or strchr(<const char*>value.content, c"#") is not NULL)
                    and _in_heading(<tuple>self.paths[len(self.paths) - 1])):
                href = _attr(node, "href")
                if "#" in href and is_permalink(_itertext(node), _attr(node, "class")):
                    return False
            self.in_anchor += 1
            if self.with_links:
                href = _attr(node, "href")
                if href:
                    self.links.append((href, " ".join(_itertext(node).split())))
        if self.table is not None:
            self.table._open_node(node, &self.key)
        elif self.recorder is not None:
            self.recorder.open(_tag(node), cls if cls_read else _attr(node, "class"), _attr(node, "id"))
        kind_byte = <char>kind
        _add(&self.kinds, &kind_byte, 1)
        self.read(node.children)
        return True

    cdef int end(self, xmlNode* node, bint entered) except -1:
        """The walk leaves `node` (`entered`: its subtree was walked) and reads its tail."""
        cdef int kind
        if entered:
            self.kinds.len -= 1
            kind = self.kinds.data[self.kinds.len]
            if kind == BLOCK:
                self.boundary()
                self.paths.pop()
            elif kind == ANCHOR:
                self.in_anchor -= 1
            if self.table is not None:
                self.table.stack.pop()
            elif self.recorder is not None:
                self.recorder.close()
        self.read(node.next)
        return 0


cdef str _head_title(xmlNode* root):
    """``root.find("head/title")``'s text, spaces collapsed; "" without one."""
    cdef xmlNode* head = root.children
    cdef xmlNode* node
    while head is not NULL:
        if head.type == tree.XML_ELEMENT_NODE and head.ns is NULL and strcmp(<const char*>head.name, "head") == 0:
            node = head.children
            while node is not NULL:
                if (node.type == tree.XML_ELEMENT_NODE and node.ns is NULL
                        and strcmp(<const char*>node.name, "title") == 0):
                    return " ".join((_collect(node.children) or "").split())
                node = node.next
        head = head.next
    return ""


def walk(root, bint with_links, bint skip_hidden, recorder=None):
    """`stemmer.blocks.walk.walk`, compiled: (blocks, title, links, hidden letters)."""
    cdef xmlNode* top = (<cetree._Element?>root)._c_node
    cdef xmlNode* node = top
    cdef xmlNode* child
    cdef _Walk w = _Walk(with_links, skip_hidden, recorder)
    while True:
        if w.start(node):
            child = _next_walked(node.children)
            if child is not NULL:
                node = child
                continue
            w.end(node, True)
        else:
            w.end(node, False)
        # `node` is done: on to its next sibling, or up, closing the parents
        while True:
            if node is top:
                if w.buf.len:
                    w.flush(())
                return w.blocks, _head_title(top), w.links, w.hidden_weight
            child = _next_walked(node.next)
            if child is not NULL:
                node = child
                break
            node = node.parent
            w.end(node, True)


cdef tuple _LANDMARKS = (b"main", b"article", b"section", b"header", b"footer", b"nav", b"aside")


cdef bint _holds_landmark(xmlNode* top):
    """Whether an element below `top` is one of `_LANDMARKS` (`stemmer.blocks.parse._LANDMARKS`)."""
    cdef int depth = 0
    cdef xmlNode* node = _next_in_order(top, top, &depth)
    cdef bytes name
    while node is not NULL:
        if node.ns is NULL:
            for name in _LANDMARKS:
                if strcmp(<const char*>node.name, name) == 0:
                    return True
        node = _next_in_order(node, top, &depth)
    return False


def parse_checks(root, int limit):
    """What `stemmer.blocks.parse.parse_html` looks for after parsing, in one walk of the elements.

    Returns:
        (whether an element lies `limit` or more levels of elements below `root`, the
        `<style>` elements at or below it, the `<noscript>` elements in its `<body>`, the
        `<button>` elements holding a landmark): what ``bool(root.xpath("*/" * limit))``,
        ``list(root.iter("style"))``, ``list(root.find("body").iter("noscript"))`` (none without
        a body) and `stemmer.blocks.parse._swallowing_buttons` find, in document order; the
        lists are None where the first is True (the walk stops there).
    """
    cdef xmlNode* top = (<cetree._Element?>root)._c_node
    cdef cetree._Document doc = (<cetree._Element>root)._doc
    cdef xmlNode* node = top
    cdef xmlNode* body = _next_element(top.children)
    cdef int depth = 0
    cdef bint in_body = False
    cdef char first
    cdef list styles = [], noscripts = [], buttons = []
    while body is not NULL and not (body.ns is NULL and strcmp(<const char*>body.name, "body") == 0):
        body = _next_element(body.next)
    while node is not NULL:
        if depth >= limit:
            return True, None, None, None
        if depth == 1:  # a child of `top`: the elements below it are in the body where it is the body
            in_body = node is body
        first = node.name[0]  # most names start with none of s, n, b: no strcmp for them
        if node.ns is NULL and (first == c"s" or first == c"n" or first == c"b"):
            if strcmp(<const char*>node.name, "style") == 0:
                styles.append(cetree.elementFactory(doc, node))
            elif in_body and strcmp(<const char*>node.name, "noscript") == 0:
                noscripts.append(cetree.elementFactory(doc, node))
            elif strcmp(<const char*>node.name, "button") == 0 and _holds_landmark(node):
                buttons.append(cetree.elementFactory(doc, node))
        node = _next_in_order(node, top, &depth)
    return False, styles, noscripts, buttons


def hide_named(root, hidden):
    """Set ``hidden="hidden"`` on the elements at or below `root` whose id is a ``#name`` of `hidden`,
    or one of whose class words a ``.name`` of it: `stemmer.blocks.parse._hide_by_stylesheet`'s loop.

    A class is read as text only where its bytes hold one of the names (most hold none), an id not at all.
    """
    cdef xmlNode* top = (<cetree._Element?>root)._c_node
    cdef cetree._Document doc = (<cetree._Element>root)._doc
    cdef xmlNode* node = top
    cdef xmlNode* value
    cdef int depth = 0
    cdef bint match, present
    cdef bytes name
    cdef list ids = [n[1:].encode() for n in hidden if n.startswith("#")]
    cdef list classes = [n[1:].encode() for n in hidden if n.startswith(".")]
    while node is not NULL:
        match = False
        if ids:
            value = _one_text(node, "id", &present)
            if value is not NULL:
                match = any(strcmp(<const char*>value.content, <const char*>name) == 0 for name in ids)
            elif present:
                ident = _attr(node, "id")
                match = bool(ident) and "#" + ident in hidden
        if not match and classes:
            value = _one_text(node, "class", &present)
            if present and (value is NULL or any(strstr(<const char*>value.content, <const char*>name) is not NULL
                                                 for name in classes)):
                cls = _attr(node, "class")
                match = bool(cls) and any("." + c in hidden for c in cls.split())
        if match:
            cetree.setAttributeValue(cetree.elementFactory(doc, node), "hidden", "hidden")
        node = _next_in_order(node, top, &depth)


def statement_elements(root):
    """The elements that say what the page is (`stemmer.metadata.signals`), in one walk of the elements.

    Returns:
        (the `<meta>`, `<script>`, `<time>` and `<h1>` elements at or below `root`, the elements below
        it with an ``itemprop``, the `<a>` below it with a ``rel``), each in document order:
        what ``root.iter("meta", "script", "time", "h1")``, ``root.xpath("descendant::*[@itemprop]")``
        and ``root.xpath("descendant::a[@rel]")`` find, without two XPath passes (the `<h1>`s are
        the headline's candidates, `stemmer.metadata.visible`).
    """
    cdef xmlNode* top = (<cetree._Element?>root)._c_node
    cdef cetree._Document doc = (<cetree._Element>root)._doc
    cdef xmlNode* node = top
    cdef const char* name
    cdef int depth = 0
    cdef list tagged = [], props = [], rels = []
    while node is not NULL:
        name = <const char*>node.name
        if node.ns is NULL and (strcmp(name, "meta") == 0 or strcmp(name, "script") == 0
                                or strcmp(name, "time") == 0 or strcmp(name, "h1") == 0):
            tagged.append(cetree.elementFactory(doc, node))
        if node is not top:
            if _attr(node, "itemprop") is not None:
                props.append(cetree.elementFactory(doc, node))
            if node.ns is NULL and strcmp(name, "a") == 0 and _attr(node, "rel") is not None:
                rels.append(cetree.elementFactory(doc, node))
        node = _next_in_order(node, top, &depth)
    return tagged, props, rels


# --- the text pieces around a headline (`stemmer.metadata.visible`) ---------------------------------------

cdef object _skip_of = None  # the tags `_skipped` was set up for, and their names as bytes
cdef list _skip_names = []
cdef const char* _SKIP_PTRS[32]
cdef int _n_skip = 0


cdef int _set_skip(object skip) except -1:
    global _skip_of, _skip_names, _n_skip
    if skip is _skip_of:
        return 0
    names = [name.encode() for name in skip]
    if len(names) > 32:
        raise ValueError("at most 32 tags the walk around a headline does not enter")
    _skip_names = names
    for i, name in enumerate(names):
        _SKIP_PTRS[i] = <const char*>name
    _n_skip, _skip_of = len(names), skip
    return 0


cdef inline bint _skipped(xmlNode* node) noexcept nogil:
    """Whether an element's lxml `.tag` is one of the tags set by `_set_skip`."""
    cdef int i
    if node.ns is not NULL and node.ns.href is not NULL:
        return False
    for i in range(_n_skip):
        if strcmp(<const char*>node.name, _SKIP_PTRS[i]) == 0:
            return True
    return False


cdef inline xmlNode* _like_after(xmlNode* node) noexcept nogil:
    """`node` or the first node after it among its siblings that lxml iterates (`_in_itertext`), or NULL."""
    while node is not NULL and not _in_itertext(node):
        node = node.next
    return node


cdef inline xmlNode* _like_before(xmlNode* node) noexcept nogil:
    """`node` or the first node before it among its siblings that lxml iterates, or NULL."""
    while node is not NULL and not _in_itertext(node):
        node = node.prev
    return node


cdef inline xmlNode* _parent_of(xmlNode* node) noexcept nogil:
    """lxml's `getparent()`: the parent where it is an element-like node, else NULL."""
    cdef xmlNode* parent = node.parent
    return parent if parent is not NULL and _in_itertext(parent) else NULL


cdef inline bint _is_body(xmlNode* node) noexcept nogil:
    return (node.type == tree.XML_ELEMENT_NODE and (node.ns is NULL or node.ns.href is NULL)
            and strcmp(<const char*>node.name, "body") == 0)


cdef list _NONE = []
cdef Buf _spaced  # room for `_spaced_text`'s collapsing


cdef object _spaced_text(xmlNode* node):
    """``" ".join(text.split())`` of the run of text nodes from `node` (lxml's `.text` of a parent,
    `.tail` of a sibling), or None where there is none; ASCII text collapsed in C."""
    cdef xmlNode* first = _text_or_skip(node)
    cdef const char* data
    cdef Py_ssize_t n, letters
    cdef bytes joined
    if first is NULL:
        return None
    if _text_or_skip(first.next) is NULL:
        data = <const char*>first.content
        n = strlen(data)
    else:
        joined = b""
        while first is not NULL:
            joined += <bytes>(<const char*>first.content)
            first = _text_or_skip(first.next)
        data, n = joined, len(joined)
    _reserve(&_spaced, n)
    text = _collapsed(data, n, _spaced.data, &letters)
    if text is None:  # not ASCII
        text = " ".join(PyUnicode_DecodeUTF8(data, n, NULL).split())
    return text


cdef Buf _words  # room for `_classes`


cdef int _add_attr(Buf* buf, xmlNode* node, const char* name) except -1:
    """Add the value of the attribute `name` (no namespace) of `node` to `buf`, as ``node.get(name) or ""``."""
    cdef bint present
    cdef xmlNode* value = _one_text(node, name, &present)
    cdef bytes joined
    if value is not NULL:
        _add(buf, <const char*>value.content, strlen(<const char*>value.content))
    elif present:  # a value of no node or of several
        joined = (_attr(node, name) or "").encode("utf-8")
        _add(buf, joined, len(joined))
    return 0


cdef str _classes(xmlNode* node):
    """`stemmer.metadata.visible._classes`: the class, id, itemprop and rel of an element, its
    parent and grandparent."""
    cdef int level
    _words.len = 0
    for level in range(3):
        if node is NULL:
            break
        if level:
            _add(&_words, " ", 1)
        _add_attr(&_words, node, "class")
        _add(&_words, " ", 1)
        _add_attr(&_words, node, "id")
        _add(&_words, " ", 1)
        _add_attr(&_words, node, "itemprop")
        _add(&_words, " ", 1)
        _add_attr(&_words, node, "rel")
        node = _parent_of(node)
    return PyUnicode_DecodeUTF8(_words.data, _words.len, NULL)


cdef int _piece(list out, xmlNode* node, cetree._Document doc, xmlNode* owner, object make, int sign,
                list made, bint classes) except -1:
    """Append the piece of the text run from `node` where it has more than spaces: ``make(text, owner's
    proxy, distance, owner's classes or None where not `classes`)``, or the piece at its place in `made`
    (a walk done before, from the same start)."""
    cdef object text = _spaced_text(node)
    cdef Py_ssize_t k
    if text:
        k = len(out)
        if k < len(made):
            out.append(made[k])
        elif owner is NULL:
            out.append(make(text, None, sign * (k + 1), ""))
        else:
            out.append(make(text, cetree.elementFactory(doc, owner), sign * (k + 1),
                            _classes(owner) if classes else None))
    return 0


def pieces_after(head, int limit, make, skip, list made=[], bint classes=True):
    """The first `limit` text pieces after the headline element `head`, as `stemmer.metadata.visible._After`
    walks them, each made by ``make(text, owner, distance, classes)``.

    Its tail, then the elements after it among its siblings, then after its parent among the parent's,
    up to the `<body>`: of each element its text, its children's pieces, then its tail (an element
    whose tag is in `skip`, a comment or a processing instruction: its tail alone); not the tails of the
    headline's ancestors.  A text's owner is its element, a tail's its element's parent.  `made`: the
    pieces of a shorter walk before, kept (the walk is not resumed: it starts over without making them).
    `classes`: whether the owners' classes are read (`_classes`), else ``make`` is given None.
    """
    cdef xmlNode* level = (<cetree._Element?>head)._c_node
    cdef cetree._Document doc = (<cetree._Element>head)._doc
    cdef xmlNode* top
    cdef xmlNode* node
    cdef xmlNode* child
    cdef list out = []
    _set_skip(skip)
    _piece(out, level.next, doc, _parent_of(level), make, 1, made, classes)
    while len(out) < limit and level is not NULL and not _is_body(level):
        top = level.parent  # the parent of the siblings walked at this level
        node = _like_after(level.next)
        while node is not NULL and len(out) < limit:
            if node.type == tree.XML_ELEMENT_NODE and not _skipped(node):
                _piece(out, node.children, doc, node, make, 1, made, classes)
                child = _like_after(node.children)
                if child is not NULL:
                    node = child
                    continue
            _piece(out, node.next, doc, _parent_of(node), make, 1, made, classes)
            while True:  # on to the next sibling, or up to the parent's tail and the next sibling of it
                child = _like_after(node.next)
                if child is not NULL:
                    node = child
                    break
                node = node.parent
                if node is top:
                    node = NULL
                    break
                if len(out) >= limit:
                    break
                _piece(out, node.next, doc, _parent_of(node), make, 1, made, classes)
        level = _parent_of(level)
    del out[limit:]
    return out


cdef int _back(xmlNode* node, list out, int limit, cetree._Document doc, object make, bint classes) except -1:
    """The pieces of `node` backwards (its tail, its children's from the last, its text) into `out`, to `limit`."""
    cdef xmlNode* child
    if len(out) >= limit:
        return 0
    _piece(out, node.next, doc, _parent_of(node), make, -1, _NONE, classes)
    if node.type == tree.XML_ELEMENT_NODE and not _skipped(node):
        child = _like_before(node.last)
        while child is not NULL:
            _back(child, out, limit, doc, make, classes)
            if len(out) >= limit:
                return 0
            child = _like_before(child.prev)
        _piece(out, node.children, doc, node, make, -1, _NONE, classes)
    return 0


def pieces_before(head, int limit, make, skip, bint classes=True):
    """The first `limit` text pieces before the headline element `head`, nearest first, as
    `stemmer.metadata.visible._pieces_before` reads them (distances -1, -2, ...)."""
    cdef xmlNode* node = (<cetree._Element?>head)._c_node
    cdef cetree._Document doc = (<cetree._Element>head)._doc
    cdef xmlNode* sib
    cdef list out = []
    _set_skip(skip)
    while node is not NULL and not _is_body(node) and len(out) < limit:
        sib = _like_before(node.prev)
        while sib is not NULL:
            _back(sib, out, limit, doc, make, classes)
            if len(out) >= limit:
                break
            sib = _like_before(sib.prev)
        node = _parent_of(node)
        if node is not NULL:
            _piece(out, node.children, doc, node, make, -1, _NONE, classes)
    del out[limit:]
    return out


# --- the elements that may hold a page's headline where it has no `<h1>` (`stemmer.metadata.visible`) ---------

cdef inline bint _class_has(xmlNode* node, const char* word):
    """Whether the ``class`` of `node` holds `word` (ASCII), as ``word in (node.get("class") or "")``."""
    cdef bint present
    cdef xmlNode* value = _one_text(node, "class", &present)
    if value is not NULL:
        return strstr(<const char*>value.content, word) is not NULL
    return present and word.decode() in (_attr(node, "class") or "")


cdef bint _alnum_over(xmlNode* top, Py_ssize_t limit) noexcept nogil:
    """Whether the text nodes below `top` hold more than `limit` ASCII letters and digits."""
    cdef Py_ssize_t n = 0
    cdef const unsigned char* c
    cdef xmlNode* node = top.children
    while node is not NULL:
        if node.type == tree.XML_TEXT_NODE and node.content is not NULL:
            c = <const unsigned char*>node.content
            while c[0] != 0:
                if _ascii_alnum(c[0]):
                    n += 1
                    if n > limit:
                        return True
                c += 1
        if node.type == tree.XML_ELEMENT_NODE and node.children is not NULL:
            node = node.children
            continue
        while node.next is NULL:
            node = node.parent
            if node is top:
                return False
        node = node.next
    return False


cdef int _add_title_like(list out, xmlNode* body, cetree._Document doc, Py_ssize_t limit) except -1:
    """Append `title_like`'s elements below `body` to `out`."""
    cdef xmlNode* node
    cdef const char* name
    cdef int depth = 0
    cdef bint found
    node = _next_in_order(body, body, &depth)
    while node is not NULL:
        if node.ns is NULL or node.ns.href is NULL:
            name = <const char*>node.name
            found = (strcmp(name, "h2") == 0 or strcmp(name, "h3") == 0 or strcmp(name, "h4") == 0
                     or (strcmp(name, "a") != 0 and strcmp(name, "meta") != 0 and strcmp(name, "img") != 0
                         and (_class_has(node, b"title") or _class_has(node, b"headline"))))
        else:  # a namespaced tag is none of those names
            found = _class_has(node, b"title") or _class_has(node, b"headline")
        if found and (limit < 0 or not _alnum_over(node, limit)):
            out.append(cetree.elementFactory(doc, node))
        node = _next_in_order(node, body, &depth)
    return 0


def title_like(top, Py_ssize_t limit=-1):
    """The elements in the `<body>`s at or below the top-level element `top` (a body inside another is
    the outer one's) that are `<h2>`-`<h4>`, or that are not `<a>`, `<meta>` or `<img>` and have "title"
    or "headline" in their class, in document order: what `stemmer.metadata.visible`'s walk in Python
    (`_title_like_elements`) yields, in one walk in C, with a proxy for those alone.  `limit` (not
    negative): only those whose text nodes hold at most `limit` ASCII letters and digits."""
    cdef xmlNode* root = (<cetree._Element?>top)._c_node
    cdef cetree._Document doc = (<cetree._Element>top)._doc
    cdef xmlNode* node = root
    cdef xmlNode* after
    cdef int depth = 0
    cdef list out = []
    while node is not NULL:
        if not _is_body(node):
            node = _next_in_order(node, root, &depth)
            continue
        _add_title_like(out, node, doc, limit)
        after = NULL  # the element after the body's subtree
        while node is not root:
            after = _next_element(node.next)
            if after is not NULL:
                break
            node = node.parent
        node = after
    return out
