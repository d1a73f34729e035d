"""Order-preserving integer keys and the one sort: rows bucketed by key range,
each bucket radix-sorted in cache.

A float64 ``x`` maps to a uint64 key whose unsigned order is the numeric order
of ``x``: flip every bit of a negative number, set the sign bit of a
non-negative one.  ``-0.0`` is mapped to the key of ``+0.0`` so that the two
zeros stay one tie.  A float32 maps the same way to a uint32 key, sorted as
such (half the bytes, half the radix passes) and widened to the float64 key
of the same number only when written out.

The sort of a column (``_sort.sort_by_class``) takes three passes over the
rows and one in cache:

1. ``bin_counts``: each class's rows counted per *bin*, an equal-width slice
   of the key range ``[lo, lo + (nbins << shift))`` or of the score range
   (the caller's exact range of the scores, which also caught NaN and
   infinities, and its choice of the two: ``block_bins``).
2. The caller joins consecutive bins into buckets of about ``BUCKET_ROWS``
   rows (a bin is never split; numpy on the counts), and ``scatter_rows``
   writes each row's key, weight and payload into its class's region, bucket
   after bucket.
3. ``sort_segments`` sorts every (class, bucket) segment in cache with a
   stable LSD radix sort on the high bits of the keys' span (``radix``:
   bits all keys share are skipped, and the low bits are sorted only within
   the few runs of rows that tie on the high ones); short float64 segments
   by a 16-bit code of their values first (``by_value``).

Buckets follow key order, so each class comes out as one ascending run.  The
buckets, and so every result, depend on the data alone, never on threads.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from .._jit import jit

SIGN = np.uint64(0x8000000000000000)
EXP_MASK = np.uint64(0x7FF0000000000000)
SIGN32 = np.uint64(0x80000000)
EXP_MASK32 = np.uint64(0x7F800000)
MASK32 = np.uint64(0xFFFFFFFF)
NEG_ZERO = np.uint64(0x7FFFFFFFFFFFFFFF)  # the key -0.0 gets before it joins +0.0
NEG_ZERO32 = np.uint64(0x7FFFFFFF)
BYTE = np.uint64(0xFF)
INSERTION_MAX = 24  # segments up to this long are insertion-sorted
PREFIX_LIMIT = 1.0  # rows expected to tie on the digits sorted before runs are finished
DIGIT_MIN = 8  # radix digits' width in bits: 8 for short arrays,
DIGIT_MAX = 11  # up to 11 from 2**15 rows on (2,048 counts, in L1)
VALUE_ROWS = 4096  # segments up to this long are sorted by a code of their values
TABLE_ROWS = 64 // DIGIT_MIN + 1  # the radix tables: a row of counts per digit and the offsets
ID_BITS = (1 << 31) - 1  # the bits of an id a tag keeps (``scatter_tagged``)


@jit
def float_key(bits):
    """Key of one float64 given as its raw uint64 bits.

    Branch-free (scores' signs are often random, and a branch on them is
    mispredicted half the time): a negative number has every bit flipped, a
    non-negative one its sign bit set; ``-0.0`` lands just below ``+0.0``
    and is moved up onto it."""
    k = bits ^ ((np.uint64(0) - (bits >> np.uint64(63))) | SIGN)
    return k + np.uint64(k == NEG_ZERO)


@jit
def key_to_float_bits(key):
    """Inverse of ``float_key`` (``-0.0`` comes back as ``+0.0``): a key
    with its sign bit set loses it, any other has every bit flipped.
    Branch-free, so that loops over keys vectorise."""
    return key ^ (SIGN | ((key >> np.uint64(63)) - np.uint64(1)))


@jit
def keys_to_floats(keys, out):
    """float64 values of an array of keys, into ``out`` (uint64, as long; may
    be ``keys`` itself), returned as float64."""
    for i in range(keys.shape[0]):
        out[i] = key_to_float_bits(keys[i])
    return out.view(np.float64)


@jit
def float32_key(bits):
    """Key (uint32 range, as uint64) of one float32 given as its raw bits;
    branch-free like ``float_key``."""
    b = np.uint64(bits)
    k = b ^ (((np.uint64(0) - (b >> np.uint64(31))) & MASK32) | SIGN32)
    return k + np.uint64(k == NEG_ZERO32)


def row_key(bits):  # pragma: no cover - replaced by the overload when compiled
    """Key of a score's raw bits: float32 (uint32 bits) or float64 (uint64)."""


@overload(row_key)
def _row_key(bits):
    if bits.bitwidth == 32:
        return lambda bits: float32_key(bits)
    return lambda bits: float_key(bits)


# Weights and payloads are arrays or None.  These helpers are resolved when a
# kernel is compiled: for None they compile to nothing, so each kernel's
# variant without weights or without a payload carries no dead code (which
# kept the first compile of a sort several seconds long).

