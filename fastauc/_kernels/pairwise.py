"""All-pairs training losses in O(n log n): one sort, then linear walks.

Every kernel takes each class's rows sorted by score within each group (the
positives' and the negatives' runs, as ``_sort`` lays them out, with each
group's first row in ``p_starts``/``n_starts``), their weights and their row
indices, and writes each row's gradient and Hessian entry into row order.

Hinge losses (Rust & Hocking 2023): a positive ``i`` and a negative ``j``
form an *active* pair when ``d = s_i - s_j < margin`` (the float difference,
compared strictly).  For a fixed positive the active negatives are a suffix
of the sorted negatives, and the suffix grows as ``s_i`` falls; for a fixed
negative the active positives are a prefix of the sorted positives.  Both
are the one relation, so one merge of the two runs from the top
(``hinge_merge``) meets each positive when its active negatives are exactly
those passed so far, and each negative when its active positives are exactly
those not yet passed.  Every sum is kept as a sum of non-negative terms, so
that large sums never cancel:

- a positive's terms ``sum_j w_j (m - s_i + s_j)**p`` are written about the
  lowest active negative ``low``: with ``gap = m - (s_i - low) > 0`` and
  ``x_j = s_j - low >= 0``, ``sum w_j (gap + x_j) = W gap + V`` and
  ``sum w_j (gap + x_j)**2 = W gap**2 + 2 gap V + Q``, where the merge grows
  ``V = sum w_j x_j`` and ``Q = sum w_j x_j**2`` as ``low`` moves down by
  ``d``: ``Q += d (2 V + W d)``, ``V += W d``;
- a negative's terms ``sum_i w_i (m - s_i + s_j)`` are written about the
  highest active positive ``top``: ``W (m - (top - s_j)) + U`` with
  ``U = sum w_i (top - s_i)``, whose prefix values (``positive_prefix``)
  grow by ``W (s_i - s_(i-1))``.

The merge's branches are the one unpredictable part (the classes interleave
at random); two merges (one per class, as this code had before) cost twice
that.  The merge can start from any point it passes (``merge_cut``), so two
threads take one half each.

Linear and square losses need no sort: per group, the classes' weights,
means and the negatives' spread give every term (``closed_form``).

AUM (Hocking & Barr 2023): the area under ``min(FP(t), FN(t))`` is a sum over
the gaps between consecutive distinct scores; one ascending walk over the
merged runs gives it and each row's two one-sided derivatives.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .._jit import jit
from .sorting import part

# the cost of summing a negative above a part (``hinge_merge``'s lower part),
# in merge steps: 0.4 ms for 420,000 negatives against 5 ms for a merge of 1e6 rows
REDUCTION_COST = 0.2


def _item_or(default, doc):
    """A function ``f(arr, i)`` for kernels: ``arr[i]``, or ``default`` when
    ``arr`` is None (resolved when a kernel is compiled: nothing is left of
    the None case but the constant)."""
    def item(arr, i):  # pragma: no cover - replaced by the overload when compiled
        pass

    item.__doc__ = doc

    @overload(item)
    def _item(arr, i):
        if isinstance(arr, types.NoneType):
            return lambda arr, i: default
        return lambda arr, i: arr[i]

    return item


weight_at = _item_or(1.0, "Row ``i``'s weight: ``weight[i]``, or 1 when ``weight`` is None.")
code_at = _item_or(0, "Row ``i``'s group: ``codes[i]``, or 0 when ``codes`` is None.")


def first_at(at, r):  # pragma: no cover - replaced by the overload when compiled
    """Where row (or slot) ``r``'s first value goes in a flat buffer: ``2 r``
    when ``at`` is None (the two values side by side, a layout known when
    the kernel is compiled: the two stores are adjacent, and measured 12%
    faster for ``hinge_merge`` than the same layout as a tuple), else
    ``r * at[0]``."""


@overload(first_at, inline="always")
def _first_at(at, r):
    if isinstance(at, types.NoneType):
        return lambda at, r: 2 * r
    return lambda at, r: r * at[0]


def second_offset(at):  # pragma: no cover - replaced by the overload when compiled
    """How far a row's second value is from its first: 1 for ``at`` None, else ``at[1]``."""


@overload(second_offset, inline="always")
def _second_offset(at):
    if isinstance(at, types.NoneType):
        return lambda at: 1
    return lambda at: at[1]


@jit(inline="always")
def put(out, at, r, g, h):
    """Row (or slot) ``r``'s gradient ``g`` and Hessian entry ``h`` into the
    flat buffer ``out``: at ``first_at(at, r)`` and ``second_offset(at)``
    further (``_sort.Placement.buffer``: side by side, ``at`` None, or the
    two columns back to back when the slots are the rows, ``(1, slots)``)."""
    k = first_at(at, r)
    out[k] = g
    out[k + second_offset(at)] = h


