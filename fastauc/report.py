"""One call, the whole evaluation: ``report`` for one or several score columns."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from . import _validation as v
from ._kernels.sorting import keys_to_floats
from ._kernels.thresholds import CODES, best_indices
from ._curves import cumulative_sums, layout_tallies, lifts
from ._parallel import map_units, row_blocks
from ._delong import (bonferroni, class_weights, holm, omnibus_statistic, paired_test,
                      placement_cov)
from ._containers import to_host
from ._report_blocks import (
    CALIBRATION_BINS,
    OPERATING_INPUTS,
    _plain,
    check_calibration,
    check_rates,
    comparison_lines,
    group_table_dict,
    log_losses,
    is_probability,
    operating_table,
)
from .calibration import calibration_error
from .coords import coords
from .coords_intervals import coords_ci
from .reliability import brier_decomposition
from ._resample import layout_table_ap, layouts
from ._stats import wald_interval
from .bootstrap import bootstrap_ci
from ._groups import group_codes
from ._subgroups import background_extra
from .groups import format_table, group_metrics
from .thresholds import ThresholdMetrics

__all__ = ["Comparison", "ModelReport", "Report", "report"]

BEST_METRICS = ("f1", "mcc", "youden")
LIFT_FRACTIONS = (0.01, 0.05, 0.10)
_AT_THRESHOLD = ("tp", "fp", "tn", "fn", "precision", "recall", "specificity", "f1", "mcc",
                 "youden", "accuracy", "predicted_positive_rate")
_COUNTS = ("tp", "fp", "tn", "fn")  # confusion counts: whole numbers without weights
def _calibration_block(y01, p, sw):
    """The Brier score with its CORP split and the 15-bin ECE of probabilities ``p``."""
    d = brier_decomposition(y01, p, sample_weight=sw)
    ece = calibration_error(y01, p, n_bins=CALIBRATION_BINS, norm="l1", sample_weight=sw)
    return {"brier": float(d.brier), "miscalibration": float(d.miscalibration),
            "discrimination": float(d.discrimination), "uncertainty": float(d.uncertainty),
            "ece": float(ece)}


def _operating_points(y01, p, sw, rates, level, interval, boot=None):
    """The points of ``rates`` (``(given, measure, values)`` triples) of one
    model (labels ``y01``, scores ``p``, weights ``sw``): each value and its
    threshold as :func:`~fastauc.coords` gives them, and its interval as
    :func:`~fastauc.coords_ci` gives it: Wilson's (``interval="wilson"``),
    or the bootstrap's with the options ``boot``."""
    out = []
    for given, measure, values in rates:
        if not values:
            continue
        x = list(values)
        est = coords(y01, p, x, input=given, ret=[measure, "threshold"], sample_weight=sw)
        if interval == "wilson":
            res = coords_ci(y01, p, x, input=given, ret=[measure], method="wilson",
                            confidence_level=level, sample_weight=sw)
        else:
            res = coords_ci(y01, p, x, input=given, ret=[measure], method="bootstrap",
                            confidence_level=level, sample_weight=sw, **(boot or {}))
        for i, rate in enumerate(values):
            out.append({"given": given, "rate": rate, "measure": measure,
                        "value": float(est[measure][i]), "low": float(res.low[measure][i]),
                        "high": float(res.high[measure][i]), "interval": interval,
                        "threshold": float(est["threshold"][i])})
    return out


