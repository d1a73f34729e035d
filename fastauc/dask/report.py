"""Reports and metrics per group on Dask."""

from __future__ import annotations

from .. import _validation as v
from .._adapters.docstrings import dask_doc
from .._adapters.inference import boot_interval, report_bootstrap
from .._adapters.ranges import n_ranges_for
from .._adapters.reports import (
    bucket_metrics,
    concat_metrics,
    group_accumulators,
    model_section,
    prob_loss_block,
    range_report,
    refuse_chosen_options,
    report_of,
    warn_single_class,
)
from .inference import delong_graph
from .ranges import (aligned_columns, classes_of, column_graphs, columns_of, load_dask, oriented,
                     read_block, totals_with_keys)


def _bootstrap_intervals(y_true, cols, sample_weight, pos_label, level, ci, options):
    """Each model's delayed bootstrap interval (``ci="bootstrap"``), else Nones."""
    from .inference import replicates_graph

    boot = report_bootstrap(ci, level, options, "fastauc.dask")
    if boot is None:
        return [None] * len(cols)
    n_resamples, seed, method = boot
    dask, _ = load_dask()
    return [dask.delayed(boot_interval)(*replicates_graph(y_true, c, sample_weight, seed,
                                                          n_resamples, pos_label),
                                        level, method) for c in cols]


