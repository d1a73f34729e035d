"""The engine-neutral half of reports and metrics per group on a cluster:
each key range's best points and lift edges, a model's section, the
comparisons; groups fed to accumulators, bucketed, merged and measured."""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._kernels.sorting import keys_to_floats
from .._stats import delong_variance, wald_interval
from ..accumulator import Accumulator
from .ranges import auc_of, range_points


# ---------------------------------------------------------------- reports

def refuse_chosen_options(at_specificity, at_sensitivity, calibration, engine):
    """The in-memory report's operating points read each model's whole curve
    (pROC's interpolation, the binomial or bootstrap intervals): not computed
    on a cluster, where the curve is cut into key ranges; asking for them
    raises before any task runs.  Returns the checked ``calibration``."""
    from .._report_blocks import check_calibration

    if at_specificity is not None or at_sensitivity is not None:
        raise ValueError(f"at_specificity and at_sensitivity are not available in "
                         f"{engine}.report (they read each model's whole curve in one place); "
                         "use fastauc.report on the rows in memory, or "
                         "fastauc.streaming.report_stream (the command line's --stream)")
    return check_calibration(calibration)


def range_report(table, totals, k, codes, fractions, calibration=False):
    """Range k's share of a report: each best-threshold metric's best point
    ``(value, key, tp, fp)`` (None when the range is empty) and, for each top
    fraction whose edge falls in the range, the positive weight above it;
    with ``calibration``, third, the range's share of the calibration block
    (:func:`range_calibration`)."""
    if calibration:
        return (*range_report(table, totals, k, codes, fractions),
                range_calibration(table))
    from .._kernels.thresholds import best_index, top_positives

    if not len(table):
        return [None] * len(codes), {}
    keys, tps, fps = range_points(table, totals, k, None)
    big_p = sum(t[0] for t in totals)
    big_n = sum(t[1] for t in totals)
    bests = []
    for code in codes:
        i, best = best_index(tps, fps, big_p, big_n, code, 1.0, 0.0, 0.0)
        bests.append((float(best), keys[i], float(tps[i]), float(fps[i])))
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    above, here = tp0 + fp0, float(tps[-1] + fps[-1])
    edges = {f: f * (big_p + big_n) for f in fractions}
    inside = {f: x for f, x in edges.items() if above < x <= here}
    lifts = {}
    if inside:
        xs = np.array(list(inside.values()))
        pos = top_positives(np.r_[tp0, tps], np.r_[fp0, fps], xs)
        lifts = dict(zip(inside, pos.tolist()))
    return bests, lifts





def range_calibration(table):
    """A key range's share of the calibration block, from its table (keys
    descending): ``()`` for an empty range, None when some score is outside
    [0, 1], else ``(bpos, btot, sse, bins)``: the range's PAV blocks
    (ascending; pooling the ranges' blocks in order gives the whole table's,
    ``_kernels.pav.pav_pool``), its Brier sum and its weight, sum of
    weighted probabilities and positive weight in each of the calibration
    error's bins."""
    from .._kernels.pav import pav_pool
    from .._probabilities import table_bins
    from .._report_blocks import CALIBRATION_BINS

    if not len(table):
        return ()
    asc = keys_to_floats(table.keys, np.empty_like(table.keys))[::-1]
    if asc[0] < 0.0 or asc[-1] > 1.0:
        return None
    asc = np.ascontiguousarray(asc)
    pos = np.ascontiguousarray(table.pos[::-1], np.float64)
    neg = np.ascontiguousarray(table.neg[::-1], np.float64)
    tot = pos + neg
    sse = float(np.sum(pos * np.square(1.0 - asc) + neg * np.square(asc)))
    bins = table_bins(asc, pos, neg, CALIBRATION_BINS)
    bpos, btot = pos.copy(), tot.copy()
    g = pav_pool(np.arange(len(table), dtype=np.int64), bpos, btot, tot * asc)
    return bpos[:g].copy(), btot[:g].copy(), sse, bins


def calibration_of_ranges(shares, total_p, total_n):
    """The calibration block (a dict, as ``report``'s) from the ranges'
    shares in range order (keys descending), or None when some score is not
    a probability: the ranges' PAV blocks pooled in ascending order, the
    Brier sums and the bins added."""
    from .._kernels.pav import pav_pool
    from .._probabilities import binned_error

    shares = [c for c in shares if not (isinstance(c, tuple) and c == ())]
    if not shares or any(c is None for c in shares):
        return None
    bpos = np.concatenate([c[0] for c in reversed(shares)])
    btot = np.concatenate([c[1] for c in reversed(shares)])
    g = pav_pool(np.arange(bpos.shape[0], dtype=np.int64), bpos, btot,
                 np.zeros(bpos.shape[0]))
    bpos, btot = bpos[:g], btot[:g]
    sse = 0.0
    bins = np.zeros_like(shares[0][3])
    for c in shares:
        sse += c[2]
        bins += c[3]
    total = total_p + total_n
    brier = sse / total
    with np.errstate(divide="ignore", invalid="ignore"):
        recal = float(np.sum(np.where(btot > 0, bpos * (btot - bpos) / btot, 0.0))) / total
    unc = total_p * total_n / total / total
    ece = binned_error(bins[0], bins[1], bins[2], "l1")
    return {"brier": float(brier), "miscalibration": float(brier - recal),
            "discrimination": float(unc - recal), "uncertainty": float(unc), "ece": ece}


