"""Inference for the AUC, by family (kept as one import path).

The functions live in :mod:`fastauc.ranktests` (Mann-Whitney),
:mod:`fastauc.delong` (DeLong's covariance, intervals and paired test) and
:mod:`fastauc.bootstrap` (the batched bootstrap); ``from fastauc.inference
import ...`` keeps working for their public names.
"""

from __future__ import annotations

from .bootstrap import BootstrapResult, BootstrapTestResult, bootstrap_ci, bootstrap_test
from .delong import (
    ConfidenceInterval,
    DeLongTestResult,
    delong_covariance,
    delong_test,
    roc_auc_ci,
)
from .ranktests import MannWhitneyResult, mann_whitney_u

__all__ = [
    "BootstrapResult",
    "BootstrapTestResult",
    "ConfidenceInterval",
    "DeLongTestResult",
    "MannWhitneyResult",
    "bootstrap_ci",
    "bootstrap_test",
    "delong_covariance",
    "delong_test",
    "mann_whitney_u",
    "roc_auc_ci",
]
