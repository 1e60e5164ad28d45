# cython: boundscheck=False, wraparound=False, language_level=3
"""The decision of a `TreeScorer` in C: each sample's leaf in every tree, leaf values summed in tree order.

The same rule as the numpy walk in `stemmer.classify.scorers`: a sample goes left
where its feature is <= the node's threshold, or is NaN and the node sends
missing values left.  A float32 feature is compared with the largest float32 at
or below the float64 threshold: the same answer as comparing it as the float64 it
converts to, so either dtype gives the same sums.

Where every tree has at most 64 leaves (scikit-learn's default is 31), the leaves
are found as QuickScorer does (Lucchese et al., SIGIR 2015), feature by feature
instead of node by node: a tree's leaves are numbered left to right, a node whose
test a sample fails (it goes right) rules out the leaves of its left subtree, and
the sample's leaf is the leftmost one left.  The nodes of each feature sorted by
threshold, a sample's failed tests are a prefix of them; eight samples are read
together, to their largest value, so the scan's one unpredictable branch (where
it stops) is taken once per eight, and each test is applied to the eight as
vectors where the C compiler has them.  Other trees are walked node by node.
"""
from cython cimport floating
from libc.math cimport INFINITY, isnan, nextafterf
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define stemmer_ctz64(x) __builtin_ctzll(x)
    #else
    static inline int stemmer_ctz64(unsigned long long x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
    #endif
    """
    int stemmer_ctz64(unsigned long long x) nogil

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* The scan of one feature's tests for a group of eight rows (values `xs`, the largest `top`), from test
       `j` while its cut is below `top`: each row whose value is above a test's cut fails it, and keeps only
       the leaves the test's `keep` leaves possible.  GCC and clang compare the eight rows as vectors of
       doubles (a float's double is the same number, so the same answers) on any target their vector types
       compile for; other compilers row by row.  Integer masks either way: the same leaves. */
    #if defined(__GNUC__) || defined(__clang__)
    /* pairs of rows: a vector of the width SSE2 and NEON have (wider ones GCC compares element by element) */
    typedef double stemmer_v2d __attribute__((vector_size(16)));
    typedef int64_t stemmer_v2l __attribute__((vector_size(16)));
    #define STEMMER_SCAN8(NAME, T)                                                                         \
    static inline void NAME(uint64_t* leaves, const T* xs, T top, const T* cuts, const uint64_t* keeps,    \
                            const int* tree, Py_ssize_t j, Py_ssize_t end) {                               \
        stemmer_v2d x[4], c;                                                                              \
        stemmer_v2l p, k;                                                                                 \
        for (int h = 0; h < 4; h++) x[h] = (stemmer_v2d){(double)xs[2 * h], (double)xs[2 * h + 1]};       \
        for (; j < end && cuts[j] < top; j++) {                                                           \
            c = (stemmer_v2d){(double)cuts[j], (double)cuts[j]};                                          \
            k = (stemmer_v2l){(int64_t)keeps[j], (int64_t)keeps[j]};                                      \
            uint64_t* possible = leaves + 8 * tree[j];                                                    \
            for (int h = 0; h < 4; h++) {                                                                 \
                memcpy(&p, possible + 2 * h, sizeof p);                                                   \
                p &= k | ~(stemmer_v2l)(c < x[h]);  /* -1 where the row fails */                          \
                memcpy(possible + 2 * h, &p, sizeof p);                                                   \
            }                                                                                             \
        }                                                                                                 \
    }
    STEMMER_SCAN8(stemmer_scan8_f, float)
    STEMMER_SCAN8(stemmer_scan8_d, double)
    #else
    #define STEMMER_SCAN8_SCALAR(NAME, T)                                                                  \
    static inline void NAME(uint64_t* leaves, const T* xs, T top, const T* cuts, const uint64_t* keeps,    \
                            const int* tree, Py_ssize_t j, Py_ssize_t end) {                               \
        for (; j < end && cuts[j] < top; j++)                                                             \
            for (int g = 0; g < 8; g++) leaves[8 * tree[j] + g] &= cuts[j] < xs[g] ? keeps[j] : ~(uint64_t)0; \
    }
    STEMMER_SCAN8_SCALAR(stemmer_scan8_f, float)
    STEMMER_SCAN8_SCALAR(stemmer_scan8_d, double)
    #endif
    """
    void stemmer_scan8_f(uint64_t* leaves, const float* xs, float top, const float* cuts, const uint64_t* keeps,
                         const int* tree, Py_ssize_t j, Py_ssize_t end) nogil
    void stemmer_scan8_d(uint64_t* leaves, const double* xs, double top, const double* cuts,
                         const uint64_t* keeps, const int* tree, Py_ssize_t j, Py_ssize_t end) nogil


ctypedef struct Node:
    double threshold     # the leaf's value at a leaf
    float threshold32    # the largest float32 <= threshold
    int feature          # -1 at a leaf
    int child[2]         # left, right
    int missing_left


cdef enum:
    GROUP = 8  # samples read together by the feature scan (as many as `stemmer_scan8_*` compare)
    MAX_LEAVES = 64  # leaves of a tree the feature scan can number (bits of a mask)


cdef float _below32(double t) noexcept:
    """The largest float32 <= `t`."""
    cdef float f = <float>t
    if <double>f > t:
        f = nextafterf(f, -INFINITY)
    return f


cdef class Trees:
    """A `TreeScorer`'s arrays as node records (`decide`'s walk) or as tests sorted by feature (its scan)."""

    cdef Node* nodes
    cdef int* roots
    cdef Py_ssize_t n_nodes, n_trees
    cdef double baseline
    cdef int max_feature       # the largest feature tested (-1: none)
    # the scan's tables; `scan` False where a tree does not fit them
    cdef bint scan
    cdef int n_used
    cdef int* used           # the features tested, ascending
    cdef int* starts         # per used feature, its tests at [starts[k], starts[k + 1])
    cdef float* cut32        # per test, its threshold as float32 (`_below32`), ascending per feature
    cdef double* cut         # per test, its threshold
    cdef int* tree           # per test, its tree
    cdef unsigned char* missing_left
    cdef uint64_t* keeps     # per test, the tree's leaves it leaves possible when failed
    cdef uint64_t* all_leaves  # per tree, a bit per leaf
    cdef int* first_leaf     # per tree, its leftmost leaf's offset in `leaf_value`
    cdef double* leaf_value  # the leaves' values, tree by tree, left to right
    cdef tuple tables  # the arrays the pointers above read

    def __cinit__(self, const int[::1] feature, const double[::1] threshold, const int[::1] left,
                  const int[::1] right, const unsigned char[::1] missing_left, const unsigned char[::1] leaf,
                  const double[::1] value, const int[::1] roots, double baseline):
        cdef Py_ssize_t i, n = feature.shape[0]
        self.n_nodes, self.n_trees, self.baseline = n, roots.shape[0], baseline
        self.nodes = <Node*>malloc(max(n, 1) * sizeof(Node))
        self.roots = <int*>malloc(max(self.n_trees, 1) * sizeof(int))
        if self.nodes is NULL or self.roots is NULL:
            raise MemoryError()
        for i in range(n):
            if leaf[i]:
                self.nodes[i].feature = -1
                self.nodes[i].threshold = value[i]
                self.nodes[i].threshold32 = 0
                self.nodes[i].child[0] = self.nodes[i].child[1] = 0
                self.nodes[i].missing_left = 0
                continue
            self.nodes[i].feature = feature[i]
            self.nodes[i].threshold = threshold[i]
            self.nodes[i].threshold32 = _below32(threshold[i])
            self.nodes[i].child[0], self.nodes[i].child[1] = left[i], right[i]
            self.nodes[i].missing_left = missing_left[i]
        for i in range(self.n_trees):
            self.roots[i] = roots[i]
        self.max_feature = -1
        for i in range(n):
            if not leaf[i] and feature[i] > self.max_feature:
                self.max_feature = feature[i]
        self.scan = self._number_leaves(np.asarray(leaf, dtype=bool), np.asarray(feature), np.asarray(threshold),
                                        np.asarray(left), np.asarray(missing_left), np.asarray(value))

    def _number_leaves(self, leaf, feature, threshold, left, missing_left, value) -> bool:
        """Fill the scan's tables; False (the walk decides) where a tree has more than `MAX_LEAVES`
        leaves, a NaN threshold or a node shared or reached twice."""
        cdef Py_ssize_t n = self.n_nodes, i, t, top, node, pos, count = 0
        cdef int[::1] lo = np.zeros(n, dtype=np.int32), hi = np.zeros(n, dtype=np.int32)
        cdef int[::1] tree_of = np.full(n, -1, dtype=np.int32)
        cdef int[::1] stack = np.empty(4 * n + 4, dtype=np.int32)  # (node, 0: first visit / 1: after its children)
        cdef int[::1] first_leaf = np.zeros(self.n_trees + 1, dtype=np.int32)
        cdef long long[::1] order = np.empty(n, dtype=np.int64)  # the leaves, tree by tree, left to right
        if n == 0 or np.isnan(threshold[~leaf]).any():
            return False
        for t in range(self.n_trees):
            pos = 0
            first_leaf[t] = count
            top = 0
            stack[0], stack[1] = self.roots[t], 0
            while top >= 0:
                node = stack[2 * top]
                if stack[2 * top + 1]:  # its children numbered: its leaves are theirs
                    top -= 1
                    lo[node], hi[node] = lo[self.nodes[node].child[0]], hi[self.nodes[node].child[1]]
                    continue
                if tree_of[node] >= 0:
                    return False
                tree_of[node] = t
                if self.nodes[node].feature < 0:
                    if pos == MAX_LEAVES:
                        return False
                    lo[node], hi[node] = pos, pos + 1
                    order[count] = node
                    pos += 1
                    count += 1
                    top -= 1
                    continue
                stack[2 * top + 1] = 1
                stack[2 * top + 2], stack[2 * top + 3] = self.nodes[node].child[1], 0  # right under left: left first
                stack[2 * top + 4], stack[2 * top + 5] = self.nodes[node].child[0], 0
                top += 2
        first_leaf[self.n_trees] = count
        inner = np.flatnonzero((np.asarray(tree_of) >= 0) & ~leaf)
        lo_, hi_ = np.asarray(lo, dtype=np.uint64)[left[inner]], np.asarray(hi, dtype=np.uint64)[left[inner]]
        keeps = ~(((np.uint64(1) << (hi_ - lo_)) - np.uint64(1)) << lo_)  # a left subtree has at most 63 leaves
        by = np.lexsort((threshold[inner], feature[inner]))
        inner, keeps = inner[by], keeps[by]
        used, starts = np.unique(feature[inner], return_index=True)
        leaves = np.diff(np.asarray(first_leaf)).astype(np.uint64)
        all_leaves = np.where(leaves == MAX_LEAVES, ~np.uint64(0),
                              (np.uint64(1) << np.minimum(leaves, MAX_LEAVES - 1)) - np.uint64(1))
        self.n_used = len(used)
        cut32 = np.empty(len(inner), dtype=np.float32)
        cdef float[::1] cut32_ = cut32
        cut = np.ascontiguousarray(threshold[inner], dtype=np.float64)
        cdef const double[::1] cut_ = cut
        for i in range(len(inner)):
            cut32_[i] = _below32(cut_[i])
        # the tables as arrays, kept with the object; the pointers below read them
        self.tables = (np.ascontiguousarray(used, dtype=np.int32),
                       np.ascontiguousarray(np.append(starts, len(inner)), dtype=np.int32),
                       cut32, cut,
                       np.ascontiguousarray(np.asarray(tree_of)[inner], dtype=np.int32),
                       np.ascontiguousarray(missing_left[inner] != 0).view(np.uint8),
                       np.ascontiguousarray(keeps, dtype=np.uint64),
                       np.ascontiguousarray(all_leaves, dtype=np.uint64),
                       np.ascontiguousarray(np.asarray(first_leaf), dtype=np.int32),
                       np.ascontiguousarray(value[np.asarray(order)[:count]], dtype=np.float64))
        self.used, self.starts = <int*>_address(self.tables[0]), <int*>_address(self.tables[1])
        self.cut32, self.cut = <float*>_address(self.tables[2]), <double*>_address(self.tables[3])
        self.tree = <int*>_address(self.tables[4])
        self.missing_left = <unsigned char*>_address(self.tables[5])
        self.keeps, self.all_leaves = <uint64_t*>_address(self.tables[6]), <uint64_t*>_address(self.tables[7])
        self.first_leaf, self.leaf_value = <int*>_address(self.tables[8]), <double*>_address(self.tables[9])
        return True

    def __dealloc__(self):
        free(self.nodes)
        free(self.roots)

    def decide(self, const floating[:, ::1] X, double[::1] out):
        """Write the sum of the trees' leaf values plus the baseline for each row of `X` into `out`."""
        if out.shape[0] != X.shape[0]:
            raise ValueError(f"{X.shape[0]} rows but room for {out.shape[0]} sums")
        cdef uint64_t* leaves
        if self.max_feature >= X.shape[1]:
            raise ValueError(f"the trees test feature {self.max_feature} but the rows have {X.shape[1]}")
        if self.scan:
            leaves = <uint64_t*>malloc(max(self.n_trees, 1) * GROUP * sizeof(uint64_t))
            if leaves is NULL:
                raise MemoryError()
            self._scan(X, out, leaves)
            free(leaves)
        else:
            self._walk(X, out)

    cdef void _walk(self, const floating[:, ::1] X, double[::1] out) noexcept:
        cdef Py_ssize_t i, t, n = X.shape[0]
        cdef const Node* node
        cdef double x
        with nogil:
            for i in range(n):
                out[i] = self.baseline
            for t in range(self.n_trees):
                for i in range(n):
                    node = &self.nodes[self.roots[t]]
                    while node.feature >= 0:
                        x = X[i, node.feature]
                        if (<float>x <= node.threshold32) if floating is float else (x <= node.threshold):
                            node = &self.nodes[node.child[0]]
                        elif node.missing_left and isnan(x):
                            node = &self.nodes[node.child[0]]
                        else:
                            node = &self.nodes[node.child[1]]
                    out[i] += node.threshold

    cdef void _scan(self, const floating[:, ::1] X, double[::1] out, uint64_t* leaves) noexcept:
        """QuickScorer's scan, `GROUP` rows at a time (a short last group repeats its last row); `leaves`:
        room for a mask per tree and row of a group."""
        cdef Py_ssize_t i0 = 0, n = X.shape[0], j, end
        cdef int k, t, g, m, col, n_trees = self.n_trees, n_used = self.n_used
        cdef floating xs[GROUP]
        cdef floating x, top
        cdef bint nan
        cdef double acc
        # the tables as locals: the compiler cannot tell that the masks' stores leave `self` alone
        cdef const floating* cuts = <const floating*>self.cut32 if floating is float else <const floating*>self.cut
        cdef const int* used = self.used
        cdef const int* starts = self.starts
        cdef const int* tree = self.tree
        cdef const unsigned char* missing_left = self.missing_left
        cdef const uint64_t* keeps = self.keeps
        cdef const uint64_t* all_leaves = self.all_leaves
        cdef const int* first_leaf = self.first_leaf
        cdef const double* leaf_value = self.leaf_value
        cdef double baseline = self.baseline
        with nogil:
            while i0 < n:
                m = n - i0 if n - i0 < GROUP else GROUP
                for t in range(n_trees):
                    for g in range(GROUP):
                        leaves[t * GROUP + g] = all_leaves[t]
                for k in range(n_used):
                    col = used[k]
                    for g in range(GROUP):
                        xs[g] = X[i0 + (g if g < m else m - 1), col]
                    top = xs[0]
                    nan = False
                    for g in range(GROUP):
                        top = xs[g] if xs[g] > top else top
                        nan |= xs[g] != xs[g]
                    j, end = starts[k], starts[k + 1]
                    if nan:  # a NaN fails the tests that send missing values right
                        for g in range(GROUP):
                            x = xs[g]
                            for j in range(starts[k], end):
                                if cuts[j] < x or (x != x and not missing_left[j]):
                                    leaves[tree[j] * GROUP + g] &= keeps[j]
                        continue
                    if floating is float:
                        stemmer_scan8_f(leaves, xs, top, cuts, keeps, tree, j, end)
                    else:
                        stemmer_scan8_d(leaves, xs, top, cuts, keeps, tree, j, end)
                for g in range(m):
                    acc = baseline
                    for t in range(n_trees):
                        acc += leaf_value[first_leaf[t] + stemmer_ctz64(leaves[t * GROUP + g])]
                    out[i0 + g] = acc
                i0 += GROUP


cdef void* _address(a):
    """Where a numpy array's data start (it is kept alive by its owner)."""
    return <void*><size_t>a.ctypes.data