def _is_none(t):
    return isinstance(t, types.NoneType)


def skipped(weight, i):  # pragma: no cover - replaced by the overload when compiled
    """Whether row ``i`` has weight zero (never, without weights)."""


@overload(skipped)
def _skipped(weight, i):
    if _is_none(weight):
        return lambda weight, i: False
    return lambda weight, i: weight[i] == 0.0


def put(dst, o, src, i):  # pragma: no cover - replaced by the overload when compiled
    """``dst[o] = src[i]`` (nothing when ``dst`` is None)."""


@overload(put)
def _put(dst, o, src, i):
    if _is_none(dst):
        return lambda dst, o, src, i: None

    def impl(dst, o, src, i):
        dst[o] = src[i]
    return impl


def put_value(dst, o, value):  # pragma: no cover - replaced by the overload when compiled
    """``dst[o] = value`` (nothing when ``dst`` is None)."""


@overload(put_value)
def _put_value(dst, o, value):
    if _is_none(dst):
        return lambda dst, o, value: None

    def impl(dst, o, value):
        dst[o] = value
    return impl


def get(src, i):  # pragma: no cover - replaced by the overload when compiled
    """``src[i]`` (0 when ``src`` is None)."""


@overload(get)
def _get(src, i):
    if _is_none(src):
        return lambda src, i: 0
    return lambda src, i: src[i]


@jit(inline="always")
def number_rows(x, a, b):
    """``x[a:b] = a, ..., b - 1`` (nothing when ``x`` is None)."""
    for i in range(a, b):
        put_value(x, i, i)


@intrinsic
def prefetch(typingctx, arr, i):
    """A hint that element ``i`` of a 1-D array, or row ``i`` of a 2-D one,
    will be read soon (LLVM's ``prefetch``: no fault, no effect on any
    value)."""
    def codegen(context, builder, signature, args):
        arr_type, i_type = signature.args
        array = context.make_array(arr_type)(context, builder, args[0])
        row = context.cast(builder, args[1], i_type, types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, arr_type, array,
                                       [row] + [zero] * (arr_type.ndim - 1))
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        # read, high locality, data cache
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), ir.Constant(i32, 0),
                          ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(arr, i), codegen


@intrinsic
def bits_to_float(typingctx, bits):
    """The float64 whose IEEE 754 bits are the uint64 ``bits`` (a bit cast,
    as ``view``; an array view inside a kernel costs seconds of compile)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.uint64), codegen


def part(arr, a, b):  # pragma: no cover - replaced by the overload when compiled
    """``arr[a:b]`` (None when ``arr`` is None)."""


@overload(part)
def _part(arr, a, b):
    if _is_none(arr):
        return lambda arr, a, b: None
    return lambda arr, a, b: arr[a:b]


def payload_of(extra, i, first_row):  # pragma: no cover - replaced by the overload
    """Row ``i``'s payload: ``extra[i]``, or its index (``extra`` None)."""


@overload(payload_of)
def _payload_of(extra, i, first_row):
    if _is_none(extra):
        return lambda extra, i, first_row: first_row + i
    return lambda extra, i, first_row: extra[i]


BLOCK = 2048  # rows whose bins one loop computes before they are counted or scattered


@jit(inline="always")
def block_bins(bits, score, lo, shift, vlo, scale, top, out):
    """The bins of a block of rows (``bits``/``score`` slices as long as
    ``out``, int32) into ``out``: an equal-width slice of the key range
    ``[lo, lo + (nbins << shift))`` when ``scale`` is 0, else of the values
    (``(score - vlo) * scale``, at most ``top``).  Either is non-decreasing
    in the key, so bins, and the buckets joined from them, follow key order.

    A loop with nothing else in it, so that the compiler vectorises the
    conversions: computed row by row inside the counting or the scatter
    loop they cost more than the rest of it (1e6 rows on one thread: 2.1
    against 0.95 ms to count; to scatter, 4.7 against 2.8 ms for float32
    scores and 4.8 against 3.6 ms for float64, with the keys also made in a
    loop of their own)."""
    if scale > 0.0:
        for k in range(out.shape[0]):
            out[k] = min(np.int32((np.float64(score[k]) - vlo) * scale), np.int32(top))
    else:
        for k in range(out.shape[0]):
            out[k] = np.int32((np.uint64(row_key(bits[k])) - lo) >> shift)


@jit
def min_max(x, ones):
    """``(least, greatest, any NaN)`` of a non-empty 1-D array, in one pass
    (a row block of the validation passes: labels, scores, weights); with
    ``ones`` not None also ``ones[i] = x[i] == 1`` in the same pass, the
    positive mask of labels {0, 1} without a second pass over them."""
    lo = x[0]
    hi = x[0]
    bad = False
    for i in range(x.shape[0]):
        v = x[i]
        bad |= v != v  # NaN (never, for integers: compiled away)
        if v < lo:
            lo = v
        if v > hi:
            hi = v
        put_value(ones, i, v == 1)
    return lo, hi, bad