@dataclass(frozen=True)
class ModelReport:
    """Everything :func:`report` says about one score column.

    Attributes
    ----------
    name : str
        The model's name (``names`` of :func:`report`, or ``model_1``, ...).
    auc : float
        ROC AUC (the float :func:`roc_auc_score` returns for the column).
    auc_low, auc_high : float
        Its confidence interval (DeLong's, or the bootstrap's with
        ``ci="bootstrap"``).
    auc_se : float
        Standard error of the AUC.
    gini : float
        ``2 * auc - 1``.
    average_precision : float
        As :func:`average_precision_score`.
    log_loss : float or None
        As :func:`log_loss`; None when the scores are not probabilities
        (some score outside [0, 1]).
    best : dict
        For each of ``"f1"``, ``"mcc"`` and ``"youden"``: a dict with the
        best ``threshold`` (:func:`best_threshold`), the metric's ``value``
        there, and the confusion metrics at that threshold (``tp``, ``fp``,
        ``tn``, ``fn``, ``precision``, ``recall``, ``specificity``, ``f1``,
        ``mcc``, ``youden``, ``accuracy``, ``predicted_positive_rate``).
    lift : dict
        Top fraction (0.01, 0.05, 0.1) -> :func:`lift_at` that fraction.
    operating_points : list of dict
        With ``at_specificity`` / ``at_sensitivity`` of :func:`report`: one
        dict per rate given, with ``given`` (``"specificity"`` or
        ``"sensitivity"``), ``rate``, ``measure`` (the other rate),
        ``value`` (:func:`coords`, pROC's interpolation), ``low``,
        ``high`` (its interval), ``interval`` (``"wilson"`` or
        ``"bootstrap"``) and ``threshold`` (NaN where the rate falls between
        two points of the curve and the value is interpolated).  Empty
        without those options.
    calibration : dict or None
        For probabilities (every score in [0, 1]) unless
        ``calibration=False``: ``brier``, ``miscalibration``,
        ``discrimination``, ``uncertainty`` (:func:`brier_decomposition`)
        and ``ece`` (:func:`calibration_error`, 15 bins, l1); else None.

    See Also
    --------
    report : The function whose :class:`Report` holds one per model.
    Report : The whole report.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import report
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> scores = np.column_stack((y + rng.normal(size=1000), y + 2 * rng.normal(size=1000)))
    >>> r = report(y, scores, names=["good", "weak"])
    >>> m = r.models[0]
    >>> m.name, round(m.auc, 3), round(m.gini, 3), m.log_loss
    ('good', 0.79, 0.58, None)
    >>> sorted(m.best), round(m.best["youden"]["recall"], 4)
    (['f1', 'mcc', 'youden'], 0.7765)
    """

    name: str
    auc: float
    auc_low: float
    auc_high: float
    auc_se: float
    gini: float
    average_precision: float
    log_loss: float | None  #: None when the scores are not probabilities
    best: dict  #: metric -> threshold, value and the confusion metrics there
    lift: dict  #: fraction -> lift in the top fraction
    #: the rates asked for (``at_specificity``, ``at_sensitivity``), with intervals
    operating_points: list = field(default_factory=list)
    calibration: dict | None = None  #: Brier score, its CORP split and the ECE

    def to_dict(self, weighted=True):
        """Plain JSON-ready types (NaN and infinity as None); with
        ``weighted=False`` (rows counted, not weighed) the confusion counts in
        ``best`` are integers.  ``operating_points`` is left out when empty
        and ``calibration`` when None."""
        d = _plain(self.__dict__)
        if not self.operating_points:
            del d["operating_points"]
        if self.calibration is None:
            del d["calibration"]
        if not weighted:
            for point in d["best"].values():
                for key in _COUNTS:
                    if point.get(key) is not None:
                        point[key] = int(point[key])
        return d


