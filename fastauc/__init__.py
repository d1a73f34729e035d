"""fastauc: exact, Numba-compiled ranking metrics for binary classifiers.

Drop-in replacements for scikit-learn's ranking metrics: change
``from sklearn.metrics import roc_auc_score`` to
``from fastauc import roc_auc_score`` and nothing else.
"""

from ._config import config_context, get_config, set_config
from ._validation import UndefinedMetricWarning
from .accumulator import Accumulator
from .classification import (
    f1_score,
    fbeta_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from .calibration import (
    brier_score_loss,
    calibration_curve,
    calibration_error,
    d2_brier_score,
    d2_log_loss_score,
)
from .coords import Coords, coords
from .coords_intervals import CoordsCI, coords_ci
from .bootstrap import BootstrapResult, BootstrapTestResult, bootstrap_ci, bootstrap_test
from .delong import (
    ConfidenceInterval,
    DeLongOmnibusResult,
    DeLongTestResult,
    delong_covariance,
    delong_omnibus,
    delong_test,
    roc_auc_ci,
)
from .groups import GroupMetrics, by_group
from .likelihood_ratios import class_likelihood_ratios
from .losses import log_loss
from .operating_points import (
    OperatingPoint,
    confusion_matrix_at_thresholds,
    metric_at_thresholds,
    precision_at_recall,
    recall_at_precision,
    sensitivity_at_specificity,
    specificity_at_sensitivity,
)
from .pairwise import pairwise_loss, pairwise_loss_gradient
from .ranktests import MannWhitneyResult, mann_whitney_u
from .curvetests import (CrossValidatedAUC, CrossValidatedROC, VenkatramanResult, cv_auc_ci,
                         cv_roc_curve, venkatraman_test)
from .power import PowerResult, roc_power
from .smoothing import SmoothROC, smooth_roc
from .thresholds import (
    BestThreshold,
    ConvexHull,
    GainsTable,
    ThresholdMetrics,
    best_threshold,
    gains_table,
    gini,
    lift_at,
    partial_auc,
    roc_convex_hull,
    threshold_metrics,
)
from .plots import plot_gains, plot_precision_recall, plot_roc, roc_confidence_band
from .plots import plot_calibration, plot_det, plot_over_time
from .reliability import (
    BrierDecomposition,
    ReliabilityCurve,
    brier_decomposition,
    reliability_curve,
)
from .report import Comparison, ModelReport, Report, report
from .monitoring import (AUCOverTime, ExpectedAUC, SubgroupAUCs, auc_over_time,
                         expected_roc_auc, subgroup_aucs)
from .window import Window
from .ranking import (
    auc,
    average_precision_score,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

__version__ = "0.1.0"

# Submodules loaded on first use, so ``import fastauc`` stays light:
# ``fastauc.naive`` (slow references), ``fastauc.sklearn`` (needs scikit-learn),
# ``fastauc.dask`` (needs dask), ``fastauc.objectives`` (for LightGBM and XGBoost)
# and ``fastauc.torch`` (needs torch and torchmetrics).
_LAZY_SUBMODULES = ("naive", "sklearn", "dask", "objectives", "torch")
# Classes of optional modules, imported on first use: ``AUCLinearClassifier``
# is a scikit-learn estimator (needs scikit-learn and scipy).
_LAZY_CLASSES = {"AUCLinearClassifier": "linear_model"}


def __getattr__(name):
    if name in _LAZY_SUBMODULES or name in _LAZY_CLASSES:
        import importlib

        module = importlib.import_module(f".{_LAZY_CLASSES.get(name, name)}", __name__)
        return getattr(module, name) if name in _LAZY_CLASSES else module
    raise AttributeError(f"module 'fastauc' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_LAZY_SUBMODULES, *_LAZY_CLASSES])

__all__ = [  # AUCLinearClassifier is left out: `import *` must not need scikit-learn
    "config_context",
    "get_config",
    "set_config",
    "Accumulator",
    "BestThreshold",
    "BootstrapResult",
    "BootstrapTestResult",
    "Comparison",
    "ConfidenceInterval",
    "ConvexHull",
    "Coords",
    "CoordsCI",
    "DeLongOmnibusResult",
    "DeLongTestResult",
    "AUCOverTime",
    "ExpectedAUC",
    "SubgroupAUCs",
    "Window",
    "GainsTable",
    "GroupMetrics",
    "MannWhitneyResult",
    "CrossValidatedAUC",
    "CrossValidatedROC",
    "VenkatramanResult",
    "OperatingPoint",
    "PowerResult",
    "SmoothROC",
    "ModelReport",
    "Report",
    "BrierDecomposition",
    "ReliabilityCurve",
    "ThresholdMetrics",
    "UndefinedMetricWarning",
    "auc",
    "average_precision_score",
    "best_threshold",
    "bootstrap_ci",
    "bootstrap_test",
    "brier_score_loss",
    "brier_decomposition",
    "by_group",
    "calibration_curve",
    "calibration_error",
    "class_likelihood_ratios",
    "confusion_matrix_at_thresholds",
    "coords",
    "coords_ci",
    "d2_brier_score",
    "d2_log_loss_score",
    "delong_covariance",
    "delong_omnibus",
    "delong_test",
    "det_curve",
    "auc_over_time",
    "expected_roc_auc",
    "subgroup_aucs",
    "f1_score",
    "fbeta_score",
    "gains_table",
    "gini",
    "lift_at",
    "log_loss",
    "mann_whitney_u",
    "cv_auc_ci",
    "cv_roc_curve",
    "venkatraman_test",
    "metric_at_thresholds",
    "pairwise_loss",
    "pairwise_loss_gradient",
    "partial_auc",
    "plot_gains",
    "plot_precision_recall",
    "plot_roc",
    "plot_calibration",
    "plot_det",
    "plot_over_time",
    "precision_at_recall",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_at_precision",
    "recall_score",
    "report",
    "reliability_curve",
    "roc_power",
    "smooth_roc",
    "roc_auc_ci",
    "roc_auc_score",
    "roc_confidence_band",
    "roc_convex_hull",
    "roc_curve",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
    "threshold_metrics",
]