def prob_loss_block(y, p, w, classes):
    """A block's log-loss sums ``(loss, weight)`` with ``p`` the probability of
    the positive class (as ``report``), or None when a score is not one."""
    from .._kernels.losses import log_loss_sum

    p = np.ascontiguousarray(p, np.float64)
    if not p.shape[0]:
        return 0.0, 0.0
    if p.min() < 0 or p.max() > 1:
        return None
    cls = v.positive_mask(np.asarray(y), classes[-1]).view(np.uint8).astype(np.int64)
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    loss, weight = log_loss_sum(p.reshape(-1, 1), cls, ww)
    return float(loss), float(weight)





def model_section(name, tallies, parts, level, codes_names, fractions, losses, boot=None,
                  calibration=False):
    """One model's :class:`~fastauc.ModelReport` from its ranges' shares; the
    interval DeLong's, or the bootstrap's ``boot`` when given.  With
    ``calibration`` (None: for probabilities; True: raise for other scores)
    the shares carry the calibration block's third."""
    from .._results import ThresholdMetrics
    from ..report import ModelReport

    auc = auc_of(tallies)
    if boot is not None:
        interval = boot
    else:
        var = delong_variance(tallies["stats"]) if not math.isnan(auc) else math.nan
        interval = wald_interval(auc, var, level)
    big_p, big_n = tallies["P"], tallies["N"]
    ap = float(max(0.0, tallies["ap_num"] / big_p)) if big_p > 0 else 0.0
    best = {}
    for j, metric in enumerate(codes_names):
        chosen = None
        for part in parts:
            c = part[0][j]
            if c is not None and (chosen is None or c[0] > chosen[0]):
                chosen = c
        value, key, tp, fp = chosen
        thr = keys_to_floats(np.array([key], np.uint64), np.empty(1, np.uint64))
        point = ThresholdMetrics(thr, np.array([tp]), np.array([fp]), big_p, big_n)
        best[metric] = {"threshold": float(thr[0]), "value": float(value)}
        best[metric].update({key_: float(getattr(point, key_)[0]) for key_ in _AT_THRESHOLD})
    total = big_p + big_n
    lift = {}
    for f in fractions:
        pos = next((part[1][f] for part in parts if f in part[1]), big_p)
        lift[f] = float(pos / (f * total) / (big_p / total))
    log_loss = None
    if losses is not None and all(x is not None for x in losses):
        weight = sum(b for _, b in losses)
        log_loss = float(sum(a for a, _ in losses) / weight) if weight else None
    block = None
    if calibration is not False:
        block = calibration_of_ranges([part[2] for part in parts], big_p, big_n)
        if block is None and calibration:
            raise ValueError(f"calibration=True needs probabilities, but the scores of "
                             f"{name!r} are not all in [0, 1]; pass calibration=None to leave "
                             "the block out for such models")
    return ModelReport(name, interval.estimate, interval.low, interval.high, interval.se,
                       2.0 * interval.estimate - 1.0, ap, log_loss, best, lift,
                       calibration=block)





_AT_THRESHOLD = ("tp", "fp", "tn", "fn", "precision", "recall", "specificity", "f1", "mcc",
                 "youden", "accuracy", "predicted_positive_rate")





def report_of(models, t0, ac, names, level, ci, weighted):
    """The :class:`~fastauc.Report` from the models' sections, the first
    model's tallies and ``(aucs, covariance)`` (None for one model)."""
    from ..report import Report, pair_tests

    comparisons, omnibus = [], None
    if ac is not None:
        aucs, cov = ac
        comparisons, omnibus = pair_tests(aucs, cov, names, level)
    n = int(sum(t0["rows"]))
    return Report(models, comparisons, n, float(t0["P"]), float(t0["N"]), ci, level,
                  weighted=weighted, omnibus=omnibus)


# ---------------------------------------------------------------- per group