@dataclass(frozen=True)
class Comparison:
    """The paired DeLong test of two models in a :class:`Report`.

    Reads also as a mapping (``c["difference"]``, ``c.keys()``), so code
    written for plain dicts keeps working.

    Attributes
    ----------
    a : str
        Name of the first model.
    b : str
        Name of the second model.
    difference : float
        ``auc_a - auc_b``.
    low, high : float
        Confidence interval of the difference (at the report's
        ``confidence_level``).
    se : float
        DeLong's standard error of the difference.
    statistic : float
        The z statistic ``difference / se``.
    pvalue : float
        Its two-sided p-value.
    pvalue_holm, pvalue_bonferroni : float
        The p-value adjusted over the report's ``k (k - 1) / 2`` pairs (Holm's
        step-down, Bonferroni's); the p-value itself for two models.

    See Also
    --------
    delong_test : The same test of two models, alone.
    DeLongTestResult : What :func:`delong_test` returns.
    Report : The report whose ``comparisons`` hold these.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import report
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> scores = np.column_stack((y + rng.normal(size=1000), y + 2 * rng.normal(size=1000)))
    >>> r = report(y, scores, names=["good", "weak"])
    >>> c = r.comparisons[0]
    >>> c.a, c.b, round(c.difference, 3), round(c["statistic"], 3)
    ('good', 'weak', 0.131, 5.938)
    """

    a: str  #: name of the first model
    b: str  #: name of the second model
    difference: float  #: ``auc_a - auc_b``
    low: float  #: confidence interval of the difference
    high: float
    se: float
    statistic: float  #: z
    pvalue: float
    pvalue_holm: float = math.nan  #: adjusted over all pairs (Holm)
    pvalue_bonferroni: float = math.nan  #: adjusted over all pairs (Bonferroni)

    def __getitem__(self, key):
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self):
        """The field names, as a mapping's keys."""
        return list(self.__dataclass_fields__)

    def to_dict(self):
        """Plain JSON-ready types (NaN and infinity as None)."""
        return _plain(self.__dict__)