@jit
def key_min_max(bits):
    """The least and the greatest key (``row_key``) of float32 or float64
    raw bits (uint32 or uint64), as uint64: one pass that vectorises."""
    lo = np.uint64(0xFFFFFFFFFFFFFFFF)
    hi = np.uint64(0)
    for i in range(bits.shape[0]):
        k = np.uint64(row_key(bits[i]))
        lo = min(lo, k)
        hi = max(hi, k)
    return lo, hi


@jit
def add_blocks(hists, c0, c1, total):
    """``total[:, c0:c1]``: the row blocks' histograms (B, 2, K) added up,
    columns ``c0:c1`` (one unit of the sum; exact, integers)."""
    for c in range(2):
        for k in range(c0, c1):
            total[c, k] = 0
        for b in range(hists.shape[0]):
            for k in range(c0, c1):
                total[c, k] += hists[b, c, k]


@jit
def bucket_counts(hist, firsts, out):
    """A row block's rows per (class, bucket), ``out`` (2, nb) int64, from its
    rows per (class, bin) ``hist``; bucket ``j`` holds bins ``firsts[j]`` up
    to the next bucket's first."""
    nb = firsts.shape[0]
    for c in range(2):
        for j in range(nb):
            end = firsts[j + 1] if j + 1 < nb else hist.shape[1]
            total = 0
            for k in range(firsts[j], end):
                total += hist[c, k]
            out[c, j] = total


@jit
def bin_counts(bits, score, is_pos, weight, lo, shift, vlo, scale, hist):
    """Count each class's rows of non-zero weight per bin (``hist``: int64
    zeros (2, nbins); row 0 negatives, row 1 positives); bins as
    ``block_bins`` (the caller's exact range of the (finite) scores: ``lo``
    the least key, ``vlo`` the least score).  ``weight``: None for unit
    weights."""
    top = hist.shape[1] - 1
    n = bits.shape[0]
    bins = np.empty(BLOCK, np.int32)
    for a in range(0, n, BLOCK):
        e = min(n, a + BLOCK)
        t = bins[:e - a]
        block_bins(bits[a:e], score[a:e], lo, shift, vlo, scale, top, t)
        pos = is_pos[a:e]
        ws = part(weight, a, e)
        for k in range(e - a):
            if skipped(ws, k):
                continue
            hist[np.int64(pos[k]), t[k]] += 1


@jit
def scatter_rows(bits, score, is_pos, weight, extra, first_row, lo, shift, vlo, scale, lut,
                 cursor, keys, w_out, x_out, slot_out):
    """Write each row of non-zero weight to ``cursor[is_pos, bucket]`` (then
    advanced; ``lut[bin]`` is the bin's bucket): its key to ``keys``, its
    weight to ``w_out`` and its payload to ``x_out`` (each None when not
    wanted): ``extra[i]``, or with ``extra`` None the row's index
    (``first_row`` for the first row here).  With ``slot_out``, each row's
    position there (-1 for weight zero) goes to ``slot_out[i]``."""
    top = lut.shape[0] - 1
    n = bits.shape[0]
    nb = cursor.shape[1]
    flat = cursor.reshape(cursor.size)
    buckets = np.empty(BLOCK, np.int32)
    block_keys = np.empty(BLOCK, keys.dtype)
    for a in range(0, n, BLOCK):
        e = min(n, a + BLOCK)
        t = buckets[:e - a]
        rows = bits[a:e]
        kb = block_keys[:e - a]
        for k in range(e - a):
            kb[k] = row_key(rows[k])
        block_bins(rows, score[a:e], lo, shift, vlo, scale, top, t)
        pos = is_pos[a:e]
        for k in range(e - a):  # the (class, bucket) segment, as a flat index
            t[k] = np.int32(lut[t[k]]) + np.int32(nb) * np.int32(pos[k])
        ws = part(weight, a, e)
        xs = part(extra, a, e)
        slots = part(slot_out, a, e)
        for k in range(e - a):
            if skipped(ws, k):
                put_value(slots, k, -1)
                continue
            b = t[k]
            o = flat[b]
            flat[b] = o + 1
            keys[o] = kb[k]
            put(w_out, o, ws, k)
            put_value(x_out, o, payload_of(xs, k, first_row + a))
            put_value(slots, k, o)


