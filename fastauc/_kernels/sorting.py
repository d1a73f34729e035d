"""Order-preserving integer keys and an LSD radix sort.

A float64 ``x`` maps to a uint64 key whose unsigned order is the numeric order
of ``x``: flip every bit of a negative number, set the sign bit of a
non-negative one.  ``-0.0`` is mapped to the key of ``+0.0`` so that the two
zeros stay one tie.  Radix sort on these keys (8 passes of 8 bits, skipping a
pass when every key shares that byte) is several times faster than
``np.sort`` here and carries an optional float64 payload (sample weights).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

SIGN = np.uint64(0x8000000000000000)
EXP_MASK = np.uint64(0x7FF0000000000000)
BYTE = np.uint64(0xFF)
N_DIGITS = 8


@jit
def float_key(bits):
    """Key of one float64 given as its raw uint64 bits."""
    if bits >= SIGN:
        if bits == SIGN:  # -0.0 is the same tie as +0.0
            return SIGN
        return ~bits
    return bits | SIGN


@jit
def key_to_float_bits(key):
    """Inverse of ``float_key`` (``-0.0`` comes back as ``+0.0``)."""
    if key >= SIGN:
        return key ^ SIGN
    return ~key


@jit
def keys_to_floats(keys, out):
    """float64 values of an array of keys, into ``out`` (uint64, as long; may
    be ``keys`` itself), returned as float64."""
    for i in range(keys.shape[0]):
        out[i] = key_to_float_bits(keys[i])
    return out.view(np.float64)


@jit
def _add_to_hist(hist, key):
    for d in range(N_DIGITS):
        hist[d, (key >> np.uint64(8 * d)) & BYTE] += 1


@jit
def split_by_class(bits, is_pos, weight, extra, keys, w_out, x_out, hist):
    """Split scores into positive and negative keys (and weights, and an int payload).

    Parameters
    ----------
    bits : uint64 array (n,), raw bits of float64 scores
    is_pos : bool array (n,)
    weight : float64 array (n,) or (0,) for unit weights; rows of weight 0
        are left out, as scikit-learn does.
    extra : int32 or int64 array (n,), or (0,)
        A payload carried along with each key: row indices (the resampling
        layout) or group codes (``table.grouped_sweep``).
    keys, w_out, x_out : arrays of length n (``w_out``/``x_out`` empty when
        ``weight``/``extra`` are), allocated by the caller (numpy asks for
        huge pages; memory allocated in compiled code gets small ones)
        Receive the positives' keys (weights, payload) at ``0:n_pos``, the
        negatives' at ``n_pos:n_pos + n_neg``.
    hist : int64 zeros (2, 8, 256), from the caller
        Receives the byte histograms of the positives' and the negatives'
        keys (arrays made by the caller also keep numpy's allocation code
        out of this kernel's compilation).

    Returns
    -------
    n_pos, n_neg, n_bad, first_bad
        ``n_bad`` counts NaN/inf scores and ``first_bad`` is the index of the
        first one (-1 if none; nothing is written then).
    """
    n = bits.shape[0]
    weighted = weight.shape[0] > 0
    with_extra = extra.shape[0] > 0
    n_pos = 0
    n_neg = 0
    n_bad = 0
    first_bad = -1
    for i in range(n):
        if (bits[i] & EXP_MASK) == EXP_MASK:
            n_bad += 1
            if first_bad < 0:
                first_bad = i
        if weighted and weight[i] == 0.0:
            continue
        if is_pos[i]:
            n_pos += 1
        else:
            n_neg += 1
    pos_hist = hist[0]
    neg_hist = hist[1]
    if n_bad > 0:
        return n_pos, n_neg, n_bad, first_bad
    ip = 0
    ineg = n_pos
    for i in range(n):
        if weighted and weight[i] == 0.0:
            continue
        k = float_key(bits[i])
        if is_pos[i]:
            keys[ip] = k
            if weighted:
                w_out[ip] = weight[i]
            if with_extra:
                x_out[ip] = extra[i]
            _add_to_hist(pos_hist, k)
            ip += 1
        else:
            keys[ineg] = k
            if weighted:
                w_out[ineg] = weight[i]
            if with_extra:
                x_out[ineg] = extra[i]
            _add_to_hist(neg_hist, k)
            ineg += 1
    return n_pos, n_neg, n_bad, first_bad


@jit
def radix_sort(keys, weight, extra, hist, dst_k, dst_w, dst_x, offset):
    """Sort ``keys`` ascending (stable LSD radix), permuting two payloads along.

    ``weight`` (float64) and ``extra`` (int32/int64) are payloads, each possibly
    empty.  ``hist`` holds the byte histograms of ``keys``; a byte shared by
    every key is skipped.  The passes go back and forth between the inputs
    and ``dst_*`` (same lengths, from the caller; ``offset`` is 256 int64 of
    scratch); the sorted arrays ``(keys, weight, extra)`` are returned (views
    of either).
    """
    n = keys.shape[0]
    carry_w = weight.shape[0] > 0
    carry_x = extra.shape[0] > 0
    src_k = keys
    src_w = weight
    src_x = extra
    for d in range(N_DIGITS):
        h = hist[d]
        constant = False
        total = 0
        for j in range(256):
            offset[j] = total
            total += h[j]
            if h[j] == n:
                constant = True
        if constant or n == 0:
            continue
        shift = np.uint64(8 * d)
        if carry_w or carry_x:
            for i in range(n):
                k = src_k[i]
                j = (k >> shift) & BYTE
                o = offset[j]
                dst_k[o] = k
                if carry_w:
                    dst_w[o] = src_w[i]
                if carry_x:
                    dst_x[o] = src_x[i]
                offset[j] = o + 1
        else:
            for i in range(n):
                k = src_k[i]
                j = (k >> shift) & BYTE
                o = offset[j]
                dst_k[o] = k
                offset[j] = o + 1
        src_k, dst_k = dst_k, src_k
        src_w, dst_w = dst_w, src_w
        src_x, dst_x = dst_x, src_x
    return src_k, src_w, src_x


@jit
def merge_desc(k1, x1, k2, x2, keys, payload):
    """Two ascending runs of keys with an int payload, merged into one
    *descending* run in ``keys``/``payload`` (walked from their tops; a tie
    takes run 1 first)."""
    n1 = k1.shape[0]
    n2 = k2.shape[0]
    i = n1 - 1
    j = n2 - 1
    for o in range(n1 + n2):
        if j < 0 or (i >= 0 and k1[i] >= k2[j]):
            keys[o] = k1[i]
            payload[o] = x1[i]
            i -= 1
        else:
            keys[o] = k2[j]
            payload[o] = x2[j]
            j -= 1
    return keys, payload


@jit
def group_bounds(pk, nk, keys_out, bp_out, bn_out):
    """Distinct keys and cumulative class counts (``bp``/``bn``) of two
    *descending* runs (the positives' and the negatives' keys of a layout),
    walked together from the top; returns the number of distinct keys."""
    i = 0
    j = 0
    g = 0
    n_p = pk.shape[0]
    n_n = nk.shape[0]
    while i < n_p or j < n_n:
        if j >= n_n or (i < n_p and pk[i] >= nk[j]):
            k = pk[i]
        else:
            k = nk[j]
        while i < n_p and pk[i] == k:
            i += 1
        while j < n_n and nk[j] == k:
            j += 1
        keys_out[g] = k
        bp_out[g] = i
        bn_out[g] = j
        g += 1
    return g
