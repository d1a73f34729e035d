"""Reports of data larger than memory: batches into accumulators, two passes.

:func:`report_stream` gives the :class:`~fastauc.Report` that
:func:`~fastauc.report` gives on the concatenated batches (DeLong intervals),
holding only one :class:`~fastauc.Accumulator` per model (and per group with
``by``): memory O(distinct scores), not O(rows).  A first pass fills the
accumulators; with several models, a second pass looks up each row's
placement under every model in the finished tables and adds up the k x k
DeLong covariance, so the paired tests are exact too.  The command line's
``fastauc report FILE --stream`` reads record batches with pyarrow into it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from . import _validation as v
from ._delong import covariance_from_sums
from ._kernels.placements import placement_covariance
from ._kernels.table import bucket_starts, find_keys
from ._table import float_keys, placement_values
from .accumulator import Accumulator
from .groups import by_group
from ._report_blocks import check_calibration, check_rates
from .report import Report, pair_tests, report

__all__ = ["report_stream"]


def report_stream(batches, *, names=None, pos_label=None, confidence_level=0.95,
                  progress=None, at_specificity=None, at_sensitivity=None,
                  calibration=None, background=False) -> Report:
    """The DeLong :func:`~fastauc.report` of data read in batches, twice at most.

    Parameters
    ----------
    batches : callable
        ``batches()`` returns a new iterator of ``(y_true, y_scores,
        sample_weight, groups)`` tuples: labels (n,), scores (n, k) (or (n,)
        for one model), weights (n,) or None, and group labels (an array or a
        tuple of arrays, or None) when the report is per group.  It is called
        once, or twice with several models (the paired tests' second pass),
        and must give the same rows both times.
    names : list of str, default=None
        Model names (``model_1``, ... by default, as :func:`~fastauc.report`).
    pos_label : int, float, bool or str, default=None
        The positive class (default: the greater of the two labels).
    confidence_level : float, default=0.95
        Level of the DeLong intervals and of the paired tests' intervals.
    progress : callable, default=None
        Called with the number of rows of each batch read (a progress bar's
        ``update``).
    at_specificity, at_sensitivity : float or sequence of float, default=None
        The operating points of :func:`~fastauc.report` (Wilson intervals),
        from each model's table.
    calibration : bool or None, default=None
        The calibration block of :func:`~fastauc.report` (None: for the
        models whose scores are probabilities), from each model's table.
    background : bool, default=False
        With groups in the batches: each group's BPSN and BNSP AUCs
        (:func:`~fastauc.subgroup_aucs`) added to its table, from the
        groups' tables (each distinct score's weight per class counts as
        its rows: the values of the rows themselves).

    Returns
    -------
    Report
        Equal to ``report(y, S, sample_weight=w, ci="delong", by=groups,
        background=background)`` on the concatenated batches (to 1e-12).

    Raises
    ------
    ValueError
        If the batches hold no rows, or ``names`` does not have one entry
        per score column.

    See Also
    --------
    fastauc.report : The same report of rows held in memory.
    fastauc.Accumulator : The state kept for each model (and group).
    fastauc.by_group : The per-group table of rows held in memory.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import report
    >>> from fastauc.streaming import report_stream
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> S = np.column_stack((y + rng.normal(size=1000), y + 2 * rng.normal(size=1000)))
    >>> chunks = lambda: ((y[a:a + 300], S[a:a + 300], None, None) for a in range(0, 1000, 300))
    >>> r = report_stream(chunks)
    >>> round(r.comparisons[0].pvalue, 12) == round(report(y, S).comparisons[0].pvalue, 12)
    True
    """
    level = v.check_confidence_level(confidence_level)
    chosen = {"at_specificity": check_rates(at_specificity, "at_specificity"),
              "at_sensitivity": check_rates(at_sensitivity, "at_sensitivity"),
              "calibration": check_calibration(calibration)}
    accs = groups = None
    proba = True  # every batch's 2 columns sum to 1, row by row: predict_proba output
    for y, S, w, g in batches():
        S = np.asarray(S, np.float64)
        S = S.reshape(-1, 1) if S.ndim == 1 else S
        proba = proba and v.looks_like_proba(S)
        if accs is None:
            k = S.shape[1]
            accs = [Accumulator(pos_label) for _ in range(k)]
            groups = {} if g is not None else None
        for j, acc in enumerate(accs):
            acc.update(y, S[:, j], w)
        if groups is not None:
            feed_groups(groups, y, S, w, g, pos_label)
        if progress is not None:
            progress(S.shape[0])
    if accs is None or accs[0].n_samples == 0:
        raise ValueError("the batches hold no rows")
    if proba:  # as report() warns
        classes = accs[0]._classes
        positive = 0 if pos_label is not None and pos_label == classes[0] else 1
        v.warn_proba("y_scores", positive)
    k = len(accs)
    names = [f"model_{j + 1}" for j in range(k)] if names is None else list(names)
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries for {k} score columns")
    # each model's report from its table's rows (one row per distinct score
    # and class, weighted), as ``Accumulator.report``, with the chosen rates
    # and the calibration block of the same table
    reports = [dataclasses.replace(acc._call(report, names=[name], confidence_level=level,
                                             **chosen),
                                   n_samples=acc.n_samples, weighted=acc._weighted)
               for acc, name in zip(accs, names)]
    models = [r.models[0] for r in reports]
    comparisons, omnibus = [], None
    if k > 1:
        aucs = np.array([m.auc for m in models])
        cov = _covariance(batches, accs, aucs, pos_label, progress)
        comparisons, omnibus = pair_tests(aucs, cov, names, level)
    by = {} if groups is None else _group_tables(groups, names, level, background)
    return dataclasses.replace(reports[0], models=models, comparisons=comparisons,
                               by_group=by, omnibus=omnibus)


def _placement_lookup(acc: Accumulator):
    """``(keys ascending, V10 per key, V01 per key)`` of a finished table: a
    positive's placement is the negative weight below its score (ties one
    half) over all of it, a negative's the positive weight above."""
    t = acc._table()
    v10, v01 = placement_values(t, 0.0, 0.0, float(t.pos.sum()), float(t.neg.sum()))
    keys = np.ascontiguousarray(t.keys[::-1])
    # buckets of the key range, about one key each: a lookup searches one bucket
    kmin, span = int(keys[0]), int(keys[-1]) - int(keys[0])
    shift = max(0, span.bit_length() - max(1, keys.shape[0].bit_length()))
    starts = np.empty((span >> shift) + 2, np.int64)
    bucket_starts(keys, np.uint64(kmin), np.uint64(shift), starts)
    return (keys, starts, np.uint64(kmin), np.uint64(shift), np.ascontiguousarray(v10[::-1]),
            np.ascontiguousarray(v01[::-1]))


