"""A linear classifier trained for the ranking: all-pairs loss plus L2, by L-BFGS.

Needs scikit-learn and scipy (``pip install "fastauc[sklearn]"``); it is
imported on first use of ``fastauc.AUCLinearClassifier``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

try:
    from scipy.optimize import minimize
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.utils.multiclass import check_classification_targets, type_of_target
    from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data
except ImportError as exc:
    raise ImportError("fastauc.AUCLinearClassifier needs scikit-learn and scipy: "
                      'pip install "fastauc[sklearn]"') from exc

from ._pairwise import check_params
from .pairwise import pairwise_loss_gradient
from .thresholds import best_threshold

__all__ = ["AUCLinearClassifier"]


class AUCLinearClassifier(ClassifierMixin, BaseEstimator):
    """Linear model fitted to an all-pairs AUC surrogate with an L2 penalty.

    Minimises ``C * W * L(w) + ||w||**2 / 2`` over the coefficients ``w``,
    where ``L`` is :func:`fastauc.pairwise_loss` of the margins ``X @ w``
    (normalised by the pair weight) and ``W`` the rows' total weight (their
    number without weights), so ``W * L`` grows with the rows as
    :class:`~sklearn.linear_model.LogisticRegression`'s summed log loss does
    and ``C`` means what it means there.  L-BFGS (``scipy.optimize``) takes
    the loss's exact gradient, ``X.T @ pairwise_loss_gradient(...)``, in
    O(n log n + n * n_features) a step.  It is the logistic regression of
    the article, trained for the ranking instead.

    A pairwise loss does not see a constant shift of the margins, so the
    intercept is not fitted with ``w``: it is set afterwards between the
    training margins, at the threshold that maximises ``threshold_metric``
    (:func:`fastauc.best_threshold`).

    Parameters
    ----------
    loss : {"squared_hinge", "square", "hinge", "linear"}, default="squared_hinge"
        The all-pairs surrogate (:func:`fastauc.pairwise_loss`).  ``"aum"`` is
        refused: it scales with the margins, so its penalised minimum is
        ``coef_ = 0``.
    C : float, default=1.0
        Inverse regularisation strength (finite, > 0), as in
        :class:`~sklearn.linear_model.LogisticRegression`.
    margin : float, default=1.0
        The margin of the hinge and square losses: finite, > 0 for the hinge
        losses, >= 0 otherwise (unused by ``"linear"``).
    threshold_metric : {"accuracy", "f1", "fbeta", "mcc", "youden", "closest_topleft"}, \
