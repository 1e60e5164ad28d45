# cython: boundscheck=False, wraparound=False, language_level=3
"""The decision of a `TreeScorer` in C: each sample walked down every tree, leaf values summed.

The same rule as the numpy walk in `stemmer.classify.scorers`: a sample goes left
where its feature is <= the node's threshold, or is NaN and the node sends
missing values left.  `X` may be float32 (the features) or float64: a float32 is
compared as the float64 it converts to exactly, so either gives the same sums.
"""
from cython cimport floating
from libc.math cimport isnan


def decide(const floating[:, ::1] X, const int[::1] feature, const double[::1] threshold,
           const int[::1] left, const int[::1] right, const unsigned char[::1] missing_left,
           const unsigned char[::1] leaf, const double[::1] value, const int[::1] roots,
           double baseline, double[::1] out):
    """Write the sum of the trees' leaf values plus `baseline` for each row of `X` into `out`."""
    cdef Py_ssize_t i, t, n = X.shape[0], n_trees = roots.shape[0]
    cdef int node
    cdef double x, acc
    with nogil:
        for i in range(n):
            acc = baseline
            for t in range(n_trees):
                node = roots[t]
                while not leaf[node]:
                    x = X[i, feature[node]]
                    if isnan(x):
                        node = left[node] if missing_left[node] else right[node]
                    elif x <= threshold[node]:
                        node = left[node]
                    else:
                        node = right[node]
                acc += value[node]
            out[i] = acc