def _covariance(batches, accs, aucs, pos_label, progress):
    """DeLong's covariance of the models' AUCs, from a second pass over the rows."""
    lookups = [_placement_lookup(acc) for acc in accs]
    k = len(accs)
    s = np.zeros((2, k, k))
    ws = np.zeros(2)
    positive = _positive(accs[0], pos_label)
    for y, S, w, _ in batches():
        S = np.asarray(S, np.float64)
        S = S.reshape(-1, 1) if S.ndim == 1 else S
        is_pos = v.positive_mask(v.as_label_array(y), positive)
        w = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
        X = np.empty((k, S.shape[0]))
        at = np.empty(S.shape[0], np.int64)
        for j, (keys, starts, kmin, shift, v10, v01) in enumerate(lookups):
            find_keys(keys, starts, kmin, shift, float_keys(S[:, j]), at)
            # a score held only by rows of weight zero is not in the table: any
            # value will do for those rows (weight zero), the nearest key's is taken
            np.minimum(at, keys.shape[0] - 1, out=at)
            X[j] = np.where(is_pos, v10[at], v01[at])
        part, wpart = placement_covariance(X, is_pos, w, aucs, 0, S.shape[0])
        s += part
        ws += wpart
        if progress is not None:
            progress(S.shape[0])
    return covariance_from_sums(s, ws, warn=False)  # the models' sections warned


def _positive(acc: Accumulator, pos_label):
    return pos_label if pos_label is not None else acc._classes[-1]


def feed_groups(groups, y, S, w, g, pos_label):
    """Feed each group's rows of the batch to its accumulators (one per model)."""
    cols = [np.asarray(c) for c in (g if isinstance(g, tuple) else (g,))]
    uniques, code = [], np.zeros(S.shape[0], np.int64)
    for c in cols:
        u, inv = np.unique(c, return_inverse=True)
        uniques.append(u)
        code = code * u.shape[0] + inv.reshape(-1)
    present, inv, counts = np.unique(code, return_inverse=True, return_counts=True)
    order = np.argsort(inv.reshape(-1), kind="stable")
    ends = np.cumsum(counts)
    for gi, combined in enumerate(present.tolist()):
        rows = order[ends[gi] - counts[gi]:ends[gi]]
        key = []
        for u in reversed(uniques):  # undo the mixed-radix code, last column first
            combined, at = divmod(combined, u.shape[0])
            key.append(u[at].item() if hasattr(u[at], "item") else u[at])
        key = tuple(reversed(key))
        accs = groups.get(key)
        if accs is None:
            accs = groups[key] = [Accumulator(pos_label) for _ in range(S.shape[1])]
        for j, acc in enumerate(accs):
            acc.update(y[rows], S[rows, j], None if w is None else w[rows])


def _group_tables(groups, names, level, background=False):
    """Each model's :class:`~fastauc.GroupMetrics`: ``by_group`` on the groups'
    tables (one row per distinct score and class, its weight the class's
    weight there: frequency weights, so the intervals and the background
    AUCs' variances are those of the rows), with the row counts."""
    keys = list(groups)
    n_cols = len(keys[0])
    out = {}
    for j, name in enumerate(names):
        ys, ss, ws, gs = [], [], [], []
        for key in keys:
            y, s, w, _ = groups[key][j]._rows_of()
            ys.append(y)
            ss.append(s)
            ws.append(w)
            gs.append([key] * y.shape[0])
        labels = [np.array([key[c] for part in gs for key in part]) for c in range(n_cols)]
        result = by_group(np.concatenate(ys), np.concatenate(ss),
                          labels[0] if n_cols == 1 else tuple(labels),
                          sample_weight=np.concatenate(ws), confidence_level=level,
                          background=background)
        rows = {key: groups[key][j]._rows for key in keys}
        ordered = list(zip(*(lab.tolist() for lab in result.groups.values())))
        n_neg = np.array([rows[key][0] for key in ordered], np.int64)
        n_pos = np.array([rows[key][1] for key in ordered], np.int64)
        weighted = any(groups[key][j]._weighted for key in keys)
        out[name] = dataclasses.replace(result, n=n_pos + n_neg, n_pos=n_pos, n_neg=n_neg,
                                        weighted=weighted)
    return out
