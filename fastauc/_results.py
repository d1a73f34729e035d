"""The result types of the inference functions: frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._kernels.thresholds import ACCURACY, FBETA, MCC, YOUDEN, values

__all__ = ["BootstrapResult", "BootstrapTestResult", "ConfidenceInterval", "DeLongTestResult",
           "GainsTable", "MannWhitneyResult", "ThresholdMetrics"]


@dataclass(frozen=True)
class MannWhitneyResult:
    """Result of :func:`mann_whitney_u`."""

    statistic: float  #: U of the positive class (weighted pair count)
    pvalue: float
    auc: float  #: ``statistic / (n_pos * n_neg)``
    n_pos: float  #: number (total weight) of positives
    n_neg: float  #: number (total weight) of negatives
    method: str  #: "exact" or "asymptotic", the method used



@dataclass(frozen=True)
class ConfidenceInterval:
    """An AUC with a confidence interval (:func:`roc_auc_ci`)."""

    estimate: float
    low: float
    high: float
    se: float
    method: str
    confidence_level: float



@dataclass(frozen=True)
class DeLongTestResult:
    """Result of :func:`delong_test`, the paired test of two AUCs."""

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



@dataclass(frozen=True)
class BootstrapResult:
    """Result of :func:`bootstrap_ci`."""

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
    """Result of :func:`bootstrap_test`, the paired bootstrap comparison."""

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
    """Per-bin gains and lift (:func:`gains_table`); arrays of length ``n_bins``."""

    bin: np.ndarray
    count: np.ndarray  #: (weighted) rows in the bin
    positives: np.ndarray  #: (weighted) positives in the bin
    rate: np.ndarray  #: positives / count
    cumulative_gain: np.ndarray  #: share of all positives in bins 1..b
    lift: np.ndarray  #: rate / overall positive rate
    cumulative_lift: np.ndarray  #: cumulative rate / overall positive rate
    base_rate: float = field(default=0.0)

    def to_dict(self):
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
    on first access.  Aliases share one array (``recall is tpr``).
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