default="accuracy"
        Metric of :func:`fastauc.best_threshold` whose best threshold on the
        training margins places the intercept (``"fbeta"`` with beta 1).
    max_iter : int, default=500
        The most L-BFGS iterations (>= 1); a ``ConvergenceWarning`` when they
        do not suffice.
    tol : float, default=1e-6
        L-BFGS's tolerance on the projected gradient (>= 0).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
        The coefficients ``w``.
    intercept_ : ndarray of shape (1,)
        Minus the cut between the training margins at the best threshold of
        ``threshold_metric``: rows with ``X @ w + intercept_ > 0`` are
        predicted positive.
    classes_ : ndarray of shape (2,)
        The two labels seen by ``fit``, sorted; the greater is positive.
    n_features_in_ : int
        Number of features seen by ``fit``.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of the features seen by ``fit``, when ``X`` has string column
        names (a pandas DataFrame).
    n_iter_ : ndarray of shape (1,)
        L-BFGS's iterations.
    loss_ : float
        The penalised objective at the solution.

    See Also
    --------
    fastauc.pairwise_loss_gradient : The loss and gradient minimised.
    fastauc.objectives : The same losses for gradient boosting.
    fastauc.torch.PairwiseAUCLoss : The same losses for neural networks.
    sklearn.linear_model.LogisticRegression : The same model fitted to the log loss.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import AUCLinearClassifier, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 3))
    >>> y = (X[:, 0] - X[:, 1] + rng.normal(size=400) > 1).astype(int)
    >>> clf = AUCLinearClassifier().fit(X, y)
    >>> round(roc_auc_score(y, clf.decision_function(X)), 2)
    0.89
    >>> clf.predict(X[:5])
    array([0, 0, 0, 0, 0])
    """

    def __init__(self, loss="squared_hinge", C=1.0, margin=1.0, threshold_metric="accuracy",
                 max_iter=500, tol=1e-6):
        self.loss = loss
        self.C = C
        self.margin = margin
        self.threshold_metric = threshold_metric
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _checked_margin(self):
        margin, _ = check_params(self.loss, self.margin, True)
        if self.loss == "aum":
            raise ValueError(
                "loss='aum' is not available here: the AUM scales with the scores "
                "(AUM(c * s) = c * AUM(s) for c > 0), so with an L2 penalty its minimum is "
                "coef_ = 0. Train the AUM where the step size fixes the scale (gradient "
                "boosting: fastauc.objectives) or in your own loop with "
                "fastauc.pairwise_loss_gradient.")
        if isinstance(self.C, bool) or not isinstance(self.C, (int, float, np.number)) \
                or not (math.isfinite(self.C) and self.C > 0):
            raise ValueError(f"C must be a finite number > 0, got {self.C!r}")
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, (int, np.integer)) \
                or self.max_iter < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {self.max_iter!r}")
        if not isinstance(self.tol, (int, float, np.number)) or not self.tol >= 0:
            raise ValueError(f"tol must be a number >= 0, got {self.tol!r}")
        return margin

    def fit(self, X, y, sample_weight=None):
        """Fit the coefficients by L-BFGS, then place the intercept.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,)
            Two classes; the greater label is positive.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights (a pair weighs the product of its rows');
            both classes need a positive total weight.

        Returns
        -------
        self : AUCLinearClassifier
            The fitted estimator.
        """
        margin = self._checked_margin()
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=False)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] != 2:
            raise ValueError(
                "Only binary classification is supported. "
                f"AUCLinearClassifier is a binary classifier: y has {self.classes_.shape[0]} "
                f"class(es) {self.classes_.tolist()[:5]}, it needs exactly 2 "
                f"(type_of_target: {type_of_target(y)!r})")
        w = _check_sample_weight(sample_weight, X)
        is_pos = y == self.classes_[1]
        for cls, rows in ((self.classes_[1], is_pos), (self.classes_[0], ~is_pos)):
            if not w[rows].sum() > 0:
                raise ValueError(
                    f"AUCLinearClassifier needs both classes with positive weight: class "
                    f"{cls!r} has total sample_weight 0, so there is no pair to rank")
        scale = float(self.C) * float(w.sum())  # the rows' weight: weights are repetitions

        def objective(coef):
            margins = X @ coef
            value, grad = pairwise_loss_gradient(is_pos, margins, loss=self.loss, margin=margin,
                                                 sample_weight=w)
            return scale * value + 0.5 * coef @ coef, scale * (X.T @ grad) + coef

        res = minimize(objective, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B",
                       options={"maxiter": int(self.max_iter), "gtol": float(self.tol)})
        if not res.success and res.nit >= self.max_iter:
            warnings.warn(f"L-BFGS did not converge in {self.max_iter} iterations "
                          f"({res.message}); raise max_iter or scale the features",
                          ConvergenceWarning, stacklevel=2)
        self.coef_ = res.x.reshape(1, -1)
        self.n_iter_ = np.array([max(1, res.nit)])
        self.loss_ = float(res.fun)
        self.intercept_ = np.array([-_cut(X @ res.x, is_pos, w, self.threshold_metric)])
        return self

    def decision_function(self, X):
        """Margins ``X @ coef_ + intercept_``: they rank, they are not
        probabilities; a row is predicted positive where its margin is > 0."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X):
        """The class of each row: positive where the margin is > 0."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.intp)]


def _cut(margins, is_pos, w, metric):
    """A cut between training margins: the rows at or above the best
    threshold (``best_threshold``'s rule) lie strictly above it, the others
    strictly below (up to rounding when two margins are adjacent floats)."""
    keep = w > 0  # rows of weight zero are as good as absent
    margins, is_pos, w = margins[keep], is_pos[keep], w[keep]
    threshold = best_threshold(is_pos, margins, metric=metric, sample_weight=w).threshold
    below = margins[margins < threshold]
    if not math.isfinite(threshold):  # every row on one side
        return float(margins.max()) + 1.0 if threshold > 0 else float(margins.min()) - 1.0
    if below.shape[0] == 0:
        return threshold - 1.0
    return 0.5 * (threshold + float(below.max()))
