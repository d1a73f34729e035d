"""All-pairs training losses in O(n log n): one sort, then linear walks.

Every kernel takes each class's rows sorted by score within each group (the
positives' and the negatives' runs, as ``_sort`` lays them out, with each
group's first row in ``p_starts``/``n_starts``), their weights and their row
indices, and writes each row's gradient and Hessian entry into row order.

Hinge losses (Rust & Hocking 2023): a positive ``i`` and a negative ``j``
form an *active* pair when ``d = s_i - s_j < margin`` (the float difference,
compared strictly).  For a fixed positive the active negatives are a suffix
of the sorted negatives, and the suffix grows as ``s_i`` falls; for a fixed
negative the active positives are a prefix of the sorted positives.  So two
walks (positives from the top, negatives from the bottom) visit each active
set once.  Each walk keeps the weight, the weighted mean and the weighted
sum of squared deviations of its active set, so that
``sum_j w_j (m - s_i + s_j)**2 = W (m - s_i + mean)**2 + M2`` is a sum of
non-negative terms: no cancellation between large prefix sums.  The rows
that join the set between two outputs are summed about the first of them and
merged in once (Chan, Golub & LeVeque's pairwise update), so the walk does
no division per row.

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


@jit(inline="always")
def put(out, at, r, g, h):
    """Row (or slot) ``r``'s gradient ``g`` and Hessian entry ``h`` into the
    flat buffer ``out``: at ``r * at[0]`` and ``r * at[0] + at[1]``
    (``_sort.Placement.buffer``: side by side per slot, or the two columns
    back to back when the slots are the rows)."""
    k = r * at[0]
    out[k] = g
    out[k + at[1]] = h


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
def hinge_positives(ps, pw, px, p_starts, ns, nw, n_starts, margin, squared, scale, out, at):
    """Value, gradient and Hessian entries of the positives (see the module).

    ``ps``/``ns``: each class's scores (float64) sorted ascending within each
    group; ``pw``/``nw`` their weights; ``px`` the positives' row indices;
    ``scale[g]`` multiplies group ``g``'s terms.  Each row's gradient and
    Hessian entry are written to ``out`` where ``at`` says (``put``; zeros
    where the row has no active pair).  Returns the (scaled) value.
    """
    total = 0.0
    for g in range(p_starts.shape[0] - 1):
        a0, a1 = p_starts[g], p_starts[g + 1]
        b0, b1 = n_starts[g], n_starts[g + 1]
        c = scale[g]
        w_act = 0.0
        mean = 0.0
        m2 = 0.0
        j = b1 - 1  # the active negatives are ns[j + 1:b1]
        value = 0.0
        for i in range(a1 - 1, a0 - 1, -1):
            si = ps[i]
            if j >= b0 and si - ns[j] < margin:
                # the negatives that join, summed about the first of them, then
                # merged into the active set's weight, mean and spread (Chan et
                # al.): no division per row, no large sums cancelling
                first = ns[j]
                t0 = 0.0
                t1 = 0.0
                t2 = 0.0
                while j >= b0 and si - ns[j] < margin:
                    w = weight_at(nw, j)
                    x = ns[j] - first
                    t0 += w
                    t1 += w * x
                    t2 += w * x * x
                    j -= 1
                offset = t1 / t0
                w_new = w_act + t0
                delta = (first - mean) + offset
                mean += delta * (t0 / w_new)
                spread = t2 - t1 * offset
                if spread != spread:  # inf - inf: squares past the float range
                    spread = np.inf
                m2 += max(spread, 0.0) + (delta * (w_act * t0 / w_new)) * delta
                w_act = w_new
            if w_act == 0.0:
                continue
            wi = weight_at(pw, i) * c
            gap = margin - (si - mean)  # the difference first: exact for close scores
            if squared:
                value += wi * (w_act * gap * gap + m2)
                put(out, at, px[i], -2.0 * wi * w_act * gap, 2.0 * wi * w_act)
            else:
                value += wi * w_act * gap
                out[px[i] * at[0]] = -wi * w_act
        total += value
    return total


@jit
def hinge_negatives(ps, pw, p_starts, ns, nw, nx, n_starts, margin, squared, scale, out, at,
                    j_lo, j_hi):
    """Gradient and Hessian entries of the negatives ``j_lo <= j < j_hi``:
    ascending, the active positives a growing prefix (other arguments as for
    ``hinge_positives``).  A range may start anywhere: its first negative
    takes in all the positives below it in one batch, so the negatives can be
    cut into ranges for two threads."""
    for g in range(p_starts.shape[0] - 1):
        a0, a1 = p_starts[g], p_starts[g + 1]
        b0, b1 = max(n_starts[g], j_lo), min(n_starts[g + 1], j_hi)
        if b0 >= b1:
            continue
        c = scale[g]
        w_act = 0.0
        mean = 0.0
        i = a0  # the active positives are ps[a0:i]
        for j in range(b0, b1):
            sj = ns[j]
            if i < a1 and ps[i] - sj < margin:
                first = ps[i]
                t0 = 0.0
                t1 = 0.0
                while i < a1 and ps[i] - sj < margin:
                    w = weight_at(pw, i)
                    t0 += w
                    t1 += w * (ps[i] - first)
                    i += 1
                w_new = w_act + t0
                mean += ((first - mean) + t1 / t0) * (t0 / w_new)
                w_act = w_new
            if w_act == 0.0:
                continue
            wj = weight_at(nw, j) * c
            if squared:
                put(out, at, nx[j], 2.0 * wj * w_act * (margin - (mean - sj)), 2.0 * wj * w_act)
            else:
                out[nx[j] * at[0]] = wj * w_act


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
                out[px[r] * at[0]] = c * 0.5 * (right + left)
            for r in range(j, j_end):
                w = weight_at(nw, r)
                right = min((fp_gt + w) * cn, fn_le * cp) - m_above
                left = m_below - min((fp_ge - w) * cn, fn_below * cp)
                out[nx[r] * at[0]] = c * 0.5 * (right + left)
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