@jit
def group_counts(score, is_pos, weight, codes, counts):
    """Rows of non-zero weight per class and group, added into ``counts``
    (int64 (2, n_groups); row 1 positives).  ``weight``: None for unit
    weights.  Returns how many scores (of any weight) are NaN or infinite."""
    bad = 0
    for i in range(is_pos.shape[0]):
        x = score[i]
        if not (x - x == 0.0):
            bad += 1
        if skipped(weight, i):
            continue
        counts[np.int64(is_pos[i]), codes[i]] += 1
    return bad


@jit
def scatter_groups(bits, is_pos, weight, codes, first_row, cursor, keys, w_out, x_out, slot_out):
    """Write each row of non-zero weight to ``cursor[is_pos, codes[i]]``
    (then advanced): its key to ``keys``, its weight to ``w_out`` (None
    without weights) and its index (``first_row`` for the first row here)
    to ``x_out``; or, with ``slot_out``, its position to ``slot_out[i]``
    (-1 for weight zero), as ``scatter_rows``: one of ``x_out`` and
    ``slot_out`` is None.  Segments are then sorted by ``sort_segments``:
    each (class, group) comes out sorted by score."""
    for i in range(bits.shape[0]):
        if skipped(weight, i):
            put_value(slot_out, i, -1)
            continue
        c = np.int64(is_pos[i])
        g = codes[i]
        o = cursor[c, g]
        cursor[c, g] = o + 1
        keys[o] = row_key(bits[i])
        put(w_out, o, weight, i)
        put_value(x_out, o, first_row + i)
        put_value(slot_out, i, o)


@jit
def take_slots(slot, src, a, b):
    """``a[i], b[i] = src[slot[i]]`` (0 where ``slot[i]`` is -1), with a
    hint for the row 32 ahead: the slots are scattered, and the reads wait
    on memory unless requested early."""
    m = slot.shape[0]
    for i in range(m):
        if i + 32 < m:
            prefetch(src, max(slot[i + 32], 0))
        o = slot[i]
        if o < 0:
            a[i] = 0.0
            b[i] = 0.0
        else:
            a[i] = src[o, 0]
            b[i] = src[o, 1]


@jit(inline="always")
def _insertion(keys, w, x, a, b):
    """Stable insertion sort of ``a:b`` in place (short segments)."""
    for i in range(a + 1, b):
        k = keys[i]
        j = i - 1
        if keys[j] <= k:
            continue
        wi = get(w, i)
        xi = get(x, i)
        while j >= a and keys[j] > k:
            keys[j + 1] = keys[j]
            put(w, j + 1, w, j)
            put(x, j + 1, x, j)
            j -= 1
        keys[j + 1] = k
        put_value(w, j + 1, wi)
        put_value(x, j + 1, xi)


@jit
def lsd(keys, w, x, tk, tw, tx, hist, offset, limit):
    """Stable LSD radix sort of ``keys`` (with ``w``/``x`` unless None) on
    the high bits of each key's distance above the least key, passing back
    and forth through the scratch ``t*`` (at least as long).  Digits are
    ``DIGIT_MIN`` to ``DIGIT_MAX`` bits wide (wider for longer arrays) and
    aligned at the highest bit of the keys' span, so no pass is spent on
    bits every key shares, and the first digit cuts the span evenly (scores
    on both sides of 1.0 differ in every exponent bit, but their span is
    what it is).  Digits are taken from the top until the expected number of
    rows agreeing with another on all of them is at most ``limit`` (0: every
    bit).  ``hist``: int64 (at least 64 / DIGIT_MIN, 2**DIGIT_MAX),
    ``offset``: int64 (2**DIGIT_MAX,).  Returns ``(in_tmp, low, base)``:
    whether the keys ended in the scratch, the lowest bit of ``key - base``
    sorted on when bits below it still vary (else -1: fully sorted), and
    ``base``, the least key."""
    m = keys.shape[0]
    if m == 0:
        return False, -1, np.uint64(0)
    base = np.uint64(keys[0])
    top_key = base
    for i in range(m):
        k = np.uint64(keys[i])
        base = min(base, k)
        top_key = max(top_key, k)
    span = top_key - base
    top = 0  # one above the span's highest bit
    while top < 64 and (span >> np.uint64(top)) != 0:
        top += 1
    # wider digits for more rows: fewer passes, while the counts to clear
    # and add up stay few next to the rows
    width = DIGIT_MIN
    while width < DIGIT_MAX and (np.int64(1) << (width + 4)) < m:
        width += 1
    # ``pairs`` estimates the share of row pairs that agree on the digits
    # so far (the product of each digit's collision probability).  A
    # digit's counts are taken only when it is reached (one pass over the
    # keys, in cache): the digits below are often never needed.
    low = -1
    digits = 0
    pairs = 1.0
    hi = top
    while hi > 0:
        if pairs * m <= limit:
            low = hi
            break
        lo = max(0, hi - width)
        shift = np.uint64(lo)
        mask = (np.uint64(1) << np.uint64(hi - lo)) - np.uint64(1)
        h = hist[digits]
        size = 1 << (hi - lo)
        for j in range(size):
            h[j] = 0
        for i in range(m):
            h[((np.uint64(keys[i]) - base) >> shift) & mask] += 1
        same = 0.0
        for j in range(size):
            same += np.float64(h[j]) * np.float64(h[j])
        pairs *= same / (np.float64(m) * np.float64(m))
        digits += 1
        hi = lo
    sk, sw, sx = keys, w, x
    dk, dw, dx = tk, tw, tx
    in_tmp = False
    for d in range(digits - 1, -1, -1):  # least significant digit first
        hi = top - d * width
        lo = max(0, hi - width)
        h = hist[d]
        total = 0
        for j in range(1 << (hi - lo)):
            offset[j] = total
            total += h[j]
        shift = np.uint64(lo)
        mask = (np.uint64(1) << np.uint64(hi - lo)) - np.uint64(1)
        for i in range(m):
            k = sk[i]
            j = ((np.uint64(k) - base) >> shift) & mask
            o = offset[j]
            offset[j] = o + 1
            dk[o] = k
            put(dw, o, sw, i)
            put(dx, o, sx, i)
        sk, dk = dk, sk
        sw, dw = dw, sw
        sx, dx = dx, sx
        in_tmp = not in_tmp
    return in_tmp, low, base