@dataclass(frozen=True)
class Report:
    """Result of :func:`report`; ``str()`` is a readable table, ``to_dict()`` is JSON-ready.

    With ``report(..., by=...)``, ``by_group`` maps each model's name to its
    :class:`~fastauc.GroupMetrics` (empty without ``by``).

    Attributes
    ----------
    models : list of ModelReport
        One per score column, in column order.
    comparisons : list of Comparison
        The paired DeLong test of every pair of models (empty for one model).
    n_samples : int
        Number of rows.
    n_positive, n_negative : float
        Weight of the positive and of the negative class (their row counts
        without ``sample_weight``).
    ci_method : str
        ``"delong"`` or ``"bootstrap"``: how the AUC intervals were computed.
    confidence_level : float
        Level of the intervals, e.g. 0.95.
    weighted : bool
        Whether ``sample_weight`` was given (counts are then sums of weights).
    by_group : dict
        Model name -> :class:`GroupMetrics`, with ``by``; else empty.
    omnibus : dict or None
        With three models or more, DeLong et al.'s (1988) chi-square test
        that all their AUCs are equal (``statistic``, ``df``, ``pvalue``; as
        :func:`delong_omnibus`); else None.

    See Also
    --------
    report : The function returning this record.
    ModelReport : One model's section.
    Comparison : One paired test.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import report
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> scores = np.column_stack((y + rng.normal(size=1000), y + 2 * rng.normal(size=1000)))
    >>> r = report(y, scores, names=["good", "weak"])
    >>> r.n_samples, r.n_positive, r.ci_method, [m.name for m in r.models]
    (1000, 537.0, 'delong', ['good', 'weak'])
    >>> print(str(r).splitlines()[0])
    1,000 rows; positives 537, negatives 463
    >>> sorted(r.to_dict())[:3]
    ['ci_method', 'comparisons', 'confidence_level']
    """

    models: list
    comparisons: list  #: paired DeLong tests, one :class:`Comparison` per pair of models
    n_samples: int
    n_positive: float  #: weight of the positive class
    n_negative: float
    ci_method: str
    confidence_level: float
    weighted: bool = field(default=False)
    by_group: dict = field(default_factory=dict)  #: model name -> GroupMetrics (``by=``)
    omnibus: dict | None = None  #: k >= 3 models: the chi-square of equal AUCs

    def to_dict(self):
        """Plain JSON-ready types (NaN and infinity as None).  Counts are
        integers when the rows were counted (no ``sample_weight``) and floats
        when they were weighed: ``n_positive``, ``n_negative``, each model's
        ``tp``, ``fp``, ``tn``, ``fn`` at its best thresholds, and the groups'
        ``pos_weight`` and ``neg_weight``."""
        d = dict(self.__dict__)
        d["models"] = [m.to_dict(self.weighted) for m in self.models]
        for key in ("operating_points", "calibration"):  # every model, when one has it
            if any(key in m for m in d["models"]):
                for m in d["models"]:
                    m.setdefault(key, [] if key == "operating_points" else None)
        d["comparisons"] = [c.to_dict() for c in self.comparisons]
        if self.by_group:
            d["by_group"] = {name: group_table_dict(g) for name, g in self.by_group.items()}
        else:
            del d["by_group"]  # without ``by``, no by_group key at all
        d = _plain(d)
        if not self.weighted:
            d["n_positive"], d["n_negative"] = int(d["n_positive"]), int(d["n_negative"])
        return d

    def __str__(self):
        pct = f"{self.confidence_level:.0%}"
        w = "weighted " if self.weighted else ""
        out = [f"{self.n_samples:,} rows; {w}positives {self.n_positive:,.6g}, "
               f"negatives {self.n_negative:,.6g}", ""]
        names = [m.name for m in self.models]
        width = max(12, *(len(n) for n in names)) + 2
        head = f"{'':<22}" + "".join(f"{n:>{width}}" for n in names)
        out.append(head)

        def row(label, values, fmt="{:.4f}"):
            cells = "".join(f"{('-' if x is None else fmt.format(x)):>{width}}" for x in values)
            out.append(f"{label:<22}{cells}")

        row("AUC", [m.auc for m in self.models])
        row(f"  {pct} CI ({self.ci_method})", [f"{m.auc_low:.4f}-{m.auc_high:.4f}"
                                              for m in self.models], "{}")
        row("Gini", [m.gini for m in self.models])
        row("average precision", [m.average_precision for m in self.models])
        row("log loss", [m.log_loss for m in self.models])
        if any(m.calibration is not None for m in self.models):
            for label, key in (("Brier score", "brier"), ("  miscalibration", "miscalibration"),
                               ("  discrimination", "discrimination"),
                               ("  uncertainty", "uncertainty"),
                               (f"ECE ({CALIBRATION_BINS} bins)", "ece")):
                row(label, [None if m.calibration is None else m.calibration[key]
                            for m in self.models])
        for k in LIFT_FRACTIONS:
            row(f"lift at {k:.0%}", [m.lift[k] for m in self.models], "{:.3f}")
        for metric in BEST_METRICS:
            row(f"best {metric}: threshold", [m.best[metric]["threshold"] for m in self.models],
                "{:.6g}")
            for key in ("value", "precision", "recall", "specificity"):
                row(f"  {key}", [m.best[metric][key] for m in self.models])
        for m in self.models:
            if m.operating_points:
                out += ["", *operating_table(m, pct)]
        out += comparison_lines(self.comparisons, self.omnibus, len(self.models), pct)
        for name, g in self.by_group.items():
            out += ["", f"{name} by {', '.join(map(str, g.groups))} ({len(g)} groups, "
                    "DeLong intervals):", format_table(g)]
        return "\n".join(out)


def pair_tests(aucs, cov, names, level):
    """``(comparisons, omnibus)`` of models' AUCs and DeLong covariance: each
    pair's paired test with Holm's and Bonferroni's adjusted p-values, and
    with three models or more the chi-square of equal AUCs (else None)."""
    k = len(names)
    tests = [(a, b, paired_test(aucs, cov, a, b, level, "two-sided"))
             for a in range(k) for b in range(a + 1, k)]
    p = np.array([t.pvalue for _, _, t in tests])
    comparisons = [Comparison(names[a], names[b], t.difference, t.low, t.high, t.se,
                              t.statistic, t.pvalue, float(h), float(bf))
                   for (a, b, t), h, bf in zip(tests, holm(p), bonferroni(p))]
    if k < 3:
        return comparisons, None
    stat, df, pvalue = omnibus_statistic(np.asarray(aucs, np.float64), cov)
    return comparisons, {"statistic": stat, "df": df, "pvalue": pvalue}