@jit
def class_sums(score, is_pos, weight, codes, ref, seen, wp, wn, sp, sn):
    """Each group's positive and negative weight (``wp``, ``wn``) and
    weighted sums of the scores less the class's first score in the group
    (``sp``, ``sn``; those scores go to ``ref[1, g]`` and ``ref[0, g]``,
    ``seen`` (2, G) marks them), added into the zeroed arrays.  Each class's
    scores are summed about one of their own, so that equal scores give a
    mean equal to them however large they are, and a far score of the other
    class does not swamp them."""
    for i in range(is_pos.shape[0]):
        g = code_at(codes, i)
        c = np.int64(is_pos[i])
        if not seen[c, g]:
            seen[c, g] = True
            ref[c, g] = np.float64(score[i])
        w = weight_at(weight, i)
        x = w * (np.float64(score[i]) - ref[c, g])
        if c:
            wp[g] += w
            sp[g] += x
        else:
            wn[g] += w
            sn[g] += x


@jit
def negative_spread(score, is_pos, weight, codes, ref, mean_n, m2n):
    """Each group's weighted sum of squared deviations of the negatives from
    their mean (``mean_n``, about ``ref[0]`` as ``class_sums`` gives it),
    added into ``m2n``: the second pass of a two-pass variance."""
    for i in range(is_pos.shape[0]):
        if not is_pos[i]:
            g = code_at(codes, i)
            dev = (np.float64(score[i]) - ref[0, g]) - mean_n[g]
            m2n[g] += weight_at(weight, i) * dev * dev


@jit
def closed_form(score, is_pos, weight, codes, ref, wp, wn, mean_p, mean_n, margin, square, c,
                grad, hess):
    """Gradient and Hessian of the linear (``square`` False) or square loss,
    each multiplied by ``c``; returns the square loss's sum over the
    positives of ``w_i W_neg (m - s_i + mean_neg)**2`` (the rest of its value
    is the negatives' spread, which the caller adds).  Each class's mean is
    about its ``ref`` (``class_sums``); a row's difference to the other
    class's mean is taken from that class's first score, then its mean."""
    value = 0.0
    for i in range(is_pos.shape[0]):
        w = weight_at(weight, i) * c
        g = code_at(codes, i)
        x = np.float64(score[i])
        if is_pos[i]:
            if square:
                gap = margin - ((x - ref[0, g]) - mean_n[g])
                value += w * wn[g] * gap * gap
                grad[i] = -2.0 * w * wn[g] * gap
                hess[i] = 2.0 * w * wn[g]
            else:
                grad[i] = -w * wn[g]
        else:
            if square:
                grad[i] = 2.0 * w * wp[g] * (margin - ((ref[1, g] - x) + mean_p[g]))
                hess[i] = 2.0 * w * wp[g]
            else:
                grad[i] = w * wp[g]
    return value


@jit
def positive_prefix(ps, pw, p_starts, wp_out, up_out):
    """For each positive ``i`` (sorted ascending within its group), the
    weight of the group's positives up to it, ``wp_out[i]``, and
    ``up_out[i] = sum w_k (s_i - s_k)`` over them: grown by the weight so
    far times each step up, a sum of non-negative terms."""
    for g in range(p_starts.shape[0] - 1):
        a0, a1 = p_starts[g], p_starts[g + 1]
        w_sum = 0.0
        u = 0.0
        for i in range(a0, a1):
            if i > a0:
                u += w_sum * (ps[i] - ps[i - 1])
            w_sum += weight_at(pw, i)
            wp_out[i] = w_sum
            up_out[i] = u


@jit
def first_active(ps_i, ns, b0, b1, margin):
    """The first negative of ``ns[b0:b1]`` (ascending) active with a positive
    scored ``ps_i`` (``ps_i - s_j < margin``; ``b1`` for none), by bisection."""
    lo, hi = b0, b1
    while lo < hi:
        mid = (lo + hi) // 2
        if ps_i - ns[mid] < margin:
            hi = mid
        else:
            lo = mid + 1
    return lo