@jit(inline="always")
def radix(keys, w, x, tk, tw, tx, hist, offset):
    """Stable radix sort of ``keys`` (with ``w``/``x`` unless None) through
    the scratch ``t*`` (at least as long); returns True when the sorted keys
    ended in the scratch.

    Only the highest bits that vary get LSD passes, as many digits as it
    takes to leave about ``PREFIX_LIMIT`` rows tied with another on them
    (the bits every key shares are skipped).  Keys then agree above the
    lowest bit sorted on exactly within runs that are already in place and
    hold their rows in input order; a run is finished by insertion sort when
    short, by an LSD sort of its remaining bits otherwise.  In a cache-sized
    bucket of continuous scores such runs are nearly all one or two rows, so
    this saves the passes over the low bits."""
    in_tmp, low, base = lsd(keys, w, x, tk, tw, tx, hist, offset, PREFIX_LIMIT)
    if low < 0:
        return in_tmp
    if in_tmp:
        sk, sw, sx, dk, dw, dx = tk, tw, tx, keys, w, x
    else:
        sk, sw, sx, dk, dw, dx = keys, w, x, tk, tw, tx
    m = keys.shape[0]
    shift = np.uint64(low)
    i = 0
    while i < m:
        p = (np.uint64(sk[i]) - base) >> shift
        j = i + 1
        while j < m and ((np.uint64(sk[j]) - base) >> shift) == p:
            j += 1
        if j - i > INSERTION_MAX:
            back, _, _ = lsd(sk[i:j], part(sw, i, j), part(sx, i, j), dk[i:j], part(dw, i, j),
                          part(dx, i, j), hist, offset, 0.0)
            if back:
                for r in range(i, j):
                    sk[r] = dk[r]
                    put(sw, r, dw, r)
                    put(sx, r, dx, r)
        elif j - i > 1:
            _insertion(sk, sw, sx, i, j)
        i = j
    return in_tmp


@jit(inline="always")
def _copy_back(keys, w, x, tk, tw, tx, a, b):
    """``keys[a:b]`` (and ``w``/``x`` unless None) from the scratch's first
    ``b - a`` rows: a sort that ended in the scratch, put back in place."""
    for i in range(b - a):
        keys[a + i] = tk[i]
        put(w, a + i, tw, i)
        put(x, a + i, tx, i)


@jit
def radix_sort(keys, w, x, tk, tw, tx, hist, offset):
    """``radix``, compiled once per argument types and called, not inlined:
    ``sort_segments`` and ``by_value`` share one copy of its code (each
    inlined copy adds to the compile time of a process without the cache)."""
    return radix(keys, w, x, tk, tw, tx, hist, offset)