def _model_numbers(lay, wl):
    """A model's table-derived numbers, from its sorted layout (no further sort):
    average precision, the best thresholds' points and the lifts.  Kernels
    only (run for several models at once on threads).  The layout was walked
    with the weights ``wl``: the average precision is swept in the key
    ranges ``sorted_tallies`` sweeps (``lay.cut``), to be
    ``average_precision_score``'s float."""
    if wl.shape[0]:
        table, ap = layout_table_ap(lay, wl)
        keys, tp, fp, total_p, total_n = layout_tallies(lay, wl, table)
    else:  # the layout's cumulative counts are the tallies: no table to build
        keys, tp, fp, total_p, total_n = layout_tallies(lay, wl, None)
        ap = cumulative_sums(tp, fp, [c[0] for c in lay.cut] or [0])[1] / total_p
    codes = np.array([CODES[metric] for metric in BEST_METRICS], np.int64)
    indices, values = best_indices(tp, fp, total_p, total_n, codes)
    thresholds = keys_to_floats(keys[indices], np.empty(indices.shape[0], np.uint64))
    points = ThresholdMetrics(thresholds, tp[indices], fp[indices], total_p, total_n)
    return ap, values, points, lifts(tp, fp, total_p, total_n, LIFT_FRACTIONS)


def _model_report(name, numbers, interval, log_loss, chosen=(), calibration=None):
    """One model's section."""
    ap, values, points, lift = numbers
    best = {}
    for j, (metric, value) in enumerate(zip(BEST_METRICS, values)):
        best[metric] = {"threshold": float(points.threshold[j]), "value": float(value)}
        best[metric].update({key: float(getattr(points, key)[j]) for key in _AT_THRESHOLD})
    return ModelReport(name, interval.estimate, interval.low, interval.high, interval.se,
                       2.0 * interval.estimate - 1.0, ap, log_loss, best, lift,
                       list(chosen), calibration)


def _copy_rows(S, columns, a, b):
    """Rows ``a:b`` of every column of ``S`` into ``columns`` (k, n)."""
    columns[:, a:b] = S[a:b].T


