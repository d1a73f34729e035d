"""Models in production: the AUC expected before labels arrive, and the AUCs
of subgroups (``subgroup_aucs``: ``by_group``'s AUC of each group and the
two background AUCs of Borkan et al. 2019, from one sort, ``_subgroups``).

``expected_roc_auc`` takes each probability as calibrated: a row of
probability ``p`` counts as a positive of weight ``p`` and a negative of
weight ``1 - p`` (NannyML's confidence-based performance estimation).  The
rows sharing a probability make one entry of the distinct-score table, with
positive weight ``p T`` and negative weight ``(1 - p) T`` (``T`` their
weight), so the expected AUC and average precision are one sort and one
sweep of that table, and the expected curves come from the same table.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from . import _validation as v
from ._device import dispatch
from . import _over_time as ot
from ._groups import group_codes
from ._over_time import AUCOverTime
from ._stats import ALTERNATIVES
from ._probabilities import check_range as _check_range
from ._subgroups import (AUC_COLUMNS, SubgroupAUCs, background_columns, check_dropna,
                         undefined_words)
from ._subgroups import validated
from ._table import Table
from .calibration import calibration_error
from .ranking import precision_recall_curve, roc_curve

__all__ = ["AUCOverTime", "ExpectedAUC", "SubgroupAUCs", "auc_over_time", "expected_roc_auc",
           "subgroup_aucs"]

UNDEFINED_EXPECTED = ("Every probability is {which}: one class has no expected weight. The "
                      "expected ROC AUC is not defined in that case.")


@dataclass(frozen=True)
class ExpectedAUC:
    """Result of :func:`expected_roc_auc`.

    Attributes
    ----------
    roc_auc : float
        The ROC AUC expected if the probabilities are calibrated.
    average_precision : float
        The average precision expected likewise.
    expected_positives : float
        The expected positive weight, the sum of ``sample_weight * p``
        (rows, unweighted).
    n_samples : int
        Rows scored.
    reference_calibration_error : float or None
        :func:`calibration_error` of the labelled ``reference`` (None
        without one).

    Methods
    -------
    roc_curve(drop_intermediate=True)
        The expected ROC curve: ``(fpr, tpr, thresholds)`` as
        :func:`roc_curve` returns them.
    precision_recall_curve(drop_intermediate=False)
        The expected precision-recall curve.

    See Also
    --------
    expected_roc_auc : The function returning this record.

    Examples
    --------
    >>> from fastauc import expected_roc_auc
    >>> est = expected_roc_auc([0.1, 0.4, 0.35, 0.8])
    >>> round(est.roc_auc, 4), round(est.expected_positives, 6)
    (0.7772, 1.65)
    >>> fpr, tpr, thresholds = est.roc_curve()
    """

    roc_auc: float
    average_precision: float
    expected_positives: float
    n_samples: int
    reference_calibration_error: float | None
    _table: Table = field(repr=False, compare=False)

    def _rows(self):
        """The table as rows: each distinct probability once positive (weight
        ``p T``) and once negative (``(1 - p) T``)."""
        t = self._table
        m = len(t)
        s = t.scores
        y = np.concatenate((np.ones(m, np.int8), np.zeros(m, np.int8)))
        return y, np.concatenate((s, s)), np.concatenate((t.pos, t.neg))

    def roc_curve(self, drop_intermediate=True):
        """``(fpr, tpr, thresholds)`` of the expected ROC curve."""
        y, s, w = self._rows()
        return roc_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate)

    def precision_recall_curve(self, drop_intermediate=False):
        """``(precision, recall, thresholds)`` of the expected precision-recall curve."""
        y, s, w = self._rows()
        return precision_recall_curve(y, s, sample_weight=w,
                                      drop_intermediate=drop_intermediate)


@dispatch("y_prob")
def expected_roc_auc(y_prob, *, sample_weight=None, reference=None,
                     max_calibration_error=0.05) -> ExpectedAUC:
    """The ROC AUC (and average precision, and curves) expected before the
    labels arrive, if the probabilities are calibrated.

    Each row of probability ``p`` counts once as a positive of weight ``p``
    and once as a negative of weight ``1 - p`` (times its ``sample_weight``):
    the result is :func:`roc_auc_score` of those doubled rows, which is the
    expected AUC's ratio estimate (expected concordant pair weight over
    expected pairs) when each label is drawn with its probability.  This is
    the estimate of NannyML's confidence-based performance estimation
    (CBPE).  It is only as good as the calibration: pass a labelled
    ``reference`` (recent rows whose labels have arrived) to have it
    checked.

    Parameters
    ----------
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights.
    reference : tuple ``(y_true, y_prob)`` or ``(y_true, y_prob, sample_weight)``, default=None
        Labelled rows of the same model.  Their :func:`calibration_error`
        (15 equal-width bins, l1) is returned, and a ``UserWarning`` is given
        when it exceeds ``max_calibration_error``.
    max_calibration_error : float, default=0.05
        The reference's calibration error above which the estimate is
        flagged.  A calibrated model's binned error is not zero on finite
        data (about ``sqrt(bins / n)`` at most): choose it with the
        reference's size in mind.

    Returns
    -------
    ExpectedAUC
        ``roc_auc``, ``average_precision``, ``expected_positives``,
        ``n_samples``, ``reference_calibration_error``, and the methods
        ``roc_curve()`` and ``precision_recall_curve()``.  NaN, with an
        ``UndefinedMetricWarning``, when every probability is 0 (no expected
        positive) or every one is 1.

    Raises
    ------
    ValueError
        Probabilities outside [0, 1] (scikit-learn's words), NaN or infinite
        ones, not 1-D, of another length than ``sample_weight``, or none.

    Warns
    -----
    UserWarning
        When the reference's calibration error exceeds ``max_calibration_error``.

    See Also
    --------
    roc_auc_score : The AUC once labels are known.
    calibration_error, reliability_curve : How calibrated the probabilities are.

    References
    ----------
    .. [1] NannyML, "Confidence-based Performance Estimation (CBPE)",
       https://nannyml.readthedocs.io (how it works: estimation of the
       ROC AUC).

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import expected_roc_auc, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> p = rng.beta(1, 3, 5000)                 # calibrated probabilities
    >>> y = rng.random(5000) < p                 # labels drawn from them
    >>> est = expected_roc_auc(p)
    >>> round(est.roc_auc, 3), round(roc_auc_score(y, p), 3)
    (0.786, 0.786)
    >>> fpr, tpr, thresholds = est.roc_curve()
    """
    p = v.as_float_array(y_prob, "y_prob")
    if p.shape[0] == 0:
        raise v.empty_error("y_prob", p.shape)
    v.check_finite(p, "y_prob")
    _check_range(p)
    w = v.check_sample_weight(sample_weight, p.shape[0], names=("y_prob",))
    limit = float(max_calibration_error)
    if not limit >= 0:
        raise ValueError(f"max_calibration_error must be a number >= 0, got "
                         f"{max_calibration_error!r}")
    ece = None
    if reference is not None:
        if not isinstance(reference, tuple) or len(reference) not in (2, 3):
            raise TypeError("reference must be a tuple (y_true, y_prob) or (y_true, y_prob, "
                            f"sample_weight), got {type(reference).__name__}")
        ece = float(calibration_error(*reference[:2], sample_weight=(
            reference[2] if len(reference) == 3 else None)))
        if ece > limit:
            warnings.warn(f"The reference's calibration error is {ece:.4g}, above "
                          f"max_calibration_error={limit:g}: the expected ROC AUC assumes "
                          "calibrated probabilities (recalibrate them, e.g. with "
                          "sklearn.calibration.CalibratedClassifierCV, or lower the trust in "
                          "this estimate).", UserWarning, stacklevel=2)
    counts = Table.from_rows(np.ones(p.shape[0], bool), p, w, name="y_prob")
    probs = counts.scores
    table = Table(counts.keys, probs * counts.pos, (1.0 - probs) * counts.pos)
    sw = table.sweep()
    expected = float(sw.tp)
    if sw.tp <= 0 or sw.fp <= 0:
        v.warn_undefined(UNDEFINED_EXPECTED.format(which="0" if sw.tp <= 0 else "1"),
                         stacklevel=None)
        auc = ap = math.nan
    else:
        auc, ap = float(sw.auc), float(sw.average_precision)
    return ExpectedAUC(auc, ap, expected, int(p.shape[0]), ece, table)


@dispatch("y_score")
def subgroup_aucs(y_true, y_score, groups, *, sample_weight=None, pos_label=None,
                  confidence_level=0.95, dropna=False) -> SubgroupAUCs:
    """The subgroup AUC, BPSN AUC and BNSP AUC of every group, with DeLong's
    intervals: the bias metrics of Borkan et al. (2019).

    For a group ``g``: the *subgroup AUC* is the AUC of ``g``'s rows (how
    well the model ranks within the group); *BPSN* (background positive,
    subgroup negative) the AUC of the positives outside ``g`` over ``g``'s
    negatives (low when the model scores the group's negatives too high);
    *BNSP* (background negative, subgroup positive) the AUC of ``g``'s
    positives over the negatives outside ``g`` (low when it scores the
    group's positives too low).  Each equals :func:`roc_auc_score` of the
    rows it is defined on, and its interval :func:`roc_auc_ci`'s.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the positive class is ``pos_label`` or the greater label.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    groups : array-like of shape (n_samples,) or tuple of them
        Group labels (as :func:`by_group` takes them): one group per label,
        or per combination of the columns' labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    pos_label : label, default=None
        The positive class.
    confidence_level : float, default=0.95
        Level of the DeLong intervals.
    dropna : bool, default=False
        Leave out rows whose group label is missing instead of raising.

    Returns
    -------
    SubgroupAUCs
        Per group (sorted group order): ``n``, ``n_pos``, ``n_neg``, and for
        ``subgroup``, ``bpsn`` and ``bnsp`` the ``_auc``, ``_low``,
        ``_high`` and ``_se`` columns; ``to_dict()``, ``to_pandas()``.

    Warns
    -----
    UndefinedMetricWarning
        When a group has one class (its subgroup AUC is NaN), or a group or
        the rows outside it lack a class (its BPSN or BNSP AUC is NaN).

    See Also
    --------
    by_group : Every metric per group, within the group only.
    roc_auc_ci : One AUC with its interval.

    Notes
    -----
    The background AUCs need, for each group's rows, their placements among
    all rows minus those within the group, and for DeLong's variance the
    sum over all the background rows of their squared placement among the
    group's rows: a step function with steps at the group's own scores, read
    off the overall placements at those scores.  One sort of all rows, one
    pass for their placements and one walk of each group's rows: O(n) after
    the sort, whatever the number of groups.

    References
    ----------
    .. [1] Borkan, D., Dixon, L., Sorensen, J., Thain, N. and Vasserman, L.
       (2019). Nuanced metrics for measuring unintended bias with real data
       for text classification. Companion Proceedings of WWW 2019, 491-500.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import subgroup_aucs
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 3, 3000)
    >>> y = rng.integers(0, 2, 3000)
    >>> s = y + rng.normal(size=3000) + 0.8 * (g == 2)   # group 2 scored too high
    >>> res = subgroup_aucs(y, s, g)
    >>> res.bpsn_auc.round(2).tolist(), res.bnsp_auc.round(2).tolist()
    ([0.84, 0.82, 0.55], [0.64, 0.65, 0.9])
    """
    level = v.check_confidence_level(confidence_level)
    dropna = check_dropna(dropna)
    is_pos, s, w = validated(y_true, y_score, sample_weight, pos_label)
    gc = group_codes(groups, s.shape[0])
    is_pos, s, w, codes = gc.labelled(is_pos, s, w, dropna)
    cols = background_columns(is_pos, s, w, codes, gc.n_groups, level)
    n_groups = cols["n"].shape[0]
    one_class = int(np.count_nonzero(np.isnan(cols["subgroup_auc"])))
    if one_class:
        v.warn_undefined(f"{v.ONE_CLASS} ({one_class} of {n_groups} groups have a single "
                         "class; their subgroup AUC is NaN)", stacklevel=None)
    words = undefined_words(cols["bpsn_auc"], cols["bnsp_auc"])
    if words:
        v.warn_undefined(words, stacklevel=None)
    labels = {name: lab[cols["present"]] for name, lab in zip(gc.names, gc.labels)}
    return SubgroupAUCs(labels, cols["n"], cols["n_pos"], cols["n"] - cols["n_pos"],
                        *(cols[f"{name}_{part}"] for name in AUC_COLUMNS
                          for part in ("auc", "low", "high", "se")), level)


@dispatch("y_score")
def auc_over_time(y_true, y_score, time, *, freq, window=None, reference="first",
                  alternative="less", confidence_level=0.95, adjust="holm", sample_weight=None,
                  pos_label=None, expected="auto") -> AUCOverTime:
    """The ROC AUC per period of time (or per sliding window), its interval,
    and a test of its change against a reference period.

    The rows are cut into periods of ``freq`` by ``time``; period ``j``'s
    window holds the rows of the ``window / freq`` periods ending with it
    (just period ``j`` without ``window``).  Each window gets its AUC,
    DeLong's interval, average precision and (for probabilities) log loss,
    and DeLong's unpaired test (pROC's: Student's t with Welch's degrees of
    freedom) against the reference's rows, with p-values adjusted over the
    periods and a flag where the adjusted p-value is below ``1 -
    confidence_level`` in the direction of ``alternative``.  Rows whose
    label is missing (NaN, None) have not been labelled yet: they count in
    the expected AUC (:func:`expected_roc_auc`) of their window only.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; NaN or None where the label has not arrived.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    time : array-like of shape (n_samples,)
        Each row's time: datetimes (numpy, pandas, ``datetime``) or numbers,
        in any order.
    freq : str, timedelta, numpy.timedelta64 or float
        The length of a period: ``"1D"``, ``numpy.timedelta64(1, "h")``, or
        a number for numeric times.  Periods start at whole multiples of it
        (datetimes: counted from the Unix epoch).
    window : same type as ``freq``, default=None
        A sliding window of a whole number of periods (``"7D"`` with
        ``freq="1D"``: each day, the last seven days).
    reference : "first", int, tuple or None, default="first"
        The rows the windows are compared with: ``"first"`` the first full
        window, an int the window of that period, ``(start, end)`` the rows
        with ``start <= time < end``, None no test.  Windows that share rows
        with the reference are not tested (NaN).
    alternative : {"less", "greater", "two-sided"}, default="less"
        ``"less"``: a drop from the reference is flagged.
    confidence_level : float, default=0.95
        Level of the intervals; ``1 - confidence_level`` is the tests' level.
    adjust : {"holm", "bonferroni", None}, default="holm"
        How the p-values are adjusted for the number of periods tested.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    pos_label : label, default=None
        The positive class (the greater label by default).
    expected : {"auto", True, False}, default="auto"
        Add each window's expected AUC (scores must be probabilities):
        ``"auto"`` when some labels are missing and the scores are
        probabilities.

    Returns
    -------
    AUCOverTime
        One entry per period (``start``, ``end``, ``n``, ``auc``, ``low``,
        ``high``, ``se``, ``average_precision``, ``log_loss``,
        ``expected_auc``, ``difference``, ``statistic``, ``pvalue``,
        ``pvalue_adjusted``, ``flag``), ``to_pandas()``, ``plot()``.

    Raises
    ------
    ValueError
        Lengths that differ, NaN scores, labels that are not binary, a
        ``window`` that is not a whole number of periods, an unknown option.
    TypeError
        Times and durations of different kinds (datetimes with a number).

    Warns
    -----
    UndefinedMetricWarning
        When windows with labelled rows hold one class (their AUC is NaN).

    See Also
    --------
    Window : The same numbers as rows arrive.
    plot_over_time : Draw the result.
    delong_test : The unpaired test (``y_true_b=``) of two sets of rows.

    Notes
    -----
    One sort of all rows and one sweep from the highest score: the sweep
    keeps, for every window, its positive and negative weight above the
    current score, so each row reads its placement in each of the
    ``window / freq`` windows it belongs to and adds to their sums (pair
    weight, DeLong's squared placements, precision), and updates them: the
    cost is one sort and ``window / freq`` updates per row.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import auc_over_time
    >>> rng = np.random.default_rng(0)
    >>> days = np.datetime64("2026-01-01") + rng.integers(0, 28, 20000) * np.timedelta64(1, "D")
    >>> y = rng.integers(0, 2, 20000)
    >>> late = days >= np.datetime64("2026-01-22")
    >>> s = y * np.where(late, 0.4, 1.0) + rng.normal(size=20000)   # worse in the last week
    >>> res = auc_over_time(y, s, days, freq="7D")
    >>> res.auc.round(3).tolist(), res.flag.tolist()
    ([0.755, 0.756, 0.764, 0.609], [False, False, False, True])
    """
    level = v.check_confidence_level(confidence_level)
    v.check_choice(alternative, "alternative", ALTERNATIVES)
    v.check_choice(adjust, "adjust", ("holm", "bonferroni", None))
    v.check_choice(expected, "expected", ("auto", True, False))
    s = v.as_float_array(v.as_array(y_score, "y_score"), "y_score")
    y_raw = np.asarray(y_true) if not isinstance(y_true, np.ndarray) else y_true
    if y_raw.dtype.kind not in "fO":
        y_raw = v.as_label_array(y_true)
    n = v.check_lengths(y_true=y_raw, y_score=s)
    low_s, high_s = v.minmax(s) if n else (0.0, 0.0)  # one pass: NaN, inf, the range
    if not (np.isfinite(low_s) and np.isfinite(high_s)):
        v.raise_non_finite("y_score", s)
    w = v.check_sample_weight(sample_weight, n, frequency=True)
    codes, start, end, k, kind = ot.periods(time, n, freq, window)
    n_per = start.shape[0]
    missing = ot.missing_labels(y_raw)
    some = bool(missing.any())
    lab = ~missing
    y_l, s_l, c_l = (y_raw[lab], s[lab], codes[lab]) if some else (y_raw, s, codes)
    is_pos, _, w_l = v.binary_rows(y_l, None if not w.shape[0] else (w[lab] if some else w),
                                   pos_label, frequency=True, y_score=s_l)
    probs = bool(s.shape[0]) and low_s >= 0 and high_s <= 1
    sums, n_win, n_pos = ot.window_sums(is_pos, s_l, w_l, c_l, n_per, k,
                                        bounds=(float(low_s), float(high_s)))
    losses = ot.window_log_loss(is_pos, s_l, w_l, c_l, n_per, k) if probs else None
    exp_auc = None
    if expected is True and not probs:
        raise ValueError("expected AUCs need probabilities: y_score has values outside [0, 1]")
    if expected is True or (expected == "auto" and missing.any() and probs):
        exp_auc = ot.window_sums(np.ones(n, bool), s, w, codes, n_per, k, expected=True,
                                 bounds=(float(low_s), float(high_s)))[0][:, 0]
    ref = ot.reference_of(reference, sums, start, end, k)
    if ref is not None and ref[0] is None:  # a (start, end) pair: the rows in it
        bounds = ot.time_values(np.array(list(reference), dtype=start.dtype), 2,
                                "reference")[0]
        t_lab = ot.time_values(time, n, "time")[0][lab]
        inside = (t_lab >= bounds[0]) & (t_lab < bounds[1])
        if not inside.any():
            raise ValueError(f"reference={reference!r} holds no labelled row")
        ref = (ot.summaries([Table.from_rows(is_pos[inside], s_l[inside],
                                             w_l[inside] if w_l.shape[0] else w_l)])[0],
               ref[1])
    return ot.finish(sums, n_win, n_pos, losses, exp_auc, start, end, k, ref, level,
                     alternative, adjust)
