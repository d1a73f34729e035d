"""The machinery of the all-pairs losses (``fastauc.pairwise``): parameter
checks, per-group sums, the sort by group and score, and the kernels' calls.
Shared by ``pairwise``, ``objectives`` and ``linear_model``."""

from __future__ import annotations

import contextvars
import math
import numbers

import numpy as np

from . import _validation as v
from ._groups import group_codes
from ._kernels.pairwise import (
    aum_groups,
    class_sums,
    closed_form,
    hinge_merge,
    merge_cut,
    negative_spread,
    positive_prefix,
    segment_sums,
)
from ._parallel import map_units
from ._sort import CHUNK_MIN, sort_by_group
from ._table import spare

__all__ = ["LOSSES", "check_params", "pairwise_terms"]

LOSSES = ("linear", "square", "squared_hinge", "hinge", "aum")
_HINGES = ("squared_hinge", "hinge")
_NORMALIZE = (True, False, "all_pairs")


def check_params(loss, margin, normalize):
    """``(margin, normalize)`` checked; scikit-learn-style errors naming the
    parameter."""
    if not isinstance(loss, str) or loss not in LOSSES:
        raise v.InvalidParameterError(
            f"The 'loss' parameter of pairwise_loss must be a str among {set(LOSSES)}. "
            f"Got {loss!r} instead.")
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        raise v.InvalidParameterError(
            f"The 'margin' parameter of pairwise_loss must be a finite real number >= 0 "
            f"(> 0 for {_HINGES[0]!r} and {_HINGES[1]!r}). Got {margin!r} instead.")
    margin = float(margin)
    low_ok = margin > 0 if loss in _HINGES else margin >= 0
    if not (math.isfinite(margin) and low_ok):
        bound = "> 0" if loss in _HINGES else ">= 0"
        raise ValueError(
            f"margin must be a finite number {bound} for loss={loss!r}, got {margin!r}")
    if not any(normalize is x or (isinstance(x, str) and normalize == x) for x in _NORMALIZE) \
            and not isinstance(normalize, np.bool_):
        raise v.InvalidParameterError(
            "The 'normalize' parameter of pairwise_loss must be True, False or 'all_pairs'. "
            f"Got {normalize!r} instead.")
    if isinstance(normalize, np.bool_):
        normalize = bool(normalize)
    if loss == "aum" and normalize == "all_pairs":
        raise ValueError(
            "normalize='all_pairs' is the mean over ordered pairs of a pairwise loss; "
            "loss='aum' is an area over thresholds and takes normalize=True (rates) or "
            "False (weighted counts)")
    return margin, normalize


# True in a context that reports a batch without pairs by its value alone
# (fastauc.torch's loss: a training loop is not warned once a step); a
# context variable, so no global warning state changes and threads and
# tasks keep their own
QUIET_NO_PAIRS = contextvars.ContextVar("fastauc_quiet_no_pairs", default=False)


def _warn_no_pairs(wp, wn, present, grouped):
    """One warning for the groups with rows but no pair; ``present()``
    gives which groups have rows (called only when some group has no pair)."""
    if QUIET_NO_PAIRS.get() or np.all((wp > 0) & (wn > 0)):
        return
    present = present()
    lonely = int(np.count_nonzero(present & ((wp == 0) | (wn == 0))))
    if not lonely:
        return
    if grouped:
        v.warn_undefined(
            f"{lonely} of {int(present.sum())} groups have no positive-negative pair "
            "(one class, or one class of zero weight): they add nothing to the loss and "
            "their rows get a zero gradient.", stacklevel=None)
    else:
        v.warn_undefined(
            "Only one class is present in y_true (by weight): there is no "
            "positive-negative pair, so the loss is 0 and the gradient zero.", stacklevel=None)


def _or_none(w):
    return None if w.shape[0] == 0 else w


