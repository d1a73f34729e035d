"""The result types of the inference functions: frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["BootstrapResult", "BootstrapTestResult", "ConfidenceInterval", "DeLongTestResult",
           "GainsTable", "MannWhitneyResult"]


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