@jit
def by_value(keys, w, x, tk, tw, tx, v, codes, hist, offset):
    """Stable sort of a short array of float64 keys (with ``w``/``x`` unless
    None) in place, through the scratch ``t*`` (at least as long), by a
    16-bit code linear in the value, then by key where codes tie.

    The top digits of a key are poor digits when the scores straddle zero
    (or 1.0): their keys differ in every exponent bit, so the first LSD
    digits hold a few distinct values and the rows need three passes.  The
    code ``(v - v_min) * 65535 / (v_max - v_min)`` (rounded down) spreads
    them as evenly as the values are spread, and is non-decreasing in the
    key (a subtraction of a constant and a product by a positive one are
    monotone in IEEE 754), so sorting by it and then finishing each run of
    equal codes by key (insertion sort, or ``radix`` when long) is the
    key order: two LSD passes of 8 bits, which end in place.  ``v``:
    float64 scratch (``VALUE_ROWS``,), ``codes``: uint32 scratch
    (``2 * VALUE_ROWS``,), ``hist``/``offset`` as for ``lsd``.  Returns False (the sorted keys are in place), as ``radix``
    returns where they ended."""
    m = keys.shape[0]
    q = codes[:m]
    tq = codes[VALUE_ROWS:VALUE_ROWS + m]
    for i in range(m):
        v[i] = bits_to_float(key_to_float_bits(keys[i]))
    lo = v[0]
    hi = v[0]
    for i in range(m):
        if v[i] < lo:
            lo = v[i]
        if v[i] > hi:
            hi = v[i]
    span = hi - lo
    if span == 0.0:
        return False
    scale = 65535.0 / span
    if not (span < np.inf and scale < np.inf):  # past the float range
        if radix_sort(keys, w, x, tk, tw, tx, hist, offset):
            _copy_back(keys, w, x, tk, tw, tx, 0, m)
        return False
    low = hist[0]
    high = hist[1]
    for j in range(256):
        low[j] = 0
        high[j] = 0
    for i in range(m):
        c = np.uint32(min((v[i] - lo) * scale, 65535.0))
        q[i] = c
        low[c & np.uint32(255)] += 1
        high[c >> np.uint32(8)] += 1
    t_low = 0
    t_high = 0
    for j in range(256):
        c_low = low[j]
        low[j] = t_low
        t_low += c_low
        c_high = high[j]
        high[j] = t_high
        t_high += c_high
    for i in range(m):  # by the low byte into the scratch
        c = q[i]
        o = low[c & np.uint32(255)]
        low[c & np.uint32(255)] = o + 1
        tk[o] = keys[i]
        tq[o] = c
        put(tw, o, w, i)
        put(tx, o, x, i)
    for i in range(m):  # by the high byte back in place
        c = tq[i]
        o = high[c >> np.uint32(8)]
        high[c >> np.uint32(8)] = o + 1
        keys[o] = tk[i]
        q[o] = c
        put(w, o, tw, i)
        put(x, o, tx, i)
    i = 0
    while i < m:  # runs of equal codes, by key
        c = q[i]
        j = i + 1
        while j < m and q[j] == c:
            j += 1
        if j - i > INSERTION_MAX:
            if radix_sort(keys[i:j], part(w, i, j), part(x, i, j), tk, tw, tx, hist, offset):
                _copy_back(keys, w, x, tk, tw, tx, i, j)
        elif j - i > 1:
            _insertion(keys, w, x, i, j)
        i = j
    return False


def short_sort(keys, w, x, tk, tw, tx, v, codes, hist, offset):  # pragma: no cover - overload
    """A segment of up to ``VALUE_ROWS`` rows: ``by_value`` for float64 keys
    given its scratch, else ``radix`` (float32 keys have half the bytes: two
    passes already).  ``v`` None compiles no ``by_value`` into the caller:
    the column sorts, whose buckets are long, leave it out of the compile
    time of a first ``roc_auc_score``."""


@overload(short_sort)
def _short_sort(keys, w, x, tk, tw, tx, v, codes, hist, offset):
    if keys.dtype.bitwidth == 64 and not _is_none(v):
        return lambda keys, w, x, tk, tw, tx, v, codes, hist, offset: by_value(
            keys, w, x, tk, tw, tx, v, codes, hist, offset)
    return lambda keys, w, x, tk, tw, tx, v, codes, hist, offset: radix_sort(
        keys, w, x, tk, tw, tx, hist, offset)