def report(y_true, y_scores, *, sample_weight=None, ci="delong", names=None, pos_label=None,
           confidence_level=0.95, by=None, at_specificity=None, at_sensitivity=None,
           calibration=None, plot=None, plot_seed=0, background=False, **bootstrap_options):
    """AUC with its interval, Gini, average precision, log loss, best thresholds,
    lift, and paired DeLong tests, for one or several score columns; the
    sensitivity at chosen specificities (and back) with intervals; the Brier
    score's decomposition and the calibration error of probabilities.

    On the GPU (CUDA arrays of PyTorch, CuPy or JAX): they are copied to the
    host; with ``fastauc.config_context(device='cuda')`` the bootstrap
    intervals (``ci="bootstrap"``) compute on the GPU.  See docs/guide/gpu.md.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: {0, 1}, {-1, 1} or bool, or give ``pos_label``.
    y_scores : array-like of shape (n_samples,) or (n_samples, k)
        One column per model (also a mapping ``{name: scores}``, a DataFrame
        or a list of 1-D arrays).  For a classifier's ``predict_proba``
        output pass column 1, the positive class's: two columns are two
        models (a warning says so when their rows sum to 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (DeLong's variance counts a row of
        weight 2 as two rows).
    ci : {"delong", "bootstrap"}, default="delong"
        How the AUC interval is computed (see :func:`roc_auc_ci`).
    names : list of str, default=None
        Model names (default ``model_1``, ...).
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1}, {-1, 1} or bool
        need none).
    confidence_level : float, default=0.95
        Level of the AUC intervals and of the paired tests' intervals.
    by : array-like of shape (n_samples,) or tuple of them, default=None
        Group labels (or a tuple of label columns, one group per combination),
        as ``groups`` in :func:`by_group`.  When given, ``report.by_group``
        holds each model's :func:`by_group` table (DeLong intervals at
        ``confidence_level``, whatever ``ci``), printed after the report and
        included in ``to_dict()``.  A missing label raises.
    at_specificity : float or sequence of float, default=None
        Specificities in [0, 1], e.g. ``(0.9, 0.95)``: each model's
        sensitivity there, as :func:`coords` gives it (``input="specificity"``;
        pROC's linear interpolation between two points of the curve, where
        the threshold is NaN), with its interval at ``confidence_level``:
        Wilson's score interval (``coords_ci(..., method="wilson")``, the
        threshold taken as known) with ``ci="delong"``, the stratified
        bootstrap of :func:`coords_ci` (``n_resamples`` and
        ``random_state`` of ``bootstrap_options``) with
        ``ci="bootstrap"``.  The table printed names the interval.
    at_sensitivity : float or sequence of float, default=None
        Sensitivities in [0, 1]: each model's specificity there, likewise.
    calibration : bool or None, default=None
        The calibration block: the Brier score, its CORP decomposition
        (miscalibration, discrimination, uncertainty:
        :func:`brier_decomposition`) and the expected calibration error
        (:func:`calibration_error`, 15 bins, l1).  None: for each model whose
        scores are probabilities (all in [0, 1]), silently left out for the
        others; True: for every model (scores outside [0, 1] raise); False:
        never.
    plot : str or path, default=None
        Also write one PNG with every model's ROC curve (with a 200-replicate
        bootstrap band and the Youden point), precision-recall curve and
        cumulative gains, drawn from the same sorted columns as the numbers
        (no second sort; needs matplotlib: ``pip install 'fastauc[plot]'``).
    plot_seed : int, default=0
        Seed of the plot's bootstrap bands.
    background : bool, default=False
        With ``by``: each group's BPSN and BNSP AUCs (:func:`subgroup_aucs`)
        added to its table.
    **bootstrap_options
        For ``ci="bootstrap"``: ``n_resamples``, ``random_state``, ``progress``...

    Returns
    -------
    Report
        ``models`` (one :class:`ModelReport` each: ``auc`` (the float
        ``roc_auc_score`` returns for the column, to the last bit),
        ``auc_low``, ``auc_high``, ``auc_se``, ``gini``, ``average_precision``,
        ``log_loss`` (None unless every score is in [0, 1]), ``best`` (for
        "f1", "mcc" and "youden": the threshold, the value and the confusion
        metrics there), ``lift`` at 1%, 5% and 10%) and ``comparisons`` (the
        paired DeLong test of every pair of models), and with ``by``,
        ``by_group`` (model name -> :class:`GroupMetrics`).  Each model's
        ``operating_points`` (with ``at_specificity`` / ``at_sensitivity``:
        dicts of ``given``, ``rate``, ``measure``, ``value``, ``low``,
        ``high``, ``interval`` ("wilson" or "bootstrap") and ``threshold``)
        and ``calibration`` (``brier``, ``miscalibration``,
        ``discrimination``, ``uncertainty``, ``ece``; None when not
        computed).  ``str(report)``
        is a table, ``report.to_dict()`` plain JSON-ready types.

    Warns
    -----
    UserWarning
        When ``y_scores`` has 2 columns whose rows all sum to 1 (within
        ``np.allclose``'s tolerance): the output of ``predict_proba``, whose
        two columns would be reported as two models (the second one's AUC is
        1 minus the first's).  The message names the positive class's column
        (column 1, the greater label's, unless ``pos_label`` is the smaller).
    UndefinedMetricWarning
        With ``by``, once per model when some groups have a single class (see
        :func:`by_group`).

    Raises
    ------
    ValueError
        Labels with one class, a class without weight, ``names`` of another
        length, a rate of ``at_specificity`` / ``at_sensitivity`` outside
        [0, 1], ``calibration=True`` with scores outside [0, 1].
    TypeError
        Bootstrap options with ``ci="delong"``; a rate that is not a number.

    See Also
    --------
    roc_auc_ci : One AUC with its interval.
    coords, coords_ci : The operating points and their intervals.
    brier_decomposition, calibration_error : The calibration block.
    delong_test : The paired test of two AUCs.
    best_threshold, lift_at, threshold_metrics : The operating points.
    by_group : The metrics of every group.
    fastauc.streaming.report_stream : The same report from batches larger
        than memory.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import report
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> scores = np.column_stack((y + rng.normal(size=1000), y + 2 * rng.normal(size=1000)))
    >>> r = report(y, scores, names=["good", "weak"])
    >>> [round(m.auc, 3) for m in r.models]
    [0.79, 0.659]
    >>> round(r.comparisons[0]["difference"], 3)
    0.131
    >>> r = report(y, scores, names=["good", "weak"], by=np.arange(1000) % 2)
    >>> r.by_group["good"].groups["group"].tolist(), r.by_group["good"].n.tolist()
    ([0, 1], [500, 500])

    The sensitivity at 90% specificity, with Wilson's interval, and the
    calibration block of probabilities:

    >>> p = 1 / (1 + np.exp(-2 * scores[:, 0]))
    >>> r = report(y, p, names=["good"], at_specificity=0.9)
    >>> point = r.models[0].operating_points[0]
    >>> point["measure"], round(point["value"], 3), point["interval"]
    ('sensitivity', 0.404, 'wilson')
    >>> sorted(r.models[0].calibration)
    ['brier', 'discrimination', 'ece', 'miscalibration', 'uncertainty']
    """
    v.check_choice(ci, "ci", ("delong", "bootstrap"))
    level = v.check_confidence_level(confidence_level)
    rates = tuple((given, measure, check_rates(x, f"at_{given}")) for (given, measure), x in
                  zip(OPERATING_INPUTS, (at_specificity, at_sensitivity)))
    calibration = check_calibration(calibration)
    # CUDA arrays: host copies (the bootstrap intervals run where
    # config_context(device=...) says: on the GPU with device="cuda")
    y_true, sample_weight, by = to_host(y_true), to_host(sample_weight), to_host(by)
    if isinstance(y_scores, dict):
        y_scores = {k: to_host(x) for k, x in y_scores.items()}
    elif isinstance(y_scores, (list, tuple)):
        y_scores = [to_host(x) for x in y_scores]
    else:
        y_scores = to_host(y_scores)
    if ci == "delong" and bootstrap_options:
        raise TypeError(f"unexpected arguments for ci='delong': {sorted(bootstrap_options)}")
    given_names, S = v.score_matrix(y_scores, v.n_rows(y_true))
    if names is None:
        names = given_names
    is_pos, classes, w = v.binary_rows(y_true, sample_weight, pos_label, rule="sklearn",
                                       frequency=True, y_scores=S)
    if pos_label is not None and pos_label not in classes.tolist():
        raise ValueError(f"pos_label={v.plain(pos_label)!r} is not a label of y_true "
                         f"(labels: {classes.tolist()})")
    if classes.shape[0] < 2:
        raise ValueError(f"y_true has only one class ({v.plain(classes[0])!r}); a report "
                         "needs both")
    # a predict_proba output is one model, not two: say which column is its score
    positive = 0 if pos_label is not None and pos_label == classes[0] else 1
    v.warn_if_proba(S, "y_scores", positive)
    if w.shape[0]:
        for label, rows in (("positive", is_pos), ("negative", ~is_pos)):
            if not (w[rows] > 0).any():
                raise ValueError(f"the {label} rows of y_true all have zero sample_weight; a "
                                 "report needs weight in both classes")
    n, k = S.shape
    names = [f"model_{i + 1}" for i in range(k)] if names is None else [str(x) for x in names]
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries for {k} score columns")
    if calibration:
        for j in range(k):
            c = S[:, j]
            if np.isfinite(c).all() and not is_probability(c):
                raise ValueError(f"calibration=True needs probabilities, but the scores of "
                                 f"{names[j]!r} are outside [0, 1] (from {c.min():g} to "
                                 f"{c.max():g}); pass calibration=None to leave the block "
                                 "out for such models")
    if plot is not None:
        from ._plotting import _pyplot

        _pyplot()  # matplotlib is there, before any work
    # NaN/inf scores are refused by the sort (or the per-group count), named
    columns = np.empty((k, n), S.dtype)  # each model's scores contiguous: row blocks on threads
    map_units(_copy_rows, [(S, columns, a, b) for a, b in row_blocks(n)])
    columns = list(columns)
    sw = w if w.shape[0] else None
    # per-group tables first, so that bad group labels fail before the DeLong work;
    # ``is_pos`` (already validated) gives the same rows as ``y_true`` and ``pos_label``
    groups = {}
    if by is not None:  # the group labels coded once for every model
        codes = group_codes(by, n)
        groups = {names[j]: group_metrics(is_pos, columns[j], w, codes, level, name=names[j])
                  for j in range(k)}
        if background:  # each group's BPSN and BNSP AUCs (subgroup_aucs')
            groups = {m: replace(g, extra=background_extra(
                is_pos, columns[j], w, codes, level)) for j, (m, g) in enumerate(groups.items())}
    # the one sort per column: each layout gives the DeLong placements and the table
    # and, in the same walk, every row's DeLong placement in each model: one
    # DeLong covariance for all models gives their intervals and every paired test
    if ci == "delong" or k > 1:
        X = np.empty((k, n))
        sorted_, aucs = layouts(is_pos, columns, names, w, X)
        cov = placement_cov(X, is_pos, w, aucs)
        del X
    else:
        sorted_ = layouts(is_pos, columns, names, w)  # walked with the weights: their cut
    lays = [(lay, w[lay.rows] if w.shape[0] else w) for lay in sorted_]
    losses = log_losses(is_pos, columns, w)
    numbers = map_units(_model_numbers, lays)
    y01 = is_pos.view(np.uint8)  # labels {0, 1} for the functions of the optional blocks
    boot = None
    if ci == "bootstrap":  # the operating points' bootstrap: coords_ci's options
        boot = {key: bootstrap_options[key] for key in ("n_resamples", "random_state")
                if key in bootstrap_options}
        if bootstrap_options.get("stratified") is False:
            boot["stratified"] = False
    models = []
    for j in range(k):
        if ci == "delong":
            interval = wald_interval(float(aucs[j]), float(cov[j, j]), level)
        else:
            interval = bootstrap_ci(is_pos, columns[j], confidence_level=level,
                                    sample_weight=sw, **bootstrap_options)
        points = []
        if any(x for _, _, x in rates):
            points = _operating_points(y01, columns[j], sw, rates, level,
                                      "wilson" if ci == "delong" else "bootstrap", boot)
        block = None
        if calibration is not False and is_probability(columns[j]):
            block = _calibration_block(y01, columns[j], sw)
        models.append(_model_report(names[j], numbers[j], interval, losses[j], points, block))
    comparisons, omnibus = pair_tests(aucs, cov, names, level) if k > 1 else ([], None)
    if plot is not None:  # drawn from the layouts sorted above
        from ._plotting import _Column, draw_report
        from ._resample import prepared_from_layout

        draw_report(plot, [_Column(is_pos, None, None, prep=prepared_from_layout(lay, wl))
                           for lay, wl in lays], names, plot_seed)
    total_p, total_n = class_weights(is_pos, w)
    return Report(models, comparisons, n, total_p, total_n, ci, level, bool(w.shape[0]),
                  groups, omnibus)