def _closed_form(loss, s, is_pos, w, codes, n_groups, sums, margin, z):
    """Linear and square losses from per-group sums: no sort."""
    wp, wn, sp, sn, ref = sums
    mean_p = np.divide(sp, wp, out=np.zeros(n_groups), where=wp > 0)
    mean_n = np.divide(sn, wn, out=np.zeros(n_groups), where=wn > 0)
    n = s.shape[0]
    grad = np.zeros(n)
    hess = np.zeros(n)
    square = loss == "square"
    value = closed_form(s, is_pos, _or_none(w), codes, ref, wp, wn, mean_p, mean_n, margin,
                        square, 1.0 / z, grad, hess)
    if square:
        m2n = np.zeros(n_groups)
        negative_spread(s, is_pos, _or_none(w), codes, ref, mean_n, m2n)
        value += float(np.dot(wp, m2n)) / z
    else:  # mean_n - mean_p, each class's mean about its own first score
        value = float(np.dot(wp * wn, (ref[0] - ref[1]) + (mean_n - mean_p))) / z
    return value, grad, hess


def _sorted_terms(loss, runs, p_starts, n_starts, placement, wp, wn, margin, z, normalize,
                  factor, dtype, interleaved):
    """Hinge losses and AUM from the sort by (group, score): the merge (or
    AUM's walk) writes each row's gradient and Hessian entry to its slot
    (``_sort.Placement``, as ``dtype``), then the slots are brought back to
    row order."""
    ps, ns = runs.pk.view(np.float64), runs.nk.view(np.float64)  # (values=True)
    pw, nw = _or_none(runs.pw), _or_none(runs.nw)
    n_groups = wp.shape[0]
    out, at = placement.buffer(dtype, interleaved)
    if loss == "aum":
        rates = normalize is True
        pairs = wp * wn
        scale = (pairs / pairs.sum() if rates else np.ones(n_groups)) * factor
        value = aum_groups(ps, pw, runs.px, p_starts, ns, nw, runs.nx, n_starts, rates, scale,
                           out, at)
        return (value, *placement.to_rows(out, interleaved))
    squared = loss == "squared_hinge"
    scale = np.full(n_groups, 1.0 / z)
    n_pos, n_neg = ps.shape[0], ns.shape[0]
    wsum, usum = spare("pairwise prefix w", n_pos, np.float64), \
        spare("pairwise prefix u", n_pos, np.float64)
    positive_prefix(ps, pw, p_starts, wsum, usum)
    args = (ps, pw, runs.px, p_starts, ns, nw, runs.nx, n_starts, wsum, usum, margin, squared,
            scale, out, at)
    # one merge, cut where it passes each 1/K of its work (``merge_parts``:
    # data only, so the same parts, and the same sums, on any number of threads)
    threaded = placement.slots >= CHUNK_MIN
    k = merge_parts(placement.slots)
    cuts = [(0, 0)] + [merge_cut(ps, p_starts, ns, n_starts, margin, j, k)
                       for j in range(1, k)] + [(n_pos, n_neg)]
    for j in range(1, len(cuts)):  # (monotone already; kept so, whatever the rounding)
        cuts[j] = (max(cuts[j][0], cuts[j - 1][0]), max(cuts[j][1], cuts[j - 1][1]))
    parts = [(a[0], b[0], a[1], b[1]) for a, b in zip(cuts[:-1], cuts[1:])]
    values = _run([(hinge_merge, (*args, *part)) for part in parts], threaded)
    return (sum(values), *placement.to_rows(out, interleaved))


MERGE_ROWS = 1 << 18  # rows per part of the hinge losses' merge (``merge_parts``)
# at most this many parts: a part that starts inside a group first sums that
# group's negatives above it, so with one group K parts sum about K / 2
# times the negatives (1e7 rows on one thread: 259 ms in 2 parts, 278 in 8,
# 305 in 16, 384 in 38)
MERGE_MAX_PARTS = 12