@dask_doc
def report(y_true, y_scores=None, *, target=None, scores=None, weight=None, sample_weight=None,
           names=None, pos_label=None, confidence_level=0.95, ci="delong", compute=True,
           at_specificity=None, at_sensitivity=None, calibration=None, **bootstrap_options):
    """:func:`fastauc.report` of data held by Dask.

    ``report(y, [s1, s2], ...)`` with dask arrays or Series, or
    ``report(ddf, target="y", scores=["p", "q"], weight="w")`` with a dask
    DataFrame.  Each model's AUC, DeLong interval, Gini, average precision,
    log loss (when its scores are probabilities), best thresholds by F1, MCC
    and Youden and lifts at 1/5/10% come from its key ranges (each range's
    best points and lift edges, from the weight above it); the paired tests
    from :func:`delong_covariance`.  One graph: with DeLong intervals each
    column is read and sorted once.  ``ci="bootstrap"`` gives each model the
    interval of :func:`bootstrap_ci` (``scheme="poisson"``: ``n_resamples``,
    ``random_state``, ``method`` in ``bootstrap_options``), the same as the
    in-memory report with ``scheme="poisson"``; its replicates sort each
    column once more, in its key ranges.

    Parameters
    ----------
    y_true : dask array, dask Series, array-like of shape (n_samples,), or dask DataFrame
        Binary labels: {0, 1}, {-1, 1}, bool, strings..., the greater one
        positive unless ``pos_label`` is given.  With ``target``: the dask
        DataFrame that holds the label, score and weight columns.
    y_scores : list of dask arrays or Series, 2-D dask array or dask DataFrame, default=None
        One column per model, on the rows of ``y_true`` (a list or tuple of
        1-D columns, the columns of a 2-D array of shape (n_samples, k), the
        columns of a dask DataFrame, or one 1-D column).  Not used with
        ``target``.
    target : str, default=None
        The label column of the frame passed as ``y_true``; ``scores`` is
        then required.
    scores : list of str, default=None
        With ``target``: the score columns, one per model (and the models'
        default names).
    weight : str, default=None
        With ``target``: the column of weights (else ``sample_weight``).
    {sample_weight/delong}
    {names}
    {pos_label/greater}
    {confidence_level/report}
    {ci}
    {compute}
    at_specificity, at_sensitivity : None
        Not available on Dask (the in-memory report's operating points read
        each model's whole curve): anything but None raises.
    calibration : bool or None, default=None
        The calibration block of :func:`fastauc.report` (Brier score, its
        CORP decomposition, the 15-bin calibration error), from each key
        range's table: PAV blocks, Brier sums and bins, pooled on the
        client.  None: for the models whose scores are probabilities (all in
        [0, 1]); True: for every model (other scores raise when computing);
        False: never.
    {**bootstrap_options}

    Returns
    -------
    report : fastauc.Report or dask.delayed.Delayed
        ``models`` (one :class:`fastauc.ModelReport` each: ``auc``,
        ``auc_low``, ``auc_high``, ``auc_se``, ``gini``,
        ``average_precision``, ``log_loss`` (None unless every score is in
        [0, 1]), ``best`` (for "f1", "mcc" and "youden": the threshold, the
        value and the confusion metrics there), ``lift`` at 1%, 5% and 10%)
        and ``comparisons`` (the paired DeLong test of every pair of
        models).  ``str(report)`` is a table, ``report.to_dict()`` plain
        JSON-ready types.  A ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: ``target`` without ``scores``, ``names`` of
        another length than the score columns, a ``confidence_level`` outside
        (0, 1), a ``ci`` other than "delong" or "bootstrap", bootstrap options
        that :func:`bootstrap_ci` refuses, ``at_specificity`` or
        ``at_sensitivity``, a ``calibration`` other than None, True or
        False, score columns of another length
        than ``y_true`` (dask arrays and array-likes) or not 1-D.  When
        computing (from ``.compute()`` with ``compute=False``): a NaN or
        infinite score (naming its global row), labels with more than two
        values or a mix of strings and numbers, no rows at all, negative or
        non-finite weights, weights that are all zero (as in memory).
    TypeError
        ``bootstrap_options`` with ``ci="delong"``, or options that
        :func:`bootstrap_ci` does not take.

    See Also
    --------
    fastauc.report : The in-memory function (also ``by`` and ``plot``).
    by_group : Every group's AUC, on Dask.
    delong_test : The paired test of two models.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> a = np.round(y + rng.normal(size=10_000), 2)      # a good model
    >>> b = np.round(y + 2 * rng.normal(size=10_000), 2)  # a weaker one
    >>> Y, A, B = (da.from_array(x, 1000) for x in (y, a, b))  # 10 chunks each
    >>> r = fastauc.dask.report(Y, [A, B], names=["good", "weak"])
    >>> ref = fastauc.report(y, np.column_stack((a, b)), names=["good", "weak"])
    >>> [round(m.auc, 3) for m in r.models]
    [0.756, 0.642]
    >>> all(abs(m.auc_high - n.auc_high) < 1e-12 for m, n in zip(r.models, ref.models))
    True
    >>> r.models[0].best["f1"]["threshold"] == ref.models[0].best["f1"]["threshold"]
    True
    >>> abs(r.comparisons[0]["difference"] - ref.comparisons[0]["difference"]) < 1e-12
    True

    A dask DataFrame's columns by name:

    >>> import dask.dataframe as dd, pandas as pd
    >>> frame = dd.from_pandas(pd.DataFrame({"y": y, "a": a, "b": b}), npartitions=5)
    >>> r = fastauc.dask.report(frame, target="y", scores=["a", "b"])
    >>> [m.name for m in r.models], [round(m.auc, 3) for m in r.models]
    (['a', 'b'], [0.756, 0.642])

    Bootstrap intervals (Poisson scheme), the in-memory ones:

    >>> r = fastauc.dask.report(Y, [A, B], ci="bootstrap", n_resamples=200, random_state=1)
    >>> ref = fastauc.report(y, np.column_stack((a, b)), ci="bootstrap", n_resamples=200,
    ...                      random_state=1, scheme="poisson")
    >>> [m.auc_low == n.auc_low for m, n in zip(r.models, ref.models)]
    [True, True]
    """
    from .._kernels.thresholds import CODES
    from ..report import BEST_METRICS, LIFT_FRACTIONS

    calibration = refuse_chosen_options(at_specificity, at_sensitivity, calibration,
                                        "fastauc.dask")
    if target is not None:
        frame = y_true
        if scores is None:
            raise ValueError("report(ddf, target=...) needs scores=[column, ...]")
        y_true = frame[target]
        cols = [frame[c] for c in scores]
        sample_weight = frame[weight] if weight is not None else sample_weight
        names = list(scores) if names is None else names
    else:
        cols = columns_of(y_scores)
    level = v.check_confidence_level(confidence_level)
    boots = _bootstrap_intervals(y_true, cols, sample_weight, pos_label, level, ci,
                                 bootstrap_options)
    k = len(cols)
    names = [f"model_{j + 1}" for j in range(k)] if names is None else list(names)
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries for {k} score columns")
    dask, _ = load_dask()
    delayed = dask.delayed
    codes = [CODES[m] for m in BEST_METRICS]
    # the graphs the paired tests need (``track``): built here and there, computed once
    _, graphs, col_blocks = column_graphs(y_true, cols, sample_weight, pos_label, track=k > 1)
    classes = graphs[0]["classes"]
    sections = []
    for j, (g, blocks) in enumerate(zip(graphs, col_blocks)):
        totals = delayed(list)([delayed(totals_with_keys)(r) for r in g["ranges"]])
        parts = [delayed(range_report)(r, totals, kk, codes, LIFT_FRACTIONS,
                                       calibration is not False)
                 for kk, r in enumerate(g["ranges"])]
        losses = [delayed(prob_loss_block)(y, s, w, classes) for y, s, w in blocks]
        sections.append(delayed(model_section)(names[j], g["tallies"], parts, level,
                                                BEST_METRICS, LIFT_FRACTIONS, losses,
                                                boots[j], calibration))
    tallies0 = graphs[0]["tallies"]
    cov = delong_graph(y_true, cols, sample_weight, pos_label) if k > 1 else None

    result = delayed(report_of)(sections, tallies0, cov, names, level, ci,
                                sample_weight is not None)
    return result.compute() if compute else result


