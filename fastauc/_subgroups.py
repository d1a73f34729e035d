"""The subgroup, BPSN and BNSP AUCs of every group (Borkan et al. 2019), with
DeLong's intervals: by_group's sums for the subgroup AUC, and for the two
background AUCs one sort of all rows, their overall placements, and a walk
of each group's rows (``_kernels.subgroups``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validation as v
from ._kernels.subgroups import background_aucs, block_group_counts, placed_by_group
from ._parallel import map_units, row_blocks
from ._sort import class_code_payload, sort_by_class, tie_blocks
from ._stats import wald_bounds

__all__ = ["SubgroupAUCs", "background_columns", "background_extra"]

_COLUMNS = ("n", "n_pos", "n_neg", "subgroup_auc", "subgroup_low", "subgroup_high",
            "subgroup_se", "bpsn_auc", "bpsn_low", "bpsn_high", "bpsn_se", "bnsp_auc",
            "bnsp_low", "bnsp_high", "bnsp_se")


@dataclass(frozen=True)
class SubgroupAUCs:
    """Result of :func:`fastauc.subgroup_aucs`: one entry per group, in sorted
    group order.

    Attributes
    ----------
    groups : dict
        Group column name -> each group's label (as :func:`fastauc.by_group`).
    n, n_pos, n_neg : ndarray of shape (n_groups,)
        Rows of the group, its positives and negatives.
    subgroup_auc, subgroup_low, subgroup_high, subgroup_se : ndarray
        The AUC of the group's rows (:func:`fastauc.by_group`'s) with DeLong's
        interval and standard error.
    bpsn_auc, bpsn_low, bpsn_high, bpsn_se : ndarray
        Background positive, subgroup negative: the AUC of the positives
        outside the group over the group's negatives (low when the model
        scores the group's negatives too high), with DeLong's interval.
    bnsp_auc, bnsp_low, bnsp_high, bnsp_se : ndarray
        Background negative, subgroup positive: the AUC of the group's
        positives over the negatives outside it (low when the model scores
        the group's positives too low).
    confidence_level : float
        Level of the intervals.

    See Also
    --------
    fastauc.subgroup_aucs : The function returning this record.

    Examples
    --------
    >>> from fastauc import subgroup_aucs
    >>> res = subgroup_aucs([0, 1, 0, 1, 0, 1, 0, 1], [.1, .8, .3, .6, .7, .9, .2, .4],
    ...                     ["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> res.groups["group"].tolist(), res.bpsn_auc.tolist()
    (['a', 'b'], [1.0, 0.75])
    """

    groups: dict
    n: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    subgroup_auc: np.ndarray
    subgroup_low: np.ndarray
    subgroup_high: np.ndarray
    subgroup_se: np.ndarray
    bpsn_auc: np.ndarray
    bpsn_low: np.ndarray
    bpsn_high: np.ndarray
    bpsn_se: np.ndarray
    bnsp_auc: np.ndarray
    bnsp_low: np.ndarray
    bnsp_high: np.ndarray
    bnsp_se: np.ndarray
    confidence_level: float

    def __len__(self) -> int:
        return self.n.shape[0]

    def to_dict(self) -> dict:
        """``{column: list}``, the group columns first (JSON-ready)."""
        out = {name: labels.tolist() for name, labels in self.groups.items()}
        out.update((col, getattr(self, col).tolist()) for col in _COLUMNS)
        return out

    def to_pandas(self):
        """A pandas DataFrame, one row per group."""
        import pandas as pd

        return pd.DataFrame({**self.groups, **{c: getattr(self, c) for c in _COLUMNS}})


#: the AUC columns of :func:`background_columns`, each with its interval and error
AUC_COLUMNS = ("subgroup", "bpsn", "bnsp")


def background_columns(is_pos, s, w, codes, n_codes, level) -> dict:
    """Per group code that has rows, from validated rows (``codes`` >= 0):
    ``{name}_auc``, ``{name}_low``, ``{name}_high`` and ``{name}_se`` for
    each name of ``AUC_COLUMNS`` (NaN where the rows lack a class), and
    ``present`` (the codes with rows), ``n`` and ``n_pos`` (their rows and
    positive rows, zero weights included).  The group's own AUC comes from
    the same walk as the background AUCs: one sort in all."""
    n = s.shape[0]
    # each row's group and class (and the groups' rows, counted in the same pass)
    payload, rows, pos_rows = class_code_payload(codes, is_pos, n_codes)
    # rows of weight zero are left out of the sort: they add nothing anywhere
    runs = sort_by_class(np.ones(n, bool), s, w, extra=payload, name="y_score")
    keys, pay, pw = runs.pk, runs.px, runs.pw
    m = keys.shape[0]
    # rows of weight zero left the sort: count what it kept
    counts = np.bincount(pay >> 1, minlength=n_codes) if w.shape[0] else rows
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    gk = np.empty(m, np.uint64)
    gpos = np.empty(m, np.uint8)
    gw = np.empty(m if pw.shape[0] else 0)
    gX, gT = np.empty(m), np.empty(m)
    # blocks of the sorted rows placed on the threads, each from the weight
    # below it and its own cursors
    cuts = tie_blocks(keys)
    nb = cuts.shape[0] - 1
    block_counts = np.zeros((nb, n_codes), np.int64)
    class_w = np.zeros((nb, 2))
    map_units(block_group_counts, [(pay, pw, cuts[b:b + 2], block_counts[b:b + 1],
                                    class_w[b:b + 1]) for b in range(nb)])
    cursors = starts[:-1] + np.concatenate((np.zeros((1, n_codes), np.int64),
                                            np.cumsum(block_counts, axis=0)[:-1]))
    below = np.concatenate((np.zeros((1, 2)), np.cumsum(class_w, axis=0)))
    P, N = float(below[-1, 1]), float(below[-1, 0])
    map_units(placed_by_group, [(keys, pay, pw, cursors[b], gk, gpos, gw, gX, gT,
                                 int(cuts[b]), int(cuts[b + 1]), float(below[b, 1]),
                                 float(below[b, 0]), P) for b in range(nb)])
    out = np.empty((n_codes, 8))
    # groups in blocks of about equal rows on the threads (each group's own numbers)
    cuts = [0]
    for _, b in row_blocks(m):
        g = min(int(np.searchsorted(starts, b, side="left")), n_codes)
        if g > cuts[-1]:
            cuts.append(g)
    if cuts[-1] != n_codes:
        cuts.append(n_codes)
    map_units(background_aucs, [(gk, gpos, gw, gX, gT, starts, P, N, g0, g1, out)
                                for g0, g1 in zip(cuts[:-1], cuts[1:])])
    present = rows > 0
    cols = {"present": present, "n": rows[present], "n_pos": pos_rows[present]}
    for name, j in zip(AUC_COLUMNS, (6, 0, 2)):
        auc = out[present, j]
        se, low, high = wald_bounds(auc, out[present, j + 1], level)
        cols.update({f"{name}_auc": auc, f"{name}_low": low, f"{name}_high": high,
                     f"{name}_se": se})
    return cols


def undefined_words(bpsn, bnsp) -> str | None:
    """The warning for groups whose background AUCs are undefined, or None."""
    bad = int(np.count_nonzero(np.isnan(bpsn) | np.isnan(bnsp)))
    if not bad:
        return None
    return (f"{bad} of {bpsn.shape[0]} groups have a BPSN or BNSP AUC that is not defined (the "
            "group, or the rows outside it, hold a single class); those are NaN")


def check_dropna(dropna):
    if not isinstance(dropna, (bool, np.bool_)):
        raise TypeError(f"dropna must be True or False, got {dropna!r}")
    return bool(dropna)


def validated(y_true, y_score, sample_weight, pos_label):
    s = v.as_float_array(v.as_array(y_score, "y_score"), "y_score")
    is_pos, _, w = v.binary_rows(y_true, sample_weight, pos_label, frequency=True, y_score=s)
    return is_pos, s, w


def background_extra(is_pos, s, w, gc, level) -> dict:
    """Each group's BPSN and BNSP AUCs with their intervals, as columns of
    ``by_group``'s ``extra`` (the groups with rows, rows without a group
    label left out)."""
    is_pos, s, w, codes = gc.labelled(is_pos, s, w)
    cols = background_columns(is_pos, s, w, codes, gc.n_groups, level)
    return {f"{name}_{part}": cols[f"{name}_{part}"] for name in AUC_COLUMNS[1:]
            for part in ("auc", "low", "high")}
