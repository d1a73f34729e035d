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

# TEMPORARY: report.py still imports these private names from here (next commit moves them)
from ._delong import class_weights as _class_weights  # noqa: E402,F401
from ._delong import paired_test as _paired_test  # noqa: E402,F401
from ._stats import wald_interval as _wald_interval  # noqa: E402,F401

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