# ---------------------------------------------------------------- per group

@dask_doc
def by_group(y_true, y_score, groups, *, sample_weight=None, pos_label=None,
             confidence_level=0.95, dropna=False, compute=True):
    """:func:`fastauc.by_group` of dask collections: every group's AUC with its
    DeLong interval, AP, log loss and counts, exactly.

    Each block keeps one accumulator per group; the groups are dealt into
    buckets by a checksum of their label (the same on every worker), each
    bucket merges its groups' accumulators from all blocks and computes their
    rows of the table; the client puts the buckets' rows in group order.
    ``groups`` is a dask array or Series, or a tuple of them.

    Parameters
    ----------
    {y_true/pos_label}
    {y_score}
    {groups}
    {sample_weight/delong}
    {pos_label/greater}
    {confidence_level/groups}
    {dropna}
    {compute}

    Returns
    -------
    table : fastauc.GroupMetrics or dask.delayed.Delayed
        Arrays per column (``n``, ``n_pos``, ``n_neg``, ``pos_weight``,
        ``neg_weight``, ``auc``, ``auc_low``, ``auc_high``, ``auc_se``,
        ``average_precision``, ``log_loss``) in sorted group order, with
        ``groups`` (``"group"``, or ``"group_0"``, ``"group_1"``... for a
        tuple) and ``to_pandas()``, ``to_polars()`` and ``to_dict()``.  A
        ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: a ``confidence_level`` outside (0, 1), columns
        of different lengths (dask arrays and array-likes) or not 1-D.  When
        computing (from ``.compute()`` with ``compute=False``): a NaN or
        infinite score (naming its global row), labels with more than two
        values or a mix of strings and numbers, no rows at all, negative or
        non-finite weights, weights that are all zero (as in memory); a
        missing group label without ``dropna=True``; no rows in any group.

    Warns
    -----
    UndefinedMetricWarning
        With ``compute=True``, once, counting the groups with a single class
        (their AUC and interval are NaN), as in memory.

    See Also
    --------
    fastauc.by_group : The in-memory function.
    report : Several models on one set of rows, on Dask.
    roc_auc_ci : One AUC with its interval, on Dask.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> a = np.round(y + rng.normal(size=10_000), 2)      # a good model
    >>> b = np.round(y + 2 * rng.normal(size=10_000), 2)  # a weaker one
    >>> Y, A, B = (da.from_array(x, 1000) for x in (y, a, b))  # 10 chunks each
    >>> g = np.array(["north", "south", "west"])[rng.integers(0, 3, 10_000)]
    >>> res = fastauc.dask.by_group(Y, A, da.from_array(g, 1000))
    >>> ref = fastauc.by_group(y, a, g)
    >>> res.groups["group"].tolist(), res.n.tolist() == ref.n.tolist()
    (['north', 'south', 'west'], True)
    >>> bool(np.allclose(res.auc, ref.auc, rtol=1e-12, atol=0))
    True
    >>> bool(np.allclose(res.auc_low, ref.auc_low, rtol=1e-12, atol=0))
    True
    """
    level = v.check_confidence_level(confidence_level)
    dask, _ = load_dask()
    delayed = dask.delayed
    cols = groups if isinstance(groups, tuple) else (groups,)
    names = ["group"] if len(cols) == 1 else [f"group_{i}" for i in range(len(cols))]
    (s, y, w, *group_blocks), offsets, n_rows = aligned_columns(
        [y_score, y_true, sample_weight, *cols], ["y_score", "y_true", "sample_weight", *names])
    blocks = list(zip(y, s, w if w is not None else [None] * len(s)))
    metas = [delayed(read_block, nout=2)(y, s, w, o)[1] for (y, s, w), o in
             zip(blocks, offsets)]
    positive = delayed(lambda c: c[-1])(delayed(oriented)(delayed(classes_of)(metas),
                                                           pos_label))
    n_buckets = n_ranges_for(len(blocks), n_rows)
    split = [delayed(group_accumulators, nout=n_buckets)(
        y, s, w, tuple(gb[b] for gb in group_blocks), n_buckets, dropna)
        for b, (y, s, w) in enumerate(blocks)]
    buckets = [delayed(bucket_metrics)(positive, level, len(cols), *[sp[j] for sp in split])
               for j in range(n_buckets)]
    result = delayed(concat_metrics)(buckets, names)
    if not compute:
        return result
    table = result.compute()
    warn_single_class(table)
    return table