@jit
def merge_cut(ps, p_starts, ns, n_starts, margin, num=1, den=2):
    """``(i_cut, j_cut)``: a point the merge of ``hinge_merge`` passes (in
    the group where it falls, the merge state just before it reaches
    positive ``i_cut - 1``) that splits its work at the share ``num / den``
    (a half by default): the rows below it (positives below ``i_cut``,
    negatives below ``j_cut``), plus ``REDUCTION_COST`` a row for the lower
    part's sums of the cut group's negatives above it, against the rows
    above, weighed ``num`` to ``den - num``.  Depends on the data only."""
    n_groups = p_starts.shape[0] - 1
    total = p_starts[n_groups] + n_starts[n_groups]
    done = 0
    for g in range(n_groups):
        a0, a1 = p_starts[g], p_starts[g + 1]
        b0, b1 = n_starts[g], n_starts[g + 1]
        rows = (a1 - a0) + (b1 - b0)
        if den * (done + rows) < num * total:
            done += rows
            continue
        # within group g: the least k in [a0, a1] where the lower part (positives [a0, k),
        # negatives [b0, J(k)), J(a1) = b1) costs its share of the upper's; both costs
        # are monotone in k
        lo, hi = a0, a1
        while lo < hi:
            mid = (lo + hi) // 2
            j = first_active(ps[mid], ns, b0, b1, margin)
            below = done + (mid - a0) + (j - b0)
            if (den - num) * (below + REDUCTION_COST * (b1 - j)) >= num * (total - below):
                hi = mid
            else:
                lo = mid + 1
        j = b1 if lo == a1 else first_active(ps[lo], ns, b0, b1, margin)
        return lo, j
    return p_starts[n_groups], n_starts[n_groups]


@jit
def hinge_merge(ps, pw, px, p_starts, ns, nw, nx, n_starts, wp, up, margin, squared, scale,
                out, at, i_lo, i_hi, j_lo, j_hi):
    """Value, gradient and Hessian entries of the hinge losses (``squared``:
    the squared hinge) for the positives ``i_lo <= i < i_hi`` and the
    negatives ``j_lo <= j < j_hi`` (a part from ``merge_cut``, or all), by one
    merge from the top of each group (see the module).  ``ps``/``ns``: each
    class's scores ascending within each group; ``pw``/``nw`` their weights
    (None: 1), ``px``/``nx`` their rows; ``wp``/``up``: ``positive_prefix``;
    ``scale[g]`` multiplies group ``g``'s terms.  Each row's gradient and
    Hessian entry go to ``out`` where ``at`` says (``put``; zeros stay where
    a row has no active pair; the plain hinge writes no Hessian).  A part
    that starts below the top of a group first sums the negatives above it.
    Returns the part's (scaled) value.

    The negatives of a part below the first one active with its lowest
    positive have no active pair (a part's other negatives are all active
    with its lowest positive: ``merge_cut``), so each group's merge
    (``merge_run``) ends with its last positive, on slices that start at 0:
    the loop's only bounds are constants, which measured 20% faster than the
    same merge with a part's bounds as variables."""
    total = 0.0
    for g in range(p_starts.shape[0] - 1):
        ia, ib = max(p_starts[g], i_lo), min(p_starts[g + 1], i_hi)
        ja, jb = max(n_starts[g], j_lo), min(n_starts[g + 1], j_hi)
        if ib <= ia:  # the part's negatives of this group (if any) have no active pair
            continue
        # the active negatives' weight, and their deviations above the lowest, ``low``
        w_act = 0.0
        v = 0.0
        q = 0.0
        low = 0.0
        b1 = n_starts[g + 1]
        if jb < b1:  # the negatives above belong to the other part: their sums
            low = ns[jb]
            for k in range(jb, b1):
                w = weight_at(nw, k)
                x = ns[k] - low
                w_act += w
                v += w * x
                q += w * x * x
        jf = first_active(ps[ia], ns, ja, jb, margin)
        total += merge_run(ps[ia:ib], part(pw, ia, ib), px[ia:ib], ns[jf:jb], part(nw, jf, jb),
                           nx[jf:jb], wp[ia:ib], up[ia:ib], margin, squared, scale[g], out, at,
                           w_act, v, q, low)
    return total