@jit
def sort_segments(keys, w, x, starts, first, last, tk, tw, tx, out, tables, v, codes, number,
                  values):
    """Sort each segment ``starts[s]:starts[s + 1]`` for ``first <= s < last``
    ascending (stable), weights ``w`` and payload ``x`` (each possibly empty)
    carried along, in place; the sorted keys are written to ``out`` as
    float64 keys (``out`` may be ``keys`` itself when they are uint64), or,
    with ``values``, as the float64 values' bits (a caller that computes
    with the scores: converted here, on the sorting threads, in cache).
    ``tk``/``tw``/``tx`` are scratch as long as the longest segment (None
    with ``w``/``x``).  ``tables``: int64 scratch (``TABLE_ROWS``,
    ``2**DIGIT_MAX``), the radix sort's digit counts and offsets, and
    ``v``/``codes`` the scratch of ``by_value`` (None: no ``by_value``; all passed in: an allocation here adds to the compile time of every process
    that starts without Numba's cache).  Segments of up to ``INSERTION_MAX``
    rows are insertion-sorted, up to ``VALUE_ROWS`` sorted by ``short_sort``,
    longer ones by ``radix``.  ``number``: the payload is each row's position
    before the sort, written here (in cache) instead of read."""
    hist = tables[:-1]
    offset = tables[-1]
    for s in range(first, last):
        a = starts[s]
        b = starts[s + 1]
        m = b - a
        if number:
            number_rows(x, a, b)
        if m <= INSERTION_MAX:
            _insertion(keys, w, x, a, b)
            in_tmp = False
        elif m <= VALUE_ROWS:
            in_tmp = short_sort(keys[a:b], part(w, a, b), part(x, a, b), tk, tw, tx, v, codes,
                                hist, offset)
        else:
            in_tmp = radix_sort(keys[a:b], part(w, a, b), part(x, a, b), tk, tw, tx, hist,
                                offset)
        if in_tmp:  # copied back (in cache) so that every segment ends in place
            _copy_back(keys, w, x, tk, tw, tx, a, b)
        widen_segment(keys, out, a, b, values)


def widen_segment(keys, out, a, b, values):  # pragma: no cover - replaced by the overload
    """float32 keys ``a:b`` widened into ``out`` (as values' bits with
    ``values``); float64 keys are sorted in place in ``out`` itself and only
    turned into values' bits, so the widening is never compiled for them."""


@overload(widen_segment)
def _widen_segment(keys, out, a, b, values):
    if keys.dtype.bitwidth == 32:
        def widen(keys, out, a, b, values):
            _widen_into(keys[a:b], out[a:b], values)
        return widen

    def as_values(keys, out, a, b, values):
        if values:
            keys_to_floats(out[a:b], out[a:b])
    return as_values


@jit
def _widen_into(keys, out, values):
    """float32 keys (uint32; overwritten) as the float64 keys of the same
    numbers, into ``out`` (the hardware's float32 -> float64 conversion), or
    as the float64 values' bits with ``values``."""
    for i in range(keys.shape[0]):
        k = np.uint64(keys[i])
        keys[i] = k ^ SIGN32 if k >= SIGN32 else (~k) & MASK32
    as_float32 = keys.view(np.float32)
    as_float = out.view(np.float64)
    for i in range(keys.shape[0]):
        as_float[i] = np.float64(as_float32[i])
    if not values:
        for i in range(out.shape[0]):
            out[i] = float_key(out[i])


@jit
def sort_small(bits, is_pos, weight, extra, keys, w_out, x_out, tk, tw, tx, out, starts,
               tables, v, codes, number, values):
    """The whole sort of an input that is one bucket (at most ``BUCKET_ROWS``
    rows) in one call: the rows of non-zero weight split by class, the
    positives first, then each class sorted (``sort_segments``).  Arrays as
    for ``scatter_rows`` and ``sort_segments``, each as long as the input;
    ``starts``: int64 scratch (3,), ``tables``, ``v``, ``codes``,
    ``number`` and ``values`` as for ``sort_segments`` (``number`` passed
    in, not written as a constant here, for the reason given below).
    Returns ``(n_pos, m)``: the positives are ``out[:n_pos]``, the negatives
    ``out[n_pos:m]``."""
    n_pos = 0
    m = 0
    for i in range(bits.shape[0]):
        if skipped(weight, i):
            continue
        m += 1
        n_pos += np.int64(is_pos[i])
    ip = 0
    ineg = n_pos
    for i in range(bits.shape[0]):
        if skipped(weight, i):
            continue
        if is_pos[i]:
            o = ip
            ip += 1
        else:
            o = ineg
            ineg += 1
        keys[o] = row_key(bits[i])
        put(w_out, o, weight, i)
        put_value(x_out, o, payload_of(extra, i, 0))
    starts[0] = 0
    starts[1] = n_pos
    starts[2] = m
    # the two segments as ``starts``' length gives them, and ``number`` as
    # passed in, not as constants: a constant argument makes Numba compile
    # another specialisation of sort_segments (Literal types), 0.5-0.7 s more
    # each on an empty cache
    last = starts.shape[0] - 1
    sort_segments(keys, w_out, x_out, starts, last - 2, last, tk, tw, tx, out, tables, v, codes,
                  number, values)
    return n_pos, m


@jit
def widen_keys(keys, out, values):
    """float32 keys (uint32; overwritten) as the float64 keys of the same
    numbers (their values' bits with ``values``), into ``out``, returned."""
    _widen_into(keys, out, values)
    return out


# ------------------------------------------------- rows tagged by class, one run

@jit(inline="always")
def _row_keys(bits, out):
    """The keys of a block of raw bits, into ``out``."""
    for k in range(out.shape[0]):
        out[k] = row_key(bits[k])


