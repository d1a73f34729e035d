"""The result types of the inference functions: frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from functools import cached_property

import numpy as np

from ._kernels.thresholds import ACCURACY, FBETA, MCC, YOUDEN, values

__all__ = ["BootstrapResult", "BootstrapTestResult", "BrierDecomposition", "ConfidenceInterval",
           "DeLongTestResult", "GainsTable", "MannWhitneyResult", "ReliabilityCurve",
           "ThresholdMetrics"]


@dataclass(frozen=True)
class MannWhitneyResult:
    """Result of :func:`mann_whitney_u`: the rank-sum test of the positive
    class's scores against the negative class's.

    Attributes
    ----------
    statistic : float
        U of the positive class: the (weighted) number of positive-negative
        pairs in which the positive scores higher, ties counting one half.
    pvalue : float
        p-value of the test, for the ``alternative`` asked for.
    auc : float
        ``statistic / (n_pos * n_neg)``: the ROC AUC of the scores.
    n_pos : float
        Number (total weight) of positives.
    n_neg : float
        Number (total weight) of negatives.
    method : str
        ``"exact"`` or ``"asymptotic"``: the method used.

    See Also
    --------
    mann_whitney_u : The function returning this record.
    roc_auc_score : The same AUC, without the test.

    Examples
    --------
    >>> from fastauc import mann_whitney_u
    >>> res = mann_whitney_u([1, 1, 1, 1, 1, 0, 0, 0, 0],
    ...                      [19, 22, 16, 29, 24, 20, 11, 17, 12])
    >>> res.statistic, res.auc, res.n_pos, res.n_neg, res.method
    (17.0, 0.85, 5.0, 4.0, 'exact')
    """

    statistic: float  #: U of the positive class (weighted pair count)
    pvalue: float
    auc: float  #: ``statistic / (n_pos * n_neg)``
    n_pos: float  #: number (total weight) of positives
    n_neg: float  #: number (total weight) of negatives
    method: str  #: "exact" or "asymptotic", the method used



@dataclass(frozen=True)
class ConfidenceInterval:
    """An AUC with a confidence interval (:func:`roc_auc_ci`).

    All four numbers are NaN when the AUC is undefined (one class only).

    Attributes
    ----------
    estimate : float
        The ROC AUC of all rows (the float :func:`roc_auc_score` returns).
    low, high : float
        The interval's bounds, within [0, 1].
    se : float
        DeLong's standard error of the AUC.
    method : str
        ``"delong"`` (Wald interval) or ``"delong-logit"`` (Wald interval
        on the logit scale, ``transform="logit"``).
    confidence_level : float
        The interval's level, e.g. 0.95.

    See Also
    --------
    roc_auc_ci : The function returning this record.
    BootstrapResult : What ``roc_auc_ci(method="bootstrap")`` returns.

    Examples
    --------
    >>> from fastauc import roc_auc_ci
    >>> ci = roc_auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> round(ci.estimate, 4), round(ci.low, 4), ci.high, ci.method
    (0.8889, 0.5809, 1.0, 'delong')
    """

    estimate: float
    low: float
    high: float
    se: float
    method: str
    confidence_level: float



@dataclass(frozen=True)
class DeLongTestResult:
    """Result of :func:`delong_test`, the test of two AUCs (paired or not).

    Attributes
    ----------
    statistic : float
        The z statistic ``(difference - margin) / se`` (paired); for two
        models on different rows the same ratio, referred to Student's t
        with ``df`` degrees of freedom.
    pvalue : float
        Its normal (paired) or t (unpaired) p-value for ``alternative``.
    difference : float
        ``auc_a - auc_b``.
    low, high : float
        Confidence interval of the difference, within [-1, 1]; one-sided
        (``high == 1`` or ``low == -1``) for a one-sided ``alternative``.
    se : float
        DeLong's standard error of the difference.
    auc_a, auc_b : float
        The two models' AUCs.
    alternative : str
        ``"two-sided"``, ``"less"`` or ``"greater"``.
    confidence_level : float
        The interval's level, e.g. 0.95.
    df : float
        Degrees of freedom of the Student t the statistic is referred to
        (Welch-Satterthwaite, for two models on different rows); ``inf`` for
        the paired test (the normal).
    margin : float
        The value the difference is tested against: the statistic is
        ``(difference - margin) / se``.

    See Also
    --------
    delong_test : The function returning this record.
    BootstrapTestResult : The paired bootstrap's record.

    Examples
    --------
    >>> from fastauc import delong_test
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> res = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.3, 0.9],
    ...                   [0.2, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    >>> res.auc_a, res.auc_b, res.difference, res.se
    (0.9375, 0.6875, 0.25, 0.25)
    """

    statistic: float  #: z
    pvalue: float
    difference: float  #: ``auc_a - auc_b``
    low: float  #: confidence interval of the difference
    high: float
    se: float  #: standard error of the difference
    auc_a: float
    auc_b: float
    alternative: str
    confidence_level: float
    #: degrees of freedom of the t reference (unpaired test); inf: the normal (paired)
    df: float = math.inf
    #: the margin the difference is tested against (0: equal AUCs)
    margin: float = 0.0



@dataclass(frozen=True)
class BootstrapResult:
    """Result of :func:`bootstrap_ci` (and of ``roc_auc_ci(method="bootstrap")``).

    Attributes
    ----------
    estimate : float
        The metric on all rows (the float the in-memory metric returns).
    low, high : float
        The interval's bounds.
    se : float
        Standard deviation of the replicates that were kept.
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    confidence_level : float
        The interval's level, e.g. 0.95.
    n_resamples : int
        Replicates drawn.
    n_dropped : int
        Replicates left out because their resample had a single class (or
        no weight in a class).
    metric : str
        ``"roc_auc"``, ``"average_precision"`` or ``"log_loss"``.
    replicates : ndarray of shape (n_resamples,)
        The metric on each replicate, NaN where dropped (not in the repr).

    See Also
    --------
    bootstrap_ci : The function returning this record.
    ConfidenceInterval : DeLong's interval of the AUC.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import bootstrap_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> res = bootstrap_ci(y, y + rng.normal(size=500), n_resamples=200, random_state=1)
    >>> round(res.estimate, 3), res.replicates.shape, res.n_dropped
    (0.727, (200,), 0)
    """

    estimate: float
    low: float
    high: float
    se: float  #: standard deviation of the replicates
    method: str
    confidence_level: float
    n_resamples: int
    n_dropped: int  #: replicates with one class only (``stratified=False``)
    metric: str
    replicates: np.ndarray = field(repr=False)  #: NaN where dropped



@dataclass(frozen=True)
class BootstrapTestResult:
    """Result of :func:`bootstrap_test`, the paired bootstrap comparison.

    Attributes
    ----------
    statistic : float
        ``difference / se``.
    pvalue : float
        Its normal p-value for ``alternative`` (pROC's bootstrap test).
    difference : float
        ``estimate_a - estimate_b``.
    low, high : float
        Confidence interval of the difference.
    se : float
        Standard deviation of the replicate differences.
    estimate_a, estimate_b : float
        The metric of each model on all rows.
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    alternative : str
        ``"two-sided"``, ``"less"`` or ``"greater"``.
    confidence_level : float
        The interval's level, e.g. 0.95.
    n_resamples : int
        Replicates drawn.
    n_dropped : int
        Replicates left out because their resample had a single class.
    metric : str
        ``"roc_auc"``, ``"average_precision"`` or ``"log_loss"``.
    replicates : ndarray of shape (n_resamples, 2)
        The metric of model a (column 0) and model b (column 1) on each
        replicate, NaN where dropped (not in the repr).

    See Also
    --------
    bootstrap_test : The function returning this record.
    DeLongTestResult : DeLong's paired test of two AUCs.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import bootstrap_test
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> a, b = y + rng.normal(size=500), y + 2 * rng.normal(size=500)
    >>> res = bootstrap_test(y, a, b, n_resamples=200, random_state=1)
    >>> round(res.difference, 4), res.replicates.shape
    (0.0794, (200, 2))
    """

    statistic: float  #: ``difference / se``
    pvalue: float
    difference: float  #: ``estimate_a - estimate_b``
    low: float  #: confidence interval of the difference
    high: float
    se: float  #: standard deviation of the replicate differences
    estimate_a: float
    estimate_b: float
    method: str
    alternative: str
    confidence_level: float
    n_resamples: int
    n_dropped: int
    metric: str
    replicates: np.ndarray = field(repr=False)  #: (n_resamples, 2): model a, model b


@dataclass(frozen=True)
class GainsTable:
    """Per-bin gains and lift (:func:`gains_table`); arrays of length ``n_bins``.

    Bins hold equal (weighted) shares of the rows, highest scores first; a
    group of tied scores cut by a bin edge counts in proportion, so counts
    can be fractional.  ``str()`` prints the table, ``to_dict()`` gives lists.

    Attributes
    ----------
    bin : ndarray of shape (n_bins,)
        Bin numbers, 1 to ``n_bins`` (1: the highest scores).
    count : ndarray of shape (n_bins,)
        (Weighted) rows in each bin.
    positives : ndarray of shape (n_bins,)
        (Weighted) positives in each bin.
    rate : ndarray of shape (n_bins,)
        ``positives / count``.
    cumulative_gain : ndarray of shape (n_bins,)
        Share of all positives in bins 1 to b.
    lift : ndarray of shape (n_bins,)
        ``rate / base_rate``.
    cumulative_lift : ndarray of shape (n_bins,)
        Positive rate of bins 1 to b over ``base_rate``.
    base_rate : float
        The overall (weighted) positive rate.

    See Also
    --------
    gains_table : The function returning this record.
    lift_at : The lift of one top fraction.
    plot_gains : The gains curve and lift chart.

    Examples
    --------
    >>> from fastauc import gains_table
    >>> g = gains_table([1, 0, 1, 0, 0, 0, 0, 0, 0, 1], list(range(10, 0, -1)), n_bins=5)
    >>> g.base_rate
    0.3
    >>> g.lift
    array([1.66666667, 1.66666667, 0.        , 0.        , 1.66666667])
    >>> print(g)
     bin       count   positives     rate  cum. gain    lift  cum. lift
       1           2           1   0.5000     0.3333   1.667      1.667
       2           2           1   0.5000     0.6667   1.667      1.667
       3           2           0   0.0000     0.6667   0.000      1.111
       4           2           0   0.0000     0.6667   0.000      0.833
       5           2           1   0.5000     1.0000   1.667      1.000
    """

    bin: np.ndarray
    count: np.ndarray  #: (weighted) rows in the bin
    positives: np.ndarray  #: (weighted) positives in the bin
    rate: np.ndarray  #: positives / count
    cumulative_gain: np.ndarray  #: share of all positives in bins 1..b
    lift: np.ndarray  #: rate / overall positive rate
    cumulative_lift: np.ndarray  #: cumulative rate / overall positive rate
    base_rate: float = field(default=0.0)

    def to_dict(self):
        """Every field as a list (``base_rate`` as a float): JSON-ready."""
        return {k: (val.tolist() if isinstance(val, np.ndarray) else val)
                for k, val in self.__dict__.items()}

    def __str__(self):
        lines = [f"{'bin':>4}{'count':>12}{'positives':>12}{'rate':>9}{'cum. gain':>11}"
                 f"{'lift':>8}{'cum. lift':>11}"]
        for i in range(self.bin.shape[0]):
            lines.append(f"{self.bin[i]:>4}{self.count[i]:>12.6g}{self.positives[i]:>12.6g}"
                         f"{self.rate[i]:>9.4f}{self.cumulative_gain[i]:>11.4f}"
                         f"{self.lift[i]:>8.3f}{self.cumulative_lift[i]:>11.3f}")
        return "\n".join(lines)


def _div(a, b):
    """``a / b`` elementwise, 0 where ``b == 0`` (scikit-learn's zero_division=0)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.zeros(np.broadcast(a, b).shape)
    np.divide(a, b, out=out, where=b != 0)
    return out


@dataclass(frozen=True)
class ThresholdMetrics:
    """Confusion-matrix metrics at every distinct threshold (one row each,
    thresholds decreasing; predict positive when ``score >= threshold``).

    ``threshold``, ``tp`` and ``fp`` are stored; every other array is computed
    on first access.  Aliases share one array (``recall is tpr``).  Rates
    whose denominator is zero are 0 (scikit-learn's ``zero_division=0``).

    Attributes
    ----------
    threshold : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing.
    tp : ndarray of shape (n_thresholds,)
        Weight of the positives scored ``>= threshold``.
    fp : ndarray of shape (n_thresholds,)
        Weight of the negatives scored ``>= threshold``.
    total_pos : float
        Total weight of the positives.
    total_neg : float
        Total weight of the negatives.
    tn, fn : ndarray of shape (n_thresholds,)
        ``total_neg - fp`` and ``total_pos - tp``.
    tpr, fpr, tnr, fnr : ndarray of shape (n_thresholds,)
        True and false positive and negative rates; ``recall`` and
        ``sensitivity`` are ``tpr``, ``specificity`` is ``tnr``.
    precision, npv : ndarray of shape (n_thresholds,)
        Positive and negative predictive values (``ppv`` is ``precision``).
    accuracy, error_rate, f1, mcc, youden : ndarray of shape (n_thresholds,)
        Accuracy, ``1 - accuracy``, F1, Matthews correlation coefficient and
        Youden's J; ``fbeta(beta)`` gives any F-beta.
    lift, predicted_positive_rate : ndarray of shape (n_thresholds,)
        Precision over the prevalence, and the share of the (weighted) rows
        predicted positive.

    See Also
    --------
    threshold_metrics : The function returning this record.
    best_threshold : The threshold that maximises one of these metrics.
    roc_curve : The (fpr, tpr) points alone.

    Examples
    --------
    >>> from fastauc import threshold_metrics
    >>> m = threshold_metrics([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> len(m), m.tp, m.fp
    (4, array([1., 1., 2., 2.]), array([0., 1., 1., 2.]))
    >>> m.specificity
    array([1. , 0.5, 0.5, 0. ])
    >>> m.at(2).to_dict()["f1"]
    [0.8]
    """

    threshold: np.ndarray
    tp: np.ndarray  #: weight of positives scored >= threshold
    fp: np.ndarray  #: weight of negatives scored >= threshold
    total_pos: float
    total_neg: float

    @cached_property
    def tn(self):
        return self.total_neg - self.fp

    @cached_property
    def fn(self):
        return self.total_pos - self.tp

    @cached_property
    def tpr(self):
        """True positive rate (recall, sensitivity)."""
        return _div(self.tp, self.total_pos)

    @property
    def recall(self):
        return self.tpr

    @property
    def sensitivity(self):
        return self.tpr

    @cached_property
    def fpr(self):
        return _div(self.fp, self.total_neg)

    @cached_property
    def tnr(self):
        """True negative rate (specificity)."""
        return _div(self.tn, self.total_neg)

    @property
    def specificity(self):
        return self.tnr

    @cached_property
    def fnr(self):
        return _div(self.fn, self.total_pos)

    @cached_property
    def precision(self):
        """Positive predictive value (0 when nothing is predicted positive)."""
        return _div(self.tp, self.tp + self.fp)

    @property
    def ppv(self):
        return self.precision

    @cached_property
    def npv(self):
        """Negative predictive value (0 when nothing is predicted negative)."""
        return _div(self.tn, self.tn + self.fn)

    def _kernel(self, code, beta=1.0):
        return values(self.tp, self.fp, self.total_pos, self.total_neg, code, float(beta))

    @cached_property
    def accuracy(self):
        return self._kernel(ACCURACY)

    @cached_property
    def error_rate(self):
        return 1.0 - self.accuracy

    @cached_property
    def f1(self):
        return self.fbeta(1.0)

    def fbeta(self, beta):
        """F-beta score ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` (0 if undefined).

        F1, F-beta, MCC, Youden's J and accuracy are computed by the same
        compiled formulas that :func:`best_threshold` maximises.
        """
        return self._kernel(FBETA, beta)

    @cached_property
    def mcc(self):
        """Matthews correlation coefficient (0 when a margin is empty, as scikit-learn)."""
        return self._kernel(MCC)

    @cached_property
    def youden(self):
        """Youden's J = sensitivity + specificity - 1."""
        return self._kernel(YOUDEN)

    @cached_property
    def predicted_positive_rate(self):
        return _div(self.tp + self.fp, self.total_pos + self.total_neg)

    @cached_property
    def lift(self):
        """Precision divided by the prevalence."""
        return _div(self.precision, self.total_pos / (self.total_pos + self.total_neg))

    _FIELDS = ("threshold", "tp", "fp", "tn", "fn", "tpr", "fpr", "tnr", "fnr", "precision",
               "npv", "accuracy", "error_rate", "f1", "mcc", "youden", "lift",
               "predicted_positive_rate")

    def __len__(self):
        return self.threshold.shape[0]

    def at(self, i):
        """The metrics at row ``i`` only, as a one-row ``ThresholdMetrics``."""
        return ThresholdMetrics(self.threshold[i: i + 1], self.tp[i: i + 1], self.fp[i: i + 1],
                                self.total_pos, self.total_neg)

    def to_dict(self):
        """Every metric as a list (JSON-ready)."""
        return {name: getattr(self, name).tolist() for name in self._FIELDS}


@dataclass(frozen=True)
class ReliabilityCurve:
    """Result of :func:`reliability_curve`: the points of a reliability diagram.

    A point is a block of pooled probabilities (``method="isotonic"``) or a
    non-empty bin (``"uniform"``, ``"quantile"``); per distinct probability,
    ``recalibrated`` (computed on first access) is the observed frequency of
    its point.  ``to_dict()`` gives every field as lists.

    Attributes
    ----------
    method : str
        ``"isotonic"``, ``"uniform"`` or ``"quantile"``.
    prob_pred : ndarray of shape (n_points,)
        The (weighted) mean predicted probability of each point, increasing.
    prob_true : ndarray of shape (n_points,)
        The (weighted) fraction of positives of each point: for
        ``"isotonic"`` the recalibrated (PAV) probability of the block,
        strictly increasing.
    weight : ndarray of shape (n_points,)
        The total weight (number of rows without weights) of each point.
    low, high : ndarray of shape (n_points,)
        The smallest and the greatest predicted probability in each point:
        the block boundaries (``"isotonic"``), or the range a bin holds.
    scores : ndarray of shape (n_scores,)
        The distinct predicted probabilities of positive weight, increasing.
    recalibrated : ndarray of shape (n_scores,)
        The observed frequency of the point each score belongs to: for
        ``"isotonic"`` the isotonic (PAV) recalibration of each score, what
        :class:`sklearn.isotonic.IsotonicRegression` fits.

    See Also
    --------
    reliability_curve : The function returning this record.
    brier_decomposition : The Brier score split with the same recalibration.
    plot_calibration : The diagram drawn.

    Examples
    --------
    >>> from fastauc import reliability_curve
    >>> r = reliability_curve([0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.3, 0.6, 0.6, 0.9])
    >>> r.prob_true, r.weight
    (array([0. , 0.5, 1. ]), array([1., 4., 1.]))
    >>> r.low, r.high
    (array([0.1, 0.3, 0.9]), array([0.1, 0.6, 0.9]))
    >>> r.scores, r.recalibrated
    (array([0.1, 0.3, 0.6, 0.9]), array([0. , 0.5, 0.5, 1. ]))
    """

    method: str
    prob_pred: np.ndarray
    prob_true: np.ndarray
    weight: np.ndarray
    low: np.ndarray
    high: np.ndarray
    scores: np.ndarray = field(repr=False)

    _FIELDS = ("method", "prob_pred", "prob_true", "weight", "low", "high", "scores",
               "recalibrated")

    def __len__(self):
        return self.prob_true.shape[0]

    @cached_property
    def recalibrated(self):
        """Each distinct score's point's frequency, made on first access: the
        points hold consecutive runs of the sorted scores, from ``low`` to
        ``high``."""
        counts = (np.searchsorted(self.scores, self.high, "right")
                  - np.searchsorted(self.scores, self.low, "left"))
        return np.repeat(self.prob_true, counts)

    def to_dict(self):
        """Every field and ``recalibrated`` as lists (``method`` as a str): JSON-ready."""
        return {k: (val.tolist() if isinstance(val, np.ndarray) else val)
                for k in self._FIELDS for val in (getattr(self, k),)}


@dataclass(frozen=True)
class BrierDecomposition:
    """Result of :func:`brier_decomposition`: the CORP split of the Brier score.

    ``brier == miscalibration - discrimination + uncertainty`` (to rounding).

    Attributes
    ----------
    brier : float
        The (weighted) Brier score of the probabilities, as
        :func:`brier_score_loss` gives it.
    miscalibration : float
        MCB: the Brier score minus that of the recalibrated (isotonic)
        probabilities; 0 for probabilities that are calibrated in sample.
    discrimination : float
        DSC: the Brier score of the base rate minus that of the recalibrated
        probabilities; 0 when recalibration leaves only the base rate.
    uncertainty : float
        UNC: the Brier score of the base rate, ``pi (1 - pi)`` for a
        fraction ``pi`` of positives.

    See Also
    --------
    brier_decomposition : The function returning this record.
    reliability_curve : The recalibrated probabilities themselves.

    Examples
    --------
    >>> from fastauc import brier_decomposition
    >>> d = brier_decomposition([0, 1, 0, 1], [0.2, 0.6, 0.6, 0.9])
    >>> [round(x, 6) for x in (d.brier, d.miscalibration, d.discrimination, d.uncertainty)]
    [0.1425, 0.0175, 0.125, 0.25]
    """

    brier: float
    miscalibration: float
    discrimination: float
    uncertainty: float

    def to_dict(self):
        """The four numbers as a dict."""
        return dict(self.__dict__)