def merge_parts(rows: int) -> int:
    """Parts of the hinge losses' merge of ``rows`` rows: one below
    ``CHUNK_MIN``, then one per ``MERGE_ROWS``, from two to ``MERGE_MAX_PARTS``."""
    return 1 if rows < CHUNK_MIN else max(2, min(MERGE_MAX_PARTS, rows // MERGE_ROWS))


def _run(calls, threaded):
    """``[fn(*args) for fn, args in calls]``, on threads when ``threaded``."""
    if threaded:
        return map_units(lambda fn, args: fn(*args), calls)
    return [fn(*args) for fn, args in calls]


def pairwise_terms(y_true, y_score, loss, margin, sample_weight, pos_label, groups, normalize,
                   square_hessian=False, factor=1.0, count_here=False, dtype=np.float64,
                   interleaved=False):
    """``(value, gradient, hessian)`` of a loss, inputs validated, all three
    multiplied by ``factor`` (> 0; folded into the normalisation, so no pass
    over the arrays).  With ``square_hessian`` the Hessian is the square loss's,
    ``2 w_i W_other / z``, whatever the loss (the boosting objectives').
    ``count_here``: the sort's first passes in this thread
    (``_sort.sort_by_class``; the boosting objectives).  ``dtype``: of the
    gradient and Hessian (float32 for the boosting libraries: each entry is
    the float64 one rounded once); with ``interleaved`` they may be strided
    views of one buffer, each row's two entries side by side."""
    margin, normalize = check_params(loss, margin, normalize)
    is_pos, s, w, _, _ = v.binary_target(y_true, y_score, sample_weight, pos_label,
                                         default_rule="greater", keep_float32=True)
    n = s.shape[0]
    if groups is None:
        codes = None
        n_groups = 1
    else:
        gc = group_codes(groups, n)
        if gc.n_missing:
            raise ValueError(
                f"groups has {gc.n_missing} missing value(s) (first at row "
                f"{gc.first_missing}); every row needs a group")
        codes = gc.codes
        n_groups = gc.n_groups

    def present():  # which groups have rows (for the warning only)
        if codes is None:
            return np.array([n > 0])
        return np.bincount(codes, minlength=n_groups) > 0

    if loss in ("linear", "square"):
        v.check_finite(s, "y_score")
        ref = np.zeros((2, n_groups))  # each class's first score per group: sums are about it
        sums = tuple(np.zeros(n_groups) for _ in range(4))  # wp, wn, sp, sn
        class_sums(s, is_pos, _or_none(w), codes, ref, np.zeros((2, n_groups), bool), *sums)
        sums = (*sums, ref)
        wp, wn = sums[:2]
    else:  # the sort checks the scores and gives the groups' class weights
        # in this thread's spare buffers: training calls this once a round on
        # rows of one size, and fresh buffers cost a page fault per 4 KiB
        # (about a quarter of a 1e6-row call); nothing returned points into them
        runs, p_starts, n_starts, placement = sort_by_group(is_pos, s, w, codes, n_groups,
                                                            alloc=spare, count_here=count_here,
                                                            values=True)
        wp, wn = (_segment_weights(x, starts) for x, starts in
                  ((runs.pw, p_starts), (runs.nw, n_starts)))
    pairs = float(np.dot(wp, wn))
    if normalize == "all_pairs":
        totals = wp + wn
        z = float(np.dot(totals, totals)) / 2.0
    elif normalize is True:
        z = pairs
    else:
        z = 1.0
    z /= factor
    if pairs == 0.0 or z == 0.0:
        _warn_no_pairs(wp, wn, present, groups is not None)
        value = 0.5 if loss == "linear" and normalize == "all_pairs" and z > 0 else 0.0
        return value, np.zeros(n, dtype), np.zeros(n, dtype)
    if loss in ("linear", "square"):
        value, grad, hess = _closed_form(loss, s, is_pos, w, codes, n_groups, sums, margin, z)
    else:
        value, grad, hess = _sorted_terms(loss, runs, p_starts, n_starts, placement, wp, wn,
                                          margin, z, normalize, factor, dtype, interleaved)
    if loss == "linear" and normalize == "all_pairs":
        value += 0.5
    if square_hessian and loss != "square":
        hess = _square_hessian(is_pos, w, codes, wp, wn, z)
    _warn_no_pairs(wp, wn, present, groups is not None)
    return float(value), grad.astype(dtype, copy=False), hess.astype(dtype, copy=False)


def _segment_weights(w, starts):
    """Each segment's weight (its row count for unit weights ``w`` empty)."""
    if w.shape[0] == 0:
        return np.diff(starts).astype(np.float64)
    out = np.empty(starts.shape[0] - 1)
    segment_sums(w, starts, out)
    return out


def _square_hessian(is_pos, w, codes, wp, wn, z):
    """The square loss's Hessian, ``2 w_i W_neg / z`` for a positive and
    ``2 w_j W_pos / z`` for a negative of the same group."""
    other = np.where(is_pos, wn[0] if codes is None else wn[codes],
                     wp[0] if codes is None else wp[codes])
    return (2.0 / z) * other if w.shape[0] == 0 else (2.0 / z) * other * w


