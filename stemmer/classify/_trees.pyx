# cython: boundscheck=False, wraparound=False, language_level=3
"""The decision of a `TreeScorer` in C: each sample walked down every tree, leaf values summed.

The same rule as the numpy walk in `stemmer.classify.scorers`: a sample goes left
where its feature is <= the node's threshold, or is NaN and the node sends
missing values left.  `Trees` packs a node's fields into one record (one cache
line read per node instead of one per array).  A float32 feature is compared
with the largest float32 at or below the float64 threshold: the same answer as
comparing it as the float64 it converts to, so either dtype gives the same sums.
"""
from cython cimport floating
from libc.math cimport INFINITY, isnan, nextafterf
from libc.stdlib cimport free, malloc


ctypedef struct Node:
    double threshold     # the leaf's value at a leaf
    float threshold32    # the largest float32 <= threshold
    int feature          # -1 at a leaf
    int child[2]         # left, right
    int missing_left


cdef class Trees:
    """A `TreeScorer`'s arrays packed as node records, for `decide`."""

    cdef Node* nodes
    cdef int* roots
    cdef Py_ssize_t n_nodes, n_trees
    cdef double baseline

    def __cinit__(self, const int[::1] feature, const double[::1] threshold, const int[::1] left,
                  const int[::1] right, const unsigned char[::1] missing_left, const unsigned char[::1] leaf,
                  const double[::1] value, const int[::1] roots, double baseline):
        cdef Py_ssize_t i, n = feature.shape[0]
        cdef float f
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
            f = <float>threshold[i]
            if <double>f > threshold[i]:
                f = nextafterf(f, -INFINITY)
            self.nodes[i].threshold32 = f
            self.nodes[i].child[0], self.nodes[i].child[1] = left[i], right[i]
            self.nodes[i].missing_left = missing_left[i]
        for i in range(self.n_trees):
            self.roots[i] = roots[i]

    def __dealloc__(self):
        free(self.nodes)
        free(self.roots)

    def decide(self, const floating[:, ::1] X, double[::1] out):
        """Write the sum of the trees' leaf values plus the baseline for each row of `X` into `out`."""
        cdef Py_ssize_t i, t, n = X.shape[0]
        cdef const Node* node
        cdef double x, acc
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
