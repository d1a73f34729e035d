"""Pool adjacent violators on the distinct scores, one pass with a stack.

``pav_runs`` walks the one sort's two class runs (``_table.sorted_runs``,
keys ascending) merged on the fly, as the table's sweep does, so ties are
pooled first and every distinct score gets one recalibrated value (the
CORP choice of Dimitriadis, Gneiting and Jordan, 2021).  It keeps a stack
of blocks (first key, positive weight, total weight, weighted sum of
scores): a new key starts a block of its own, pooled with the block below
while that one's frequency is not smaller (``pos_below / tot_below >=
pos / tot``, compared as cross products), so the blocks left have strictly
increasing frequencies: the weighted isotonic (non-decreasing)
least-squares fit of the outcomes on the scores, in maximal blocks.  In
the same pass: the Brier sum ``sum pos (1 - p)^2 + neg p^2``.

``pav_pool`` pools blocks given in order: the blocks of consecutive key
ranges (pooled on the threads) or a table's keys, one block each.
"""

from __future__ import annotations

from .._jit import jit
from .losses import neumaier_add
from .sorting import bits_to_float, key_to_float_bits

SSE_CHUNK = 1024  # keys whose Brier terms ``pav_runs`` adds plainly (a power of two)


@jit
def pav_runs(pk, pw, nk, nw, scores_out, start, bpos, btot, bsx):
    """Weighted PAV straight from the one sort's runs (each class's keys
    ascending, ``sorting``'s order; a weight array may be empty: unit
    weights), merged on the fly, ties pooled: no table is written.  With a
    non-empty ``scores_out`` (at least the number of distinct keys long) the
    distinct scores are written to it, ascending.  ``start[b]`` counts
    distinct keys from the lowest.

    The top block of the stack stays in registers (most keys pool into it);
    the Brier sum adds ``SSE_CHUNK`` keys at a time plainly, the chunks'
    sums Neumaier-compensated: one add on the loop's chain per key.

    Returns ``(n_keys, n_blocks, sse)``."""
    store = scores_out.shape[0] > 0
    pweighted = pw.shape[0] > 0
    nweighted = nw.shape[0] > 0
    npos = pk.shape[0]
    nneg = nk.shape[0]
    i = 0
    j = 0
    m = 0
    g = 0  # blocks on the stack below the top one
    tbp = tbt = tsx = 0.0  # the top block
    ts = -1  # its first key; -1: no top block yet
    sse = sse_c = chunk = 0.0
    while i < npos or j < nneg:
        if j >= nneg or (i < npos and pk[i] <= nk[j]):
            k = pk[i]
        else:
            k = nk[j]
        a = 0.0
        while i < npos and pk[i] == k:
            a += pw[i] if pweighted else 1.0
            i += 1
        b = 0.0
        while j < nneg and nk[j] == k:
            b += nw[j] if nweighted else 1.0
            j += 1
        p = bits_to_float(key_to_float_bits(k))
        if store:
            scores_out[m] = p
        q = 1.0 - p
        chunk += a * q * q + b * p * p
        if (m & (SSE_CHUNK - 1)) == SSE_CHUNK - 1:
            sse, sse_c = neumaier_add(sse, sse_c, chunk)
            chunk = 0.0
        bp = a
        bt = a + b
        sx = bt * p
        s = m
        if ts >= 0:
            if tbp * bt >= bp * tbt:  # pools with the top block
                bp += tbp
                bt += tbt
                sx += tsx
                s = ts
                while g > 0 and bpos[g - 1] * bt >= bp * btot[g - 1]:
                    g -= 1
                    bp += bpos[g]
                    bt += btot[g]
                    sx += bsx[g]
                    s = start[g]
            else:  # the top block goes on the stack
                start[g] = ts
                bpos[g] = tbp
                btot[g] = tbt
                bsx[g] = tsx
                g += 1
        ts = s
        tbp = bp
        tbt = bt
        tsx = sx
        m += 1
    if ts >= 0:
        start[g] = ts
        bpos[g] = tbp
        btot[g] = tbt
        bsx[g] = tsx
        g += 1
    sse, sse_c = neumaier_add(sse, sse_c, chunk)
    return m, g, sse + sse_c


@jit
def pav_pool(start, bpos, btot, bsx):
    """PAV over blocks given in ascending order (the blocks of consecutive
    key ranges, each pooled by :func:`pav_runs`), in place: pooling adjacent
    violators in any order reaches the one isotonic fit, so pooling the
    ranges' blocks gives the blocks of the whole table.  Returns the number
    of blocks left at the front of the arrays."""
    g = 0
    for j in range(start.shape[0]):
        s = start[j]
        bp = bpos[j]
        bt = btot[j]
        sx = bsx[j]
        while g > 0 and bpos[g - 1] * bt >= bp * btot[g - 1]:
            g -= 1
            bp += bpos[g]
            bt += btot[g]
            sx += bsx[g]
            s = start[g]
        start[g] = s
        bpos[g] = bp
        btot[g] = bt
        bsx[g] = sx
        g += 1
    return g