def group_accumulators(y, s, w, groups, n_buckets, dropna):
    """A block's rows per group, one accumulator each, split into buckets of
    groups (a group's bucket from a checksum of its label: the same on every
    worker)."""
    import zlib

    from ..streaming import feed_groups

    cols = [np.asarray(c) for c in groups]
    y = np.asarray(y)
    s = np.asarray(s, np.float64)
    keep = np.ones(y.shape[0], bool)
    for c in cols:
        missing = missing_labels(c)
        if missing.any():
            if not dropna:
                raise ValueError(f"groups has {int(missing.sum())} missing label(s) "
                                 "(NaN/None/null); pass dropna=True to leave those rows out")
            keep &= ~missing
    if not keep.all():
        y, s, cols = y[keep], s[keep], [c[keep] for c in cols]
        w = None if w is None else np.asarray(w)[keep]
    accs = {}
    if y.shape[0]:
        feed_groups(accs, y, s.reshape(-1, 1), w,
                       tuple(cols) if len(cols) > 1 else cols[0], None)
    buckets = [{} for _ in range(n_buckets)]
    for key, (acc,) in accs.items():
        buckets[zlib.crc32(repr(key).encode()) % n_buckets][key] = acc
    return buckets


def missing_labels(c):
    if c.dtype.kind == "f":
        return np.isnan(c)
    if c.dtype.kind == "O":
        return np.array([x is None or (isinstance(x, float) and x != x) for x in c], bool)
    return np.zeros(c.shape[0], bool)


def bucket_metrics(positive, level, n_cols, *dicts):
    """One bucket's groups: accumulators merged across blocks, then
    ``by_group`` on their tables' rows (the positive class given: a bucket may
    hold one class only), with the true row counts."""
    import dataclasses

    from .._groups import group_codes
    from ..groups import group_metrics

    merged = {}
    for d in dicts:
        for key, acc in d.items():
            if key in merged:
                merged[key].merge(acc)
            else:
                merged[key] = Accumulator().merge(acc)
    if not merged:
        return None
    keys = sorted(merged, key=lambda k: tuple(k))
    ys, ss, ws, labels = [], [], [], [[] for _ in range(n_cols)]
    for key in keys:
        y, sc, w, _ = merged[key]._rows_of()
        ys.append(y)
        ss.append(sc)
        ws.append(w)
        for c in range(n_cols):
            labels[c] += [key[c]] * y.shape[0]
    arrays = [np.array(lab) for lab in labels]
    y_all = np.concatenate(ys)
    # no warning here (the client warns once, counting every group), and no
    # warnings.catch_warnings either: it swaps process-wide state, which
    # races with the other threads of a threaded worker
    result = group_metrics(v.positive_mask(y_all, positive), np.concatenate(ss),
                           np.concatenate(ws), group_codes(arrays[0] if n_cols == 1
                                                           else tuple(arrays), y_all.shape[0]),
                           level, warn=False)
    ordered = list(zip(*(lab.tolist() for lab in result.groups.values())))
    rows = []
    for key in ordered:
        acc = merged[key]
        r = acc._rows
        if acc._classes is not None and acc._classes[-1] != positive:
            r = r[::-1]  # this group's greater label is not the positive class
        rows.append(r)
    n_neg = np.array([r[0] for r in rows], np.int64)
    n_pos = np.array([r[1] for r in rows], np.int64)
    weighted = any(acc._weighted for acc in merged.values())
    return dataclasses.replace(result, n=n_pos + n_neg, n_pos=n_pos, n_neg=n_neg,
                               weighted=weighted)


def concat_metrics(parts, names):
    """The buckets' tables as one, groups in sorted order (as in memory)."""
    import dataclasses

    parts = [p for p in parts if p is not None]
    if not parts:
        raise ValueError("no rows in any group")
    first = parts[0]
    labels = [np.concatenate([list(p.groups.values())[c] for p in parts])
              for c in range(len(first.groups))]
    order = np.lexsort(labels[::-1])
    fields = {}
    for f in dataclasses.fields(first):
        value = getattr(first, f.name)
        if isinstance(value, np.ndarray):
            fields[f.name] = np.concatenate([getattr(p, f.name) for p in parts])[order]
        elif f.name == "log_loss":
            ok = all(p.log_loss is not None for p in parts)
            fields[f.name] = np.concatenate([p.log_loss for p in parts])[order] if ok else None
    fields["groups"] = dict(zip(names, (lab[order] for lab in labels)))
    fields["weighted"] = any(p.weighted for p in parts)
    return dataclasses.replace(first, **fields)


def warn_single_class(table):
    """As in memory: one warning on the client, counting every group."""
    one_class = (table.pos_weight == 0) | (table.neg_weight == 0)
    if one_class.any():
        v.warn_undefined(
            f"{v.ONE_CLASS} ({int(one_class.sum())} of {one_class.shape[0]} groups have a "
            "single class; their AUC is NaN)", stacklevel=3)