@jit(inline="always")
def clamped_bins(bits, score, lo, shift, vlo, scale, top, out):
    """``block_bins`` for a range taken from a sample: a key or value below
    it goes to bin 0, one above it to bin ``top`` (still non-decreasing in
    the key, so buckets still follow key order), and NaN to some bin in
    range (the caller counts non-finite scores and raises)."""
    if scale > 0.0:
        for k in range(out.shape[0]):
            x = min(max((np.float64(score[k]) - vlo) * scale, 0.0), np.float64(top))
            out[k] = min(max(np.int32(x), np.int32(0)), np.int32(top))
    else:
        cap = np.uint64(top)
        for k in range(out.shape[0]):
            key = np.uint64(row_key(bits[k]))
            b = min((key - lo) >> shift, cap)
            out[k] = np.int32(b if key >= lo else np.uint64(0))


@jit
def tagged_counts(bits, score, is_pos, lo, shift, vlo, scale, hist):
    """``bin_counts`` of unweighted rows with ``clamped_bins``; returns how
    many scores are NaN or infinite."""
    top = hist.shape[1] - 1
    n = bits.shape[0]
    bins = np.empty(BLOCK, np.int32)
    bad = 0
    for a in range(0, n, BLOCK):
        e = min(n, a + BLOCK)
        t = bins[:e - a]
        clamped_bins(bits[a:e], score[a:e], lo, shift, vlo, scale, top, t)
        pos = is_pos[a:e]
        s = score[a:e]
        for k in range(e - a):
            x = s[k]
            bad += not (x - x == 0.0)
            hist[np.int64(pos[k]), t[k]] += 1
    return bad


@jit
def scatter_tagged(bits, score, is_pos, ids, lo, shift, vlo, scale, lut, cursor, keys, tags):
    """Write each row to ``cursor[bucket]`` (then advanced; both classes in
    one segment a bucket): its key to ``keys`` and to ``tags`` (uint32) the
    low 31 bits of its id shifted left once, its class in the low bit.
    Bins as ``tagged_counts``, buckets as ``scatter_rows``.  Returns the
    least and the greatest id (int64): with them the caller knows whether
    31 bits tell the ids apart, without a pass of its own over them."""
    top = lut.shape[0] - 1
    n = bits.shape[0]
    buckets = np.empty(BLOCK, np.int32)
    block_keys = np.empty(BLOCK, keys.dtype)
    least = np.int64(ids[0]) if n else np.int64(0)
    most = least
    for a in range(0, n, BLOCK):
        e = min(n, a + BLOCK)
        t = buckets[:e - a]
        kb = block_keys[:e - a]
        _row_keys(bits[a:e], kb)  # a loop of its own: it vectorises
        clamped_bins(bits[a:e], score[a:e], lo, shift, vlo, scale, top, t)
        for k in range(e - a):
            b = lut[t[k]]
            o = cursor[b]
            cursor[b] = o + 1
            keys[o] = kb[k]
            c = np.int64(ids[a + k])
            least = min(least, c)
            most = max(most, c)
            tags[o] = np.uint32(((c & ID_BITS) << 1) | np.int64(is_pos[a + k]))
    return least, most


@jit(boundscheck=False)
def pack_keys(keys, a, b, out):
    """``keys[a:b]`` as 64-bit words whose order is theirs, for a sort
    without a payload: the top bits of each key's distance above the least
    key, then its position ``i - a`` in the low ``ib`` bits (``2**ib`` at
    least ``b - a``), written to ``out[:b - a]``; returns ``(ib, exact)``.
    ``exact``: the distances fit whole (their span is at most ``64 - ib``
    bits), so a word's high bits order and tie the rows as their keys do;
    otherwise keys that differ only below the bits kept may come out of
    order, by position, and the caller reads the keys back to check."""
    m = b - a
    ib = 0
    while (np.int64(1) << ib) < m:
        ib += 1
    least = np.uint64(keys[a])
    most = least
    for i in range(a, b):
        k = np.uint64(keys[i])
        least = min(least, k)
        most = max(most, k)
    span = most - least
    width = 0
    while width < 64 and (span >> np.uint64(width)) != 0:
        width += 1
    drop = np.uint64(max(0, width - (64 - ib)))
    up = np.uint64(ib)
    for i in range(m):
        out[i] = (((np.uint64(keys[a + i]) - least) >> drop) << up) | np.uint64(i)
    return ib, drop == 0


@jit
def sort_packed(packed, tmp, tables):
    """``packed`` (uint64 words, no payload) radix-sorted in place through
    ``tmp`` (as long): for hosts where the radix sort beats ``np.sort``."""
    if radix_sort(packed, None, None, tmp, None, None, tables[:-1], tables[-1]):
        packed[:] = tmp[:packed.shape[0]]