@jit
def merge_run(ps, pw, px, ns, nw, nx, wp, up, margin, squared, c, out, at, w_act, v, q, low):
    """The merge of ``hinge_merge`` over one group's positives and the
    negatives active with the lowest of them (arrays as there, sliced),
    from the top, with the sums of the negatives above (``w_act``, ``v``,
    ``q`` about ``low``).  Returns the value, scaled by ``c``."""
    value = 0.0
    i = ps.shape[0] - 1
    j = ns.shape[0] - 1
    while i >= 0:
        if j >= 0 and ps[i] - ns[j] < margin:  # negative j: active with positives 0..i
            w = weight_at(nw, j)
            sj = ns[j]
            cw = c * w
            if squared:
                put(out, at, nx[j], 2.0 * cw * (wp[i] * (margin - (ps[i] - sj)) + up[i]),
                    2.0 * cw * wp[i])
            else:
                out[first_at(at, nx[j])] = cw * wp[i]
            if w_act > 0.0:
                d = low - sj
                if d > 0.0:
                    q += d * (2.0 * v + w_act * d)
                    v += w_act * d
            w_act += w
            low = sj
            j -= 1
        else:
            if w_act > 0.0:
                wi = weight_at(pw, i) * c
                gap = margin - (ps[i] - low)
                if squared:
                    value += wi * (w_act * gap * gap + (2.0 * gap * v if v > 0.0 else 0.0) + q)
                    put(out, at, px[i], -2.0 * wi * (w_act * gap + v), 2.0 * wi * w_act)
                else:
                    value += wi * (w_act * gap + v)
                    out[first_at(at, px[i])] = -wi * w_act
            i -= 1
    return value


@jit
def aum_groups(ps, pw, px, p_starts, ns, nw, nx, n_starts, rates, scale, out, at):
    """Area under ``min(FP(t), FN(t))`` of each group, summed with the
    weights ``scale[g]``, and each row's gradient: the mean of its two
    one-sided derivatives, written to ``out`` where ``at`` says (``put``;
    the Hessian entries are left alone).  ``rates``: FP and FN as
    rates of the group's negatives and positives instead of weighted counts.

    A row at score ``u`` bounds the gap below ``u`` (where it is above the
    threshold) and the gap above (where it is at or below it).  Moving it up
    by ``e`` opens a gap of width ``e`` in which only it has crossed the
    threshold, and shrinks the gap above; moving it down does the same below.
    Where the row's score is shared with no other row both sides give the
    same number, the derivative of the piecewise-linear area."""
    total = 0.0
    for g in range(p_starts.shape[0] - 1):
        a0, a1 = p_starts[g], p_starts[g + 1]
        b0, b1 = n_starts[g], n_starts[g + 1]
        if a1 == a0 or b1 == b0:  # no pair: every row's gradient stays 0
            continue
        wp = 0.0
        for i in range(a0, a1):
            wp += weight_at(pw, i)
        wn = 0.0
        for j in range(b0, b1):
            wn += weight_at(nw, j)
        cp = 1.0 / wp if rates else 1.0
        cn = 1.0 / wn if rates else 1.0
        c = scale[g]
        fn_below = 0.0  # positives' weight below the current score
        fp_ge = wn  # negatives' weight at or above it
        i, j = a0, b0
        area = 0.0
        while i < a1 or j < b1:
            u = ps[i] if j == b1 or (i < a1 and ps[i] <= ns[j]) else ns[j]
            i_end = i
            pu = 0.0
            while i_end < a1 and ps[i_end] == u:
                pu += weight_at(pw, i_end)
                i_end += 1
            j_end = j
            nu = 0.0
            while j_end < b1 and ns[j_end] == u:
                nu += weight_at(nw, j_end)
                j_end += 1
            fn_le = fn_below + pu
            # the negatives above u, summed afresh from the top would be exact;
            # fp_ge - nu differs from it by rounding only
            fp_gt = fp_ge - nu if j_end < b1 else 0.0
            m_above = min(fp_gt * cn, fn_le * cp)
            m_below = min(fp_ge * cn, fn_below * cp)
            if i_end < a1 or j_end < b1:
                nxt = ps[i_end] if j_end == b1 or (i_end < a1 and ps[i_end] <= ns[j_end]) \
                    else ns[j_end]
                area += m_above * (nxt - u)
            for r in range(i, i_end):
                w = weight_at(pw, r)
                right = min(fp_gt * cn, (fn_le - w) * cp) - m_above
                left = m_below - min(fp_ge * cn, (fn_below + w) * cp)
                out[first_at(at, px[r])] = c * 0.5 * (right + left)
            for r in range(j, j_end):
                w = weight_at(nw, r)
                right = min((fp_gt + w) * cn, fn_le * cp) - m_above
                left = m_below - min((fp_ge - w) * cn, fn_below * cp)
                out[first_at(at, nx[r])] = c * 0.5 * (right + left)
            fn_below = fn_le
            fp_ge = fp_gt
            i, j = i_end, j_end
        total += c * area
    return total


@jit
def segment_sums(w, starts, out):
    """``out[s] = w[starts[s]:starts[s + 1]].sum()``, each summed in order."""
    for s in range(starts.shape[0] - 1):
        total = 0.0
        for i in range(starts[s], starts[s + 1]):
            total += w[i]
        out[s] = total
