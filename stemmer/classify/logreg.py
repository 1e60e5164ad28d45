"""Binary L2 logistic regression in numpy and scipy, equal to scikit-learn's default one.

The site model analyze trains for every site is one; scikit-learn's import
costs a fresh process 1-2 s that `stemmer analyze` of a small site should not pay.
"""
from __future__ import annotations

import numpy as np

# Keyword arguments of the ``logreg`` estimator that `fit_logreg` takes; any other goes to scikit-learn.
LOGREG_PARAMS = ("C", "max_iter", "tol")


def standardize(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and scales as scikit-learn's ``StandardScaler().fit(X)`` gives them.

    The scale is the population standard deviation, or 1 for a column that is
    constant up to rounding (StandardScaler's test: the variance is within the
    error bound of the two-pass algorithm), so constant columns divide by 1.
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    mean = X.mean(axis=0) if n else np.zeros(X.shape[1])
    var = X.var(axis=0) if n else np.zeros(X.shape[1])
    eps = np.finfo(np.float64).eps
    constant = var <= n * eps * var + (n * mean * eps) ** 2
    scale = np.sqrt(var)
    scale[constant | ~(scale > 0)] = 1.0
    return mean, scale


def fit_logreg(Z: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None, *, C: float = 1.0,
               max_iter: int = 100, tol: float = 1e-4) -> tuple[np.ndarray, float]:
    """Binary L2 logistic regression with an unpenalised intercept, in numpy and scipy.

    The objective and solver of scikit-learn's ``LogisticRegression(C=C)`` (lbfgs):
    minimise ``sum_i s_i log(1 + exp(-y_i' z_i)) / S + ||w||^2 / (2 C S)``, S the sum
    of the sample weights, by L-BFGS-B from zeros with its options (``gtol=tol``,
    ``maxls=50``, ``ftol=64 eps``), so the coefficients agree to the solver's
    tolerance.  No scikit-learn import: it costs a fresh process some 1-2 s,
    which `stemmer analyze` of a small site should not pay.

    Args:
        Z: the (standardised) features, one row per sample.
        y: two classes; the greater is the positive one (scikit-learn's ``classes_[1]``).
        sample_weight: per sample, > 0; None: all 1.

    Returns:
        (coef, intercept).

    Raises:
        ValueError: y holds fewer or more than two classes.
    """
    from scipy.optimize import minimize
    from scipy.special import expit

    Z = np.asarray(Z, dtype=np.float64)
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"logistic regression needs samples of 2 classes, got {len(classes)}")
    t = (np.asarray(y) == classes[1]).astype(np.float64)
    n, d = Z.shape
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    s_sum = float(s.sum())
    s = s / s_sum
    l2 = 1.0 / (C * s_sum)

    def loss_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w = theta[:d]
        z = Z @ w + theta[d]
        loss = float(s @ (np.logaddexp(0.0, z) - t * z)) + 0.5 * l2 * float(w @ w)
        r = s * (expit(z) - t)
        grad = np.empty(d + 1)
        grad[:d] = Z.T @ r + l2 * w
        grad[d] = r.sum()
        return loss, grad

    res = minimize(loss_grad, np.zeros(d + 1), method="L-BFGS-B", jac=True,
                   options={"maxiter": max_iter, "maxls": 50, "gtol": tol, "ftol": 64 * np.finfo(float).eps})
    if res.status == 1:  # scikit-learn's ConvergenceWarning, without scikit-learn
        import warnings

        warnings.warn(f"logistic regression did not converge in {max_iter} iterations", RuntimeWarning,
                      stacklevel=2)
    return res.x[:d].copy(), float(res.x[d])
