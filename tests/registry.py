"""One registry of comparisons: every public function, its reference, its data, its goal.

Modelled on numbagg's ``COMPARISONS``.  Each :class:`Comparison` names one
public function of ``fastauc.__all__`` (several entries may exercise one
function with different options or data), how to call it, the reference it
must agree with (scikit-learn, scipy or ``fastauc.naive``; a composition of
them where no single function exists), how to make its data, whether it takes
``sample_weight``, the tolerance, the weight invariances that hold for it and
its benchmark goal.  It drives

- ``tests/test_reference.py``: every entry against its reference, several
  seeds, tie-heavy data, with and without weights;
- ``tests/test_invariances.py``: scikit-learn's weight invariances for every
  entry with ``weights=True``;
- ``tests/test_bad_input.py``: the generic bad-input table (NaN/inf scores,
  length mismatch, bad weights, wrong label sets) for every public function;
- ``benchmarks/test_benchmarks.py``: the functions timed and their goals (the
  goals are the ones ``benchmarks/run_benchmarks.py`` reports against).

Calls take ``(d, w)``: ``d`` a dict of row-aligned arrays (every array's first
axis is the rows, so repeating, removing and shuffling rows is the same
operation on each) and ``w`` the weights or None.  ``view`` turns a result
into plain comparable numbers (floats, arrays, tuples, dicts of them);
references return the same shape directly.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import scipy.stats as ss
import sklearn.calibration as calibration
import sklearn.metrics as skm

import fastauc
from fastauc import naive

# ------------------------------------------------------------------ data kinds

WEIGHT_VALUES = (0.0, 0.5, 1.0, 2.0, 3.25, 7.0)  # dyadic: tallies stay exact
INTEGER_WEIGHT_VALUES = (0.0, 1.0, 2.0, 3.0)  # frequency weights: rows repeated


def _sigmoid(s):
    return 1.0 / (1.0 + np.exp(-np.clip(s, -30.0, 30.0)))


def _binary_rows(rng, n, ties):
    y = (rng.random(n) < 0.4).astype(np.int64)
    y[:2] = (0, 1)
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(2.0 * s) / 2.0  # about ten distinct values
    return y, s


def _second_model(y, s):
    """A second, correlated score column (deterministic, so row operations agree)."""
    noise = np.random.default_rng(len(s)).normal(size=len(s))
    return np.round(np.where(np.abs(s) < 1e6, s, np.sign(s)) + noise, 1)


def _multiclass(rng, n, ties, k=3):
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = rng.dirichlet(np.ones(k), n)
    if ties:
        p = np.round(p, 1) + 1e-3  # ties, and no row of zeros
    return y, p / p.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Data:
    """How to make one kind of data: a dict of row-aligned arrays."""

    name: str
    make: Callable  #: (rng, n, ties) -> dict
    from_binary: Callable | None = None  #: (y, s) -> dict, from tests.strategies.binary_problems
    labels: tuple = ("y",)  #: arrays whose set of values a row removal must keep
    score: str = "s"  #: the array the bad-input table spoils
    binary: bool = True  #: a third class in y is an error

    def __call__(self, rng, n=60, ties=False):
        return self.make(rng, n, ties)


def _kind(name, from_binary, **kw):
    return Data(name, lambda rng, n, ties: from_binary(*_binary_rows(rng, n, ties)),
                from_binary, **kw)


BINARY = _kind("binary scores", lambda y, s: {"y": y, "s": s})
# Sums of score differences (the training losses): a score of 1e300 next to
# scores near 1 cancels them in any order of summation, the pair loop's too,
# so these problems keep the ties and map scores past 1e6 to +-1e3.
MODERATE = _kind("binary scores of moderate size",
                 lambda y, s: {"y": y, "s": np.where(np.abs(s) < 1e6, s, np.sign(s) * 1e3)})
PROBA = _kind("binary probabilities", lambda y, s: {"y": y, "p": _sigmoid(s)}, score="p")
UNLABELLED = _kind("probabilities without labels", lambda y, s: {"p": _sigmoid(s)}, labels=(),
                   score="p", binary=False)
PRED = _kind("binary predictions",
             lambda y, s: {"y": y, "pred": (s >= np.median(s)).astype(np.int64)},
             labels=("y", "pred"), score="pred")
TWO = _kind("two score columns", lambda y, s: {"y": y, "s": s, "s2": _second_model(y, s)})
CLUSTERED = _kind("two score columns in clusters",
                  lambda y, s: {"y": y, "s": s, "s2": _second_model(y, s),
                                "c": np.arange(len(y)) * 7 % 11})
GROUPED = _kind("probabilities in three groups",
                lambda y, s: {"y": y, "p": _sigmoid(s), "g": np.arange(len(y)) * 7 % 3},
                labels=("y", "g"), score="p")
def _times(n):
    """Four periods of time, and the middle row alone in a sixth (two periods
    later): a row that sets where the periods end."""
    t = (np.arange(n) * 7 % 4) + 0.5
    t[n // 2] = 5.5
    return t


TIMED = _kind("scores in four periods of time and one alone",
              lambda y, s: {"y": y, "s": s, "t": _times(len(y))})
#: the false positive rates cv_roc_curve is read at in the registry
CV_GRID = np.array([0.0, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0])
# cross-validated predictions: three folds, and units of four rows nested in them
FOLDS = _kind("scores in three folds with units",
              lambda y, s: {"y": y, "s": s, "fold": np.arange(len(y)) * 7 % 3,
                            "unit": (np.arange(len(y)) * 7 % 3) * 1000 + np.arange(len(y)) // 4},
              labels=("y", "fold"))


def _multiclass_data(rng, n, ties):
    y, p = _multiclass(rng, n, ties)
    return {"y": y, "P": p}


def _multiclass_pred(rng, n, ties):
    y, p = _multiclass(rng, n, ties)
    pred = np.argmax(p + 0.3 * rng.random(p.shape), axis=1)
    return {"y": y, "pred": pred}


def _multilabel(rng, n, ties, k=3):
    Y = rng.integers(0, 2, (n, k))
    Y[0], Y[1] = 0, 1  # every label has both classes
    S = rng.random((n, k)) + 0.5 * Y
    return {"Y": Y, "S": np.round(S, 1) if ties else S}


def _curve(rng, n, ties):
    x = np.sort(rng.random(n))
    if ties:
        x = np.round(x, 1)
    return {"x": x, "y": rng.random(n)}


MULTICLASS = Data("multiclass probabilities", _multiclass_data, score="P", binary=False)
MULTIPRED = Data("multiclass predictions", _multiclass_pred, labels=("y", "pred"),
                 score="pred", binary=False)
MULTILABEL = Data("multilabel scores", _multilabel, labels=(), score="S", binary=False)
CURVE = Data("points of a curve", _curve, labels=(), score="y", binary=False)

# ------------------------------------------------------------------ views


def _power_view(r):
    """naive.roc_power_two's dict as roc_power's registry view."""
    return {k: r[k] for k in ("v0", "va", "delta")}


def fields(*names):
    """A view: the named attributes of a result, as a dict."""
    return lambda r: {n: getattr(r, n) for n in names}


THRESHOLD_FIELDS = fastauc.ThresholdMetrics._FIELDS
GAINS_FIELDS = ("bin", "count", "positives", "rate", "cumulative_gain", "lift",
                "cumulative_lift", "base_rate")
GROUP_FIELDS = ("auc", "auc_low", "auc_high", "auc_se", "average_precision", "log_loss")


def _figure_lines(fig, axis=0):
    import matplotlib.pyplot as plt

    lines = [line.get_xydata() for line in fig.axes[axis].get_lines()]
    plt.close(fig)
    return lines


def _gains_figure(fig):
    import matplotlib.pyplot as plt

    out = {"curve": fig.axes[0].get_lines()[0].get_xydata(),
           "lift": np.array([p.get_height() for p in fig.axes[1].patches])}
    plt.close(fig)
    return out


# ------------------------------------------------------------------ references

def sk(fn, *args, **kwargs):
    """A scikit-learn reference, its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _repeat(d, w):
    """Rows repeated ``w`` times (frequency weights: ``w`` whole numbers)."""
    if w is None:
        return d
    assert np.all(w == np.round(w)), "this reference needs whole-number weights"
    idx = np.repeat(np.arange(len(w)), w.astype(np.int64))
    return {k: a[idx] for k, a in d.items()}


def _scipy_mwu(d, w):
    r = _repeat(d, w)
    y, s = r["y"], r["s"]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ss.mannwhitneyu(s[y == 1], s[y == 0], method="auto")
    return {"statistic": float(res.statistic), "pvalue": float(res.pvalue)}


def _naive_thresholds(d, w):
    m = naive.threshold_metrics(d["y"], d["s"], w)
    return {k: m[k] for k in THRESHOLD_FIELDS}


def _naive_partial(**kw):
    return lambda d, w: naive.partial_auc(d["y"], d["s"], sample_weight=w, **kw)


def _delong_unpaired_reference(d, w):
    """pROC's unpaired DeLong test (Welch-Satterthwaite t) of the two columns
    as two samples, from the naive variances and scipy's t."""
    (auc_a, auc_b), cov = naive.delong_covariance(d["y"], np.column_stack((d["s"], d["s2"])), w)
    n = float(len(d["y"]) if w is None else np.sum(w))
    va, vb = cov[0, 0], cov[1, 1]
    se = math.sqrt(va + vb)
    if se == 0:  # both separate perfectly: a difference with no variance (D = +-inf)
        df = math.inf
        t = 0.0 if auc_a == auc_b else math.copysign(math.inf, auc_a - auc_b)
    else:
        df = (va + vb) ** 2 / (va ** 2 / (n - 1) + vb ** 2 / (n - 1))
        t = (auc_a - auc_b) / se
    q = ss.t.ppf(0.975, df)
    return {"difference": auc_a - auc_b, "se": se, "statistic": t, "df": df,
            "pvalue": 2 * ss.t.sf(abs(t), df),  # (NaN bounds stay NaN: np, not max/min)
            "low": float(np.maximum(-1, auc_a - auc_b - q * se)),
            "high": float(np.minimum(1, auc_a - auc_b + q * se))}


def _omnibus_columns(d):
    return np.column_stack((d["s"], d["s2"], np.sin(d["s"])))


def _omnibus_reference(d, w):
    """DeLong et al.'s chi-square with other contrasts (each against the first)."""
    aucs, cov = naive.delong_covariance(d["y"], _omnibus_columns(d), w)
    L = np.array([[-1.0, 1.0, 0.0], [-1.0, 0.0, 1.0]])
    c = L @ aucs
    if np.isnan(cov).any():  # a class of one row: no DeLong variance
        return {"statistic": math.nan, "pvalue": math.nan, "aucs": aucs}
    M = L @ cov @ L.T  # singular when models tie exactly: the pseudo-inverse, its rank as df
    Mp = np.linalg.pinv(M)
    df = int(np.linalg.matrix_rank(M))
    if np.abs(c - M @ Mp @ c).max() > 1e-12:  # a difference no variance explains
        return {"statistic": math.inf, "pvalue": 0.0, "aucs": aucs}
    stat = float(c @ Mp @ c)
    return {"statistic": stat, "pvalue": ss.chi2.sf(stat, df) if df else 1.0, "aucs": aucs}


def _clustered_ci_reference(d, w):
    aucs, cov = naive.clustered_auc_variance(d["y"], d["s"], d["c"], w)
    return {"estimate": aucs[0], "se": math.sqrt(cov[0, 0]) if cov[0, 0] >= 0 else math.nan}


def _delong_ci(d, w):
    est, low, high, se = naive.delong_interval(d["y"], d["s"], w)
    return {"estimate": est, "low": low, "high": high, "se": se}


BOOT = {"n_resamples": 30, "random_state": 2024}


def _resampled_rows(d, w, score_keys, seed, n_resamples):
    """The rows of each bootstrap replicate, reconstructed from fastauc's own draws
    (the stream of ``random_state``: private, as in tests/test_inference.py)."""
    from .resamples import drawn_positions
    from fastauc._resample import _prepare
    from fastauc._validation import seed_from_random_state

    prep = _prepare(d["y"], [d[k] for k in score_keys], list(score_keys), w, "roc_auc", True)
    s = np.uint64(seed_from_random_state(seed))
    return [prep.models[0].lay.rows[drawn_positions(s, r, prep.strata)]
            for r in range(n_resamples)]


def _auc_or_nan(y, s, w):
    ww = np.ones(len(y)) if w is None else w
    if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
        return math.nan
    return sk(skm.roc_auc_score, y, s, sample_weight=w)


def _bootstrap_reference(d, w):
    """scikit-learn's AUC on every reconstructed resample; the percentile interval."""
    y, s = d["y"], d["s"]
    rows = _resampled_rows(d, w, ["s"], BOOT["random_state"], BOOT["n_resamples"])
    reps = np.array([_auc_or_nan(y[r], s[r], None if w is None else w[r]) for r in rows])
    ok = reps[~np.isnan(reps)]
    low, high = np.quantile(ok, [0.025, 0.975])
    return {"estimate": sk(skm.roc_auc_score, y, s, sample_weight=w), "low": low, "high": high,
            "se": ok.std(ddof=1), "replicates": reps}


def _bootstrap_metric_reference(metric, at=None):
    """The in-memory metric (fastauc.naive's operating point, scikit-learn's
    Brier score) on every reconstructed resample; the percentile interval."""
    def one(y, s, w):
        ww = np.ones(len(y)) if w is None else w
        if metric in ("brier", "ece"):  # a mean over rows: defined while any row weighs
            if ww.sum() == 0:
                return math.nan
        elif ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
            return math.nan
        if metric == "brier":
            return sk(skm.brier_score_loss, y, s, sample_weight=w)
        if metric == "ece":
            return _calibration_error(y, s, w, 15, "l1")
        return naive.operating_point(y, s, metric, at, w)[0]

    def ref(d, w):
        y, s = d["y"], d["p"]
        rows = _resampled_rows({"y": y, "s": s}, w, ["s"], BOOT["random_state"],
                               BOOT["n_resamples"])
        reps = np.array([one(y[r], s[r], None if w is None else w[r]) for r in rows])
        ok = reps[~np.isnan(reps)]
        low, high = np.quantile(ok, [0.025, 0.975])
        return {"estimate": one(y, s, w), "low": low, "high": high, "replicates": reps}
    return ref

COORDS_RET = ("threshold", "specificity", "sensitivity", "ppv", "npv", "youden", "lr_pos",
              "accuracy", "f1", "mcc")


def _coords_view(r):
    return {k: np.asarray(r[k]) for k in r}


def _naive_coords(x, input="threshold"):
    def ref(d, w):
        out = naive.coords(d["y"], d["s"], x, input=input, ret=COORDS_RET, sample_weight=w)
        return {k: np.asarray(v, float) for k, v in out.items()}
    return ref


def _coords_ci_reference(d, w):
    """fastauc.naive.coords on every reconstructed resample; R's type-7 quantiles."""
    y, s = d["y"], d["s"]
    ret = ("specificity", "sensitivity", "ppv")
    rows = _resampled_rows(d, w, ["s"], BOOT["random_state"], BOOT["n_resamples"])
    reps = []
    for r in rows:
        ww = None if w is None else w[r]
        wp = np.ones(len(r)) if ww is None else ww
        if wp[y[r] == 1].sum() == 0 or wp[y[r] == 0].sum() == 0:
            reps.append(np.full((2, 3), np.nan))
            continue
        out = naive.coords(y[r], s[r], [0.5, 0.8], input="specificity", ret=ret,
                           sample_weight=ww)
        reps.append(np.column_stack([out[k] for k in ret]))
    reps = np.array(reps)
    low, high = np.nanquantile(reps, [0.025, 0.975], axis=0)
    return {"low": low, "high": high, "replicates": reps}


def _wilson_coords(d, w):
    """scipy's Wilson interval of each proportion at thresholds 0, 0.5, 1."""
    y, s = d["y"], d["s"]
    ww = np.ones(len(y)) if w is None else w
    low, high = [], []
    for t in (0.0, 0.5, 1.0):
        tp = ww[(y == 1) & (s >= t)].sum()
        fp = ww[(y == 0) & (s >= t)].sum()
        P, N = ww[y == 1].sum(), ww[y == 0].sum()
        rows_l, rows_h = [], []
        for k, n in ((tp, P), (N - fp, N), (tp, tp + fp)):
            if n == 0:
                rows_l.append(np.nan)
                rows_h.append(np.nan)
                continue
            z = ss.norm.ppf(0.975)
            p = k / n
            c = (p + z * z / (2 * n)) / (1 + z * z / n)
            h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            rows_l.append(max(0.0, c - h))
            rows_h.append(min(1.0, c + h))
        low.append(rows_l)
        high.append(rows_h)
    return {"low": np.array(low), "high": np.array(high)}


def _poisson_bootstrap_reference(d, w):
    """scikit-learn's AUC with every row's weight times its Poisson count (from
    the definition in fastauc.naive); the percentile interval."""
    from fastauc._validation import seed_from_random_state

    y, s = d["y"], d["s"]
    seed = seed_from_random_state(BOOT["random_state"])
    reps = []
    for r in range(BOOT["n_resamples"]):
        c = naive.poisson_bootstrap_counts(seed, r, len(y)).astype(float)
        reps.append(_auc_or_nan(y, s, c if w is None else c * w))
    reps = np.array(reps)
    ok = reps[~np.isnan(reps)]
    low, high = np.quantile(ok, [0.025, 0.975])
    return {"estimate": sk(skm.roc_auc_score, y, s, sample_weight=w), "low": low, "high": high,
            "se": ok.std(ddof=1), "replicates": reps}


def _snap(x, tol=1e-12):
    """Differences at rounding level (|x| <= tol) set to zero."""
    return np.where(np.abs(x) <= tol, 0.0, x)


def _partial_or_nan(y, s, w, kw):
    ww = np.ones(len(y)) if w is None else w
    if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
        return math.nan
    return naive.partial_auc(y, s, sample_weight=w, **kw)


def _percentile(reps, estimate, **more):
    ok = reps[~np.isnan(reps)]
    low, high = np.quantile(ok, [0.025, 0.975])
    return {"estimate": estimate, "low": low, "high": high, "se": ok.std(ddof=1),
            "replicates": reps, **more}


BOOT_PARTIAL = {"fpr_range": (0.1, 0.5), "correct": True}


def _bootstrap_partial_reference(d, w):
    """pROC's partial AUC (fastauc.naive) on every reconstructed resample."""
    y, s = d["y"], d["s"]
    rows = _resampled_rows(d, w, ["s"], BOOT["random_state"], BOOT["n_resamples"])
    reps = np.array([_partial_or_nan(y[r], s[r], None if w is None else w[r], BOOT_PARTIAL)
                     for r in rows])
    return _percentile(reps, _partial_or_nan(y, s, w, BOOT_PARTIAL))


def _boot_clusters(n):
    """The clusters of the registry's clustered bootstrap: rows 3 by 3."""
    return np.arange(n) // 3


def _bootstrap_cluster_reference(d, w):
    """scikit-learn's AUC on every replicate's rows: each cluster repeated as
    often as the replicate drew it (fastauc's own draws over the clusters)."""
    from fastauc._kernels.resampling import _count_draws, draw_buffer
    from fastauc._validation import seed_from_random_state

    y, s = d["y"], d["s"]
    ids = _boot_clusters(len(y))
    n_clusters = int(ids[-1]) + 1 if len(ids) else 0
    seed = np.uint64(seed_from_random_state(BOOT["random_state"]))
    reps = []
    for r in range(BOOT["n_resamples"]):
        counts = np.zeros(n_clusters, np.int64)
        _count_draws(seed, r, np.array([0, n_clusters], np.int64), counts,
                     draw_buffer(n_clusters, 8))
        rows = np.repeat(np.arange(len(y)), counts[ids])
        reps.append(_auc_or_nan(y[rows], s[rows], None if w is None else w[rows]))
    return _percentile(np.array(reps), sk(skm.roc_auc_score, y, s, sample_weight=w))


def _unpaired_bootstrap_test_reference(d, w):
    """Set a (y, s) and set b (y, s2) resampled each on its own (b from the
    second seed), scikit-learn's AUC of each resample."""
    from .resamples import drawn_positions
    from fastauc._resample import _prepare, second_seed
    from fastauc._validation import seed_from_random_state

    y, s, s2 = d["y"], d["s"], d["s2"]
    seed = np.uint64(seed_from_random_state(BOOT["random_state"]))
    cols = []
    for sc, sd in ((s, seed), (s2, second_seed(seed))):
        prep = _prepare(y, [sc], ["s"], w, "roc_auc", True)
        col = []
        for r in range(BOOT["n_resamples"]):
            rows = prep.models[0].lay.rows[drawn_positions(sd, r, prep.strata)]
            col.append(_auc_or_nan(y[rows], sc[rows], None if w is None else w[rows]))
        cols.append(col)
    reps = np.array(cols).T
    diff = reps[:, 0] - reps[:, 1]
    diff = diff[~np.isnan(diff)]
    se = diff.std(ddof=1)
    a = sk(skm.roc_auc_score, y, s, sample_weight=w)
    b = sk(skm.roc_auc_score, y, s2, sample_weight=w)
    z = 0.0 if a == b and se == 0 else (a - b) / se  # bootstrap_test's rule for 0 / 0
    low, high = np.quantile(diff, [0.025, 0.975])
    return {"difference": a - b, "se": se, "statistic": z,
            "pvalue": min(1.0, 2.0 * ss.norm.sf(abs(z))), "low": low, "high": high,
            "replicates": reps}


def _bootstrap_test_reference(d, w):
    y, s, s2 = d["y"], d["s"], d["s2"]
    reps = []
    for r in _resampled_rows(d, w, ["s", "s2"], BOOT["random_state"], BOOT["n_resamples"]):
        wr = None if w is None else w[r]
        reps.append((_auc_or_nan(y[r], s[r], wr), _auc_or_nan(y[r], s2[r], wr)))
    reps = np.array(reps)
    # scikit-learn's trapezoids can leave a last-bit difference between two equal
    # AUCs (fastauc's are exact ratios of integers when unweighted): such a
    # difference is zero, or the statistic would be the ratio of two roundings
    diff = _snap(reps[:, 0] - reps[:, 1])
    diff = diff[~np.isnan(diff)]
    # likewise replicates that all differ by the same amount up to such last bits
    # have no spread (fastauc's equal ratios give exactly 0)
    se = diff.std(ddof=1) if np.ptp(diff) > 1e-12 else 0.0
    a = sk(skm.roc_auc_score, y, s, sample_weight=w)
    b = sk(skm.roc_auc_score, y, s2, sample_weight=w)
    a, b = (a, a) if _snap(a - b) == 0 else (a, b)
    z = (a - b) / se if se > 0 else (0.0 if a == b else math.copysign(math.inf, a - b))
    low, high = np.quantile(diff, [0.025, 0.975])
    return {"difference": a - b, "se": se, "statistic": z,
            "pvalue": min(1.0, 2.0 * ss.norm.sf(abs(z))), "low": low, "high": high,
            "replicates": reps}


def _band_reference(d, w, grid=np.linspace(0, 1, 11)):
    """Each replicate's ROC polyline (scikit-learn) at the grid; then the quantiles."""
    y, s = d["y"], d["s"]
    curves = []
    for r in _resampled_rows(d, w, ["s"], 5, 20):
        wr = None if w is None else w[r]
        fpr, tpr, _ = sk(skm.roc_curve, y[r], s[r], sample_weight=wr, drop_intermediate=False)
        curves.append([tpr[fpr <= g].max() if np.any(fpr == g) else np.interp(g, fpr, tpr)
                       for g in grid])
    low, high = np.quantile(np.array(curves), [0.05, 0.95], axis=0)
    return (grid, low, high)


def _report_reference(d, w):
    y, p = d["y"], d["p"]
    auc = sk(skm.roc_auc_score, y, p, sample_weight=w)
    _, low, high, se = naive.delong_interval(y, p, w)
    best = {m: naive.best_threshold(y, p, m, w) for m in ("f1", "mcc", "youden")}
    return {"auc": auc, "auc_low": low, "auc_high": high, "auc_se": se, "gini": 2 * auc - 1,
            "average_precision": sk(skm.average_precision_score, y, p, sample_weight=w),
            "log_loss": sk(skm.log_loss, y, p, sample_weight=w),
            "best": {m: {"threshold": t, "value": v} for m, (t, v) in best.items()},
            "lift": {k: naive.lift_at(y, p, k, w) for k in (0.01, 0.05, 0.1)}}


def _report_view(r):
    m = r.models[0]
    return {"auc": m.auc, "auc_low": m.auc_low, "auc_high": m.auc_high, "auc_se": m.auc_se,
            "gini": m.gini, "average_precision": m.average_precision, "log_loss": m.log_loss,
            "best": {k: {"threshold": b["threshold"], "value": b["value"]}
                     for k, b in m.best.items()},
            "lift": dict(m.lift)}


def _gains_curve_reference(d, w):
    _, tp, fp, total_pos, total_neg = naive.confusion_at_thresholds(d["y"], d["s"], w)
    curve = np.column_stack((np.concatenate(([0.0], (tp + fp) / (total_pos + total_neg))),
                             np.concatenate(([0.0], tp / total_pos))))
    return {"curve": curve, "lift": naive.gains_table(d["y"], d["s"], 10, w)["lift"]}


def _pr_line(d, w):
    precision, recall, _ = sk(skm.precision_recall_curve, d["y"], d["s"], sample_weight=w)
    return np.column_stack((recall, precision))


def _isotonic_reference(d, w):
    """scikit-learn's IsotonicRegression (ties pooled, weighted) at the distinct
    probabilities of positive weight."""
    from sklearn.isotonic import IsotonicRegression

    y, p = d["y"], d["p"]
    xs = np.unique(p if w is None else p[w > 0])
    if xs.shape[0] > 1 and np.diff(xs).min() < 1e-15:
        # scikit-learn pools values closer than float64's resolution (1e-15) as
        # ties: the min-max formula on the exact distinct values instead
        return dict(zip(("scores", "recalibrated"),
                        naive.pav(p, (y == 1).astype(np.float64), w)))
    fit = sk(IsotonicRegression().fit, p, (y == 1).astype(np.float64), sample_weight=w)
    return {"scores": xs, "recalibrated": fit.predict(xs)}


def _weighted_bins(d, w, n_bins=6):
    """scikit-learn's uniform bins (closed on the right, the first also at 0)
    with the rows' weights summed per bin; empty bins left out."""
    y, p = (d["y"] == 1).astype(np.float64), d["p"]
    w = np.ones(len(p)) if w is None else w
    ids = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p)
    total = np.bincount(ids, w, n_bins)
    kept = total > 0
    return {"prob_true": np.bincount(ids, w * y, n_bins)[kept] / total[kept],
            "prob_pred": np.bincount(ids, w * p, n_bins)[kept] / total[kept]}


def _corp_line(d, w):
    """The CORP diagram's polyline from naive.pav: each run of one fitted value
    as a flat segment from its lowest to its highest probability."""
    xs, fit = naive.pav(d["p"], d["y"] == 1, w)
    new = np.r_[True, ~np.isclose(fit[1:], fit[:-1], rtol=0, atol=1e-12)]
    start = np.flatnonzero(new)
    end = np.r_[start[1:], len(xs)] - 1
    return np.column_stack((np.column_stack((xs[start], xs[end])).ravel(),
                            np.repeat(fit[start], 2)))


def _det_line(d, w):
    from scipy.stats import norm

    fpr, fnr, _ = sk(skm.det_curve, d["y"], d["s"], sample_weight=w, drop_intermediate=True)
    return np.column_stack((norm.ppf(fpr), norm.ppf(fnr)))


def _over_time_view(r):
    return {"auc": r.auc, "var": r.se ** 2}


def _over_time_reference(d, w):
    out = naive.auc_over_time(d["y"], d["s"], d["t"], 1.0, 2, w)
    return {"auc": np.array([a for a, _ in out]), "var": np.array([b for _, b in out])}


def _subgroup_view(r):
    return {"subgroup": r.subgroup_auc, "subgroup_var": r.subgroup_se ** 2,
            "bpsn": r.bpsn_auc, "bpsn_var": r.bpsn_se ** 2,
            "bnsp": r.bnsp_auc, "bnsp_var": r.bnsp_se ** 2}


def _subgroup_reference(d, w):
    out = naive.subgroup_aucs(d["y"], d["p"], d["g"], w)
    cols = {}
    for j, name in enumerate(("subgroup", "bpsn", "bnsp")):
        cols[name] = np.array([row[1 + j][0] for row in out])
        cols[name + "_var"] = np.array([row[1 + j][1] for row in out])
    return cols


def _roc_line(d, w):
    """The ROC polyline from (0, 0) without the points inside straight runs:
    scikit-learn's drop_intermediate rule on the counts, (0, 0) included."""
    _, tp, fp, total_pos, total_neg = naive.confusion_at_thresholds(d["y"], d["s"], w)
    tp, fp = np.concatenate(([0.0], tp)), np.concatenate(([0.0], fp))
    keep = np.r_[True, (np.diff(tp, 2) != 0) | (np.diff(fp, 2) != 0), True][: len(tp)]
    return np.column_stack((fp / total_neg, tp / total_pos))[keep]


# ------------------------------------------------------------------ the entry

INVARIANCES = ("unit", "repeat", "zero", "scale", "shuffle")
ALL = None  # compare the whole result


def _identity(result):
    return result


@dataclass(frozen=True)
class Comparison:
    """fastauc against a reference, for one public function (with given options)."""

    name: str  #: unique id, e.g. "roc_auc_score[max_fpr]"
    function: str  #: the public name in ``fastauc.__all__``
    ours: Callable  #: (d, w, **bench_options) -> result
    reference: Callable | None  #: (d, w) -> comparable numbers; None: see ``reason``
    data: Data
    weights: bool  #: takes sample_weight (its invariances are then tested)
    view: Callable = _identity  #: result -> comparable numbers
    tol: float = 1e-12  #: |ours - reference| <= tol * max(1, |reference|)
    reason: str = ""  #: why the reference is None or the tolerance is looser
    goal: str | None = None  #: the benchmark goal (as in benchmarks/run_benchmarks.py)
    bench: dict | None = None  #: options for the benchmark call; None: not benchmarked
    bench_reference: bool = False  #: time the reference too (scikit-learn/scipy)
    bench_weighted: bool = False  #: time it with sample_weight too
    bench_n: int = 10**6  #: rows in the benchmark
    integer_weights: bool = False  #: the reference repeats rows: whole-number weights
    positive_weights: bool = False  #: the reference needs weights > 0 (resampling)
    #: invariance -> the keys of the view that must not change (ALL: all of it);
    #: an invariance missing here does not hold, and ``notes`` says why
    invariances: dict = field(default_factory=lambda: dict.fromkeys(INVARIANCES, ALL))
    notes: str = ""
    slow: bool = False  #: a figure or a full report: fewer hypothesis examples
    #: the bad-input table's words where this function's error differs from the generic
    #: one (tests/test_bad_input.py); None: the input is accepted, as scikit-learn does
    bad_words: dict = field(default_factory=dict)

    def __call__(self, d, w=None, **kw):
        return self.view(self.ours(d, w, **kw))

    def __repr__(self):
        return self.name


def _terms(result):
    """``(value, gradient, hessian)`` as a dict."""
    return dict(zip(("value", "gradient", "hessian"), result))


def _scale_only(*keys):
    """Invariances: all hold; scaling the weights keeps only ``keys`` (frequency weights)."""
    inv = dict.fromkeys(INVARIANCES, ALL)
    if keys:
        inv["scale"] = keys
    else:  # nothing survives: the invariance does not hold
        del inv["scale"]
    return inv


# ------------------------------------------------------------------ speed goals

@dataclass(frozen=True)
class Goal:
    """A speed or memory goal that ``benchmarks/run_benchmarks.py`` checks.

    ``kind`` says what is measured: ``"faster"`` the peer's time over
    fastauc's, ``"ratio"`` fastauc's time (or bytes) over the yardstick's,
    ``"seconds"`` fastauc's time.  ``faster`` goals are lower bounds, the
    others upper bounds.
    """

    kind: str
    bound: float
    issue: int
    what: str = ""  #: for ratios: what the yardstick is ("one AUC", "np.sort")

    def measure(self, t_ours: float, t_peer: float) -> float:
        if self.kind == "faster":
            return t_peer / t_ours
        if self.kind == "ratio":
            return t_ours / t_peer
        return t_ours

    def met(self, x: float) -> bool:
        return x >= self.bound if self.kind == "faster" else x <= self.bound

    def describe(self, x: float) -> str:
        if self.kind == "faster":  # two decimals near a bound such as 1.7x
            return f"{x:,.{2 if x < 10 else 1}f}x faster (goal >= {self.bound:g}x)"
        if self.kind == "ratio":
            return f"{x:.2f}x {self.what} (goal <= {self.bound:g}x)"
        return f"{x:.2f} s (goal <= {self.bound:g} s)"


def _g(kind, bound, issue, what=""):
    return Goal(kind, bound, issue, what)


#: every goal the benchmark table reports, by row; the issue that set it last
GOALS = {
    # issue 1/8: the drop-in's first table (n = 1e7) and per-call speed (n = 1e3)
    "roc_auc_score": _g("faster", 10, 1),
    "roc_auc_score with sample_weight": _g("faster", 10, 1),
    "roc_curve": _g("faster", 10, 1),
    "average_precision_score": _g("faster", 10, 1),
    "precision_recall_curve": _g("faster", 10, 1),
    "log_loss": _g("faster", 10, 1),
    "per call": _g("faster", 10, 8),
    "naive": _g("faster", 1000, 1),
    # issue 3: inference
    "mann_whitney_u": _g("faster", 10, 3),
    "roc_auc_ci": _g("ratio", 2, 3, "the AUC alone"),
    "bootstrap_ci": _g("faster", 100, 3),
    # issue 4: thresholds and reports
    "threshold_metrics": _g("ratio", 1.5, 4, "roc_curve"),
    "best_threshold": _g("ratio", 1.5, 4, "roc_curve"),
    "report": _g("seconds", 3.0, 4),
    # issue 9: per group
    "by_group": _g("ratio", 2, 9, "one AUC"),
    "by_group polars-ds": _g("faster", 10, 9),
    "by_group pandas": _g("faster", 100, 9),
    # issue 11: batches and merges
    "accumulator batches": _g("ratio", 2, 11, "one AUC"),
    "accumulator merge": _g("ratio", 0.5, 11, "one AUC"),
    # issue 21: full speed on every host (n = 1e7 unless the row says otherwise)
    "auc vs np.sort": _g("ratio", 1.5, 21, "one np.sort of the scores"),
    "auc vs sklearn": _g("faster", 40, 21),
    "curve vs sklearn": _g("faster", 20, 21),
    "auc per n": _g("faster", 20, 21),
    "report two models": _g("ratio", 3, 21, "two AUC calls"),
    "bootstrap 1000": _g("faster", 300, 21),
    "bootstrap setup": _g("ratio", 2, 21, "one AUC"),
    "ovr": _g("faster", 15, 21),
    "ovo": _g("faster", 10, 21),
    "cold auc": _g("seconds", 1.0, 21),
    "cold bootstrap": _g("seconds", 3.0, 21),
    "memory roc_auc_ci": _g("ratio", 2, 21, "the input's bytes beyond the input"),
    "memory roc_curve": _g("ratio", 2, 21, "the input's bytes beyond input and output"),
    "memory bootstrap": _g("ratio", 3, 21, "the input's bytes"),
    "time bootstrap 1e8": _g("ratio", 2, 21, "one AUC"),
    "delong_test": _g("ratio", 2, 21, "two AUC calls"),
    "threads": _g("faster", 1.7, 21),
    # issue 22: training for AUC
    "pairwise gradient": _g("ratio", 2, 22, "one AUC"),
    "pairwise gradient groups": _g("ratio", 2, 22, "one AUC"),
    "pairwise naive": _g("faster", 10_000, 22),
    "lightgbm objective": _g("ratio", 1.5, 22, "the built-in objective"),
    "xgboost objective": _g("ratio", 1.5, 22, "the built-in objective"),
    "linear classifier": _g("ratio", 3, 22, "LogisticRegression(solver='lbfgs')"),
}



def _calibration_error(y, p, w, n_bins, norm):
    """torchmetrics' binary calibration error from its definition, row by row
    (``torch.bucketize(p, edges, right=True) - 1`` as ``np.digitize``), with
    sample weights; tests/test_calibration.py compares with torchmetrics."""
    w = np.ones(len(p)) if w is None else np.asarray(w, np.float64)
    p = np.asarray(p, np.float64)
    i = np.arange(n_bins + 1)
    step = 1.0 / n_bins
    edges = np.where(i < (n_bins + 1) // 2, step * i, 1.0 - step * (n_bins - i))
    b = np.digitize(p, edges, right=False) - 1
    count = np.bincount(b, weights=w, minlength=n_bins + 1)
    conf = np.bincount(b, weights=w * p, minlength=n_bins + 1)
    acc = np.bincount(b, weights=w * (np.asarray(y) == 1), minlength=n_bins + 1)
    with np.errstate(invalid="ignore"):
        gap = np.nan_to_num(np.abs(acc / count - conf / count))
    prop = count / count.sum()
    if norm == "l1":
        return float(gap @ prop)
    if norm == "max":
        return float(gap.max())
    return float(np.sqrt(gap**2 @ prop))


SK_GOAL = ">= 10x scikit-learn"
MULTICLASS_PRED_WORDS = {"third class": ("multiclass", "average='binary'")}
f = fastauc
C = Comparison

REGISTRY = [
    # ---------------------------------------------------------------- ranking
    C("roc_auc_score", "roc_auc_score",
      lambda d, w: f.roc_auc_score(d["y"], d["s"], sample_weight=w),
      lambda d, w: sk(skm.roc_auc_score, d["y"], d["s"], sample_weight=w),
      BINARY, True, goal=SK_GOAL + " (also with sample_weight)", bench={},
      bench_reference=True, bench_weighted=True,
      bad_words={"third class": ("multi_class", "3 classes")}),
    C("roc_auc_score[max_fpr]", "roc_auc_score",
      lambda d, w: f.roc_auc_score(d["y"], d["s"], sample_weight=w, max_fpr=0.4),
      lambda d, w: sk(skm.roc_auc_score, d["y"], d["s"], sample_weight=w, max_fpr=0.4),
      BINARY, True),
    C("roc_auc_score[ovr]", "roc_auc_score",
      lambda d, w: f.roc_auc_score(d["y"], d["P"], sample_weight=w, multi_class="ovr",
                                   average=None),
      lambda d, w: sk(skm.roc_auc_score, d["y"], d["P"], sample_weight=w, multi_class="ovr",
                      average=None),
      MULTICLASS, True),
    C("roc_auc_score[ovo]", "roc_auc_score",
      lambda d, w: f.roc_auc_score(d["y"], d["P"], multi_class="ovo"),
      lambda d, w: sk(skm.roc_auc_score, d["y"], d["P"], multi_class="ovo"),
      MULTICLASS, False, reason="scikit-learn's ovo takes no sample_weight"),
    C("roc_auc_score[multilabel]", "roc_auc_score",
      lambda d, w: f.roc_auc_score(d["Y"], d["S"], sample_weight=w, average=None),
      lambda d, w: sk(skm.roc_auc_score, d["Y"], d["S"], sample_weight=w, average=None),
      MULTILABEL, True),
    C("average_precision_score", "average_precision_score",
      lambda d, w: f.average_precision_score(d["y"], d["s"], sample_weight=w),
      lambda d, w: sk(skm.average_precision_score, d["y"], d["s"], sample_weight=w),
      BINARY, True, goal=SK_GOAL, bench={},
      bad_words={"third class": ("y_score", "multiple classes")}),
    C("average_precision_score[multiclass]", "average_precision_score",
      lambda d, w: f.average_precision_score(d["y"], d["P"], sample_weight=w, average=None),
      lambda d, w: sk(skm.average_precision_score, d["y"], d["P"], sample_weight=w,
                      average=None),
      MULTICLASS, True),
    C("roc_curve", "roc_curve",
      lambda d, w: f.roc_curve(d["y"], d["s"], sample_weight=w),
      lambda d, w: sk(skm.roc_curve, d["y"], d["s"], sample_weight=w),
      BINARY, True, goal=SK_GOAL, bench={}, bench_reference=True),
    C("roc_curve[all thresholds]", "roc_curve",
      lambda d, w: f.roc_curve(d["y"], d["s"], sample_weight=w, drop_intermediate=False),
      lambda d, w: sk(skm.roc_curve, d["y"], d["s"], sample_weight=w, drop_intermediate=False),
      BINARY, True),
    C("precision_recall_curve", "precision_recall_curve",
      lambda d, w: f.precision_recall_curve(d["y"], d["s"], sample_weight=w),
      lambda d, w: sk(skm.precision_recall_curve, d["y"], d["s"], sample_weight=w),
      BINARY, True, goal=SK_GOAL, bench={}),
    C("det_curve", "det_curve",
      lambda d, w: f.det_curve(d["y"], d["s"], sample_weight=w),
      lambda d, w: sk(skm.det_curve, d["y"], d["s"], sample_weight=w),
      BINARY, True),
    C("auc", "auc", lambda d, w: f.auc(d["x"], d["y"]),
      lambda d, w: sk(skm.auc, d["x"], d["y"]), CURVE, False,
      bad_words={"nan score": None, "inf score": None,  # the area is NaN/inf, as sklearn's
                 "empty": ("At least 2 points",)}),
    C("log_loss", "log_loss",
      lambda d, w: f.log_loss(d["y"], d["p"], sample_weight=w),
      lambda d, w: sk(skm.log_loss, d["y"], d["p"], sample_weight=w),
      PROBA, True, goal=SK_GOAL, bench={},
      bad_words={"third class": ("different number of classes", "3 vs 2")}),
    C("log_loss[multiclass]", "log_loss",
      lambda d, w: f.log_loss(d["y"], d["P"], sample_weight=w),
      lambda d, w: sk(skm.log_loss, d["y"], d["P"], sample_weight=w),
      MULTICLASS, True),
    # ---------------------------------------------------------------- calibration
    C("brier_score_loss", "brier_score_loss",
      lambda d, w: f.brier_score_loss(d["y"], d["p"], sample_weight=w),
      lambda d, w: sk(skm.brier_score_loss, d["y"], d["p"], sample_weight=w),
      PROBA, True, bench={}, bench_reference=True,
      bad_words={"third class": ("inferred from y_true is multiclass", "binary")}),
    C("brier_score_loss[multiclass]", "brier_score_loss",
      lambda d, w: f.brier_score_loss(d["y"], d["P"], sample_weight=w),
      lambda d, w: sk(skm.brier_score_loss, d["y"], d["P"], sample_weight=w),
      MULTICLASS, True),
    C("d2_brier_score", "d2_brier_score",
      lambda d, w: f.d2_brier_score(d["y"], d["p"], sample_weight=w),
      lambda d, w: sk(skm.d2_brier_score, d["y"], d["p"], sample_weight=w),
      PROBA, True,
      bad_words={"third class": ("inferred from y_true is multiclass", "binary"),
                 "empty": None}),  # NaN and a warning below two rows, as scikit-learn
    C("d2_brier_score[multiclass]", "d2_brier_score",
      lambda d, w: f.d2_brier_score(d["y"], d["P"], sample_weight=w),
      lambda d, w: sk(skm.d2_brier_score, d["y"], d["P"], sample_weight=w),
      MULTICLASS, True),
    C("d2_log_loss_score", "d2_log_loss_score",
      lambda d, w: f.d2_log_loss_score(d["y"], d["p"], sample_weight=w),
      lambda d, w: sk(skm.d2_log_loss_score, d["y"], d["p"], sample_weight=w),
      PROBA, True,
      bad_words={"third class": ("different number of classes", "3 vs 2"),
                 "empty": None}),  # NaN and a warning below two rows, as scikit-learn
    C("d2_log_loss_score[multiclass]", "d2_log_loss_score",
      lambda d, w: f.d2_log_loss_score(d["y"], d["P"], sample_weight=w),
      lambda d, w: sk(skm.d2_log_loss_score, d["y"], d["P"], sample_weight=w),
      MULTICLASS, True),
    *[C(f"calibration_curve[{strategy}]", "calibration_curve",
        lambda d, w, strategy=strategy: f.calibration_curve(d["y"], d["p"], n_bins=7,
                                                            strategy=strategy),
        lambda d, w, strategy=strategy: sk(calibration.calibration_curve, d["y"], d["p"],
                                           n_bins=7, strategy=strategy),
        PROBA, False, reason="scikit-learn's calibration_curve takes no sample_weight",
        bad_words={"third class": ("pos_label is not specified",)})
      for strategy in ("uniform", "quantile")],
    *[C(f"calibration_error[{norm}]", "calibration_error",
        lambda d, w, norm=norm: f.calibration_error(d["y"], d["p"], n_bins=10, norm=norm,
                                                    sample_weight=w),
        lambda d, w, norm=norm: _calibration_error(d["y"], d["p"], w, 10, norm),
        PROBA, True, bad_words={"third class": ("3 classes", "binary")})
      for norm in ("l1", "l2", "max")],
    C("expected_roc_auc", "expected_roc_auc",
      lambda d, w: f.expected_roc_auc(d["p"], sample_weight=w),
      lambda d, w: naive.expected_roc_auc(d["p"], w), UNLABELLED, True,
      view=lambda r: (r.roc_auc, r.average_precision),
      reason="each distinct probability's weights as p T and (1 - p) T against sums of "
             "w p row by row"),
    C("reliability_curve", "reliability_curve",
      lambda d, w: f.reliability_curve(d["y"], d["p"], sample_weight=w),
      _isotonic_reference, PROBA, True, view=fields("scores", "recalibrated"),
      goal="<= 1.5x fastauc.roc_auc_score", bench={},
      bad_words={"third class": ("inferred from y_true is multiclass", "binary")}),
    *[C(f"reliability_curve[{strategy}]", "reliability_curve",
        lambda d, w, strategy=strategy: f.reliability_curve(d["y"], d["p"], method=strategy,
                                                            n_bins=7),
        lambda d, w, strategy=strategy: sk(calibration.calibration_curve, d["y"], d["p"],
                                           n_bins=7, strategy=strategy),
        PROBA, False, view=lambda r: (r.prob_true, r.prob_pred),
        reason="scikit-learn's calibration_curve takes no sample_weight")
      for strategy in ("uniform", "quantile")],
    C("reliability_curve[uniform, weighted]", "reliability_curve",
      lambda d, w: f.reliability_curve(d["y"], d["p"], method="uniform", n_bins=6,
                                       sample_weight=w),
      _weighted_bins, PROBA, True, view=fields("prob_true", "prob_pred")),
    C("brier_decomposition", "brier_decomposition",
      lambda d, w: f.brier_decomposition(d["y"], d["p"], sample_weight=w),
      lambda d, w: naive.brier_decomposition(d["y"], d["p"], w), PROBA, True,
      view=fields("brier", "miscalibration", "discrimination", "uncertainty"),
      goal="<= 1.5x fastauc.roc_auc_score", bench={},
      bad_words={"third class": ("inferred from y_true is multiclass", "binary")}),
    # ---------------------------------------------------------------- training losses
    *[C(f"pairwise_loss[{loss}]", "pairwise_loss",
        lambda d, w, loss=loss: f.pairwise_loss(d["y"], d["s"], loss=loss, sample_weight=w),
        lambda d, w, loss=loss: naive.pairwise_loss(d["y"], d["s"], loss=loss,
                                                    sample_weight=w)[0],
        MODERATE, True, tol=1e-10, reason="sums in another order than the pair loop",
        bench={} if loss == "squared_hinge" else None)
      for loss in ("squared_hinge", "hinge", "square", "aum")],
    C("pairwise_loss[article]", "pairwise_loss",
      lambda d, w: f.pairwise_loss(d["y"], d["p"], loss="linear", normalize="all_pairs",
                                   sample_weight=w),
      lambda d, w: naive.article_loss(d["y"], d["p"], w), PROBA, True, tol=1e-10,
      reason="sums in another order than the outer products"),
    C("pairwise_loss[groups]", "pairwise_loss",
      lambda d, w: f.pairwise_loss(d["y"], d["p"], loss="squared_hinge", margin=0.5,
                                   groups=d["g"], sample_weight=w),
      lambda d, w: naive.pairwise_loss(d["y"], d["p"], loss="squared_hinge", margin=0.5,
                                       groups=d["g"], sample_weight=w)[0],
      GROUPED, True, tol=1e-10, reason="sums in another order than the pair loop"),
    *[C(f"pairwise_loss_gradient[{loss}]", "pairwise_loss_gradient",
        lambda d, w, loss=loss: f.pairwise_loss_gradient(d["y"], d["s"], loss=loss,
                                                         sample_weight=w, hessian=True),
        lambda d, w, loss=loss: _terms(naive.pairwise_loss(d["y"], d["s"], loss=loss,
                                                           sample_weight=w)),
        MODERATE, True, view=_terms, tol=1e-10,
        reason="sums in another order than the pair loop",
        invariances={"unit": ALL, "scale": ALL, "repeat": ("value",), "zero": ("value",),
                     "shuffle": ("value",)},
        notes="the gradient and the Hessian have a row per row: only the value survives "
              "repeating, removing or shuffling rows")
      for loss in ("squared_hinge", "hinge", "square", "linear", "aum")],
    # ---------------------------------------------------------------- classification
    C("f1_score", "f1_score",
      lambda d, w: f.f1_score(d["y"], d["pred"], sample_weight=w, zero_division=0),
      lambda d, w: sk(skm.f1_score, d["y"], d["pred"], sample_weight=w, zero_division=0),
      PRED, True, goal=">= 10x scikit-learn per call at n = 1e3", bench={}, bench_n=1000,
      bench_reference=True,
      bad_words=MULTICLASS_PRED_WORDS),
    C("fbeta_score", "fbeta_score",
      lambda d, w: f.fbeta_score(d["y"], d["pred"], beta=2.0, sample_weight=w,
                                 zero_division=0),
      lambda d, w: sk(skm.fbeta_score, d["y"], d["pred"], beta=2.0, sample_weight=w,
                      zero_division=0),
      PRED, True,
      bad_words=MULTICLASS_PRED_WORDS),
    C("precision_score", "precision_score",
      lambda d, w: f.precision_score(d["y"], d["pred"], sample_weight=w, zero_division=0),
      lambda d, w: sk(skm.precision_score, d["y"], d["pred"], sample_weight=w,
                      zero_division=0),
      PRED, True,
      bad_words=MULTICLASS_PRED_WORDS),
    C("recall_score", "recall_score",
      lambda d, w: f.recall_score(d["y"], d["pred"], sample_weight=w, zero_division=0),
      lambda d, w: sk(skm.recall_score, d["y"], d["pred"], sample_weight=w, zero_division=0),
      PRED, True,
      bad_words=MULTICLASS_PRED_WORDS),
    C("precision_recall_fscore_support", "precision_recall_fscore_support",
      lambda d, w: f.precision_recall_fscore_support(d["y"], d["pred"], sample_weight=w,
                                                     zero_division=0),
      lambda d, w: tuple(sk(skm.precision_recall_fscore_support, d["y"], d["pred"],
                            sample_weight=w, zero_division=0)),
      MULTIPRED, True, view=lambda r: tuple(r),
      invariances={**dict.fromkeys(INVARIANCES, ALL), "scale": (0, 1, 2)},
      notes="support is the weighted count of each label: it scales with the weights"),
    C("f1_score[macro]", "f1_score",
      lambda d, w: f.f1_score(d["y"], d["pred"], average="macro", sample_weight=w,
                              zero_division=0),
      lambda d, w: sk(skm.f1_score, d["y"], d["pred"], average="macro", sample_weight=w,
                      zero_division=0),
      MULTIPRED, True),
    C("class_likelihood_ratios", "class_likelihood_ratios",
      lambda d, w: f.class_likelihood_ratios(d["y"], d["pred"], sample_weight=w),
      lambda d, w: sk(skm.class_likelihood_ratios, d["y"], d["pred"], sample_weight=w),
      PRED, True, bad_words={"third class": ("multiclass", "binary")},
      notes="tests/test_threshold_dropins.py: label encodings, replace_undefined_by, warnings"),
    # ---------------------------------------------------------------- thresholds
    C("threshold_metrics", "threshold_metrics",
      lambda d, w: f.threshold_metrics(d["y"], d["s"], sample_weight=w),
      _naive_thresholds, BINARY, True, view=fields(*THRESHOLD_FIELDS),
      invariances={**dict.fromkeys(INVARIANCES, ALL), "scale": tuple(
          k for k in THRESHOLD_FIELDS if k not in ("tp", "fp", "tn", "fn"))},
      notes="tp, fp, tn, fn are weighted counts: they scale with the weights",
      goal="<= 1.5x fastauc.roc_curve", bench={}),
    C("best_threshold", "best_threshold",
      lambda d, w: f.best_threshold(d["y"], d["s"], sample_weight=w),
      lambda d, w: naive.best_threshold(d["y"], d["s"], "f1", w),
      BINARY, True, view=lambda r: (r.threshold, r.value),
      goal="<= 1.5x fastauc.roc_curve", bench={}),
    C("best_threshold[mcc]", "best_threshold",
      lambda d, w: f.best_threshold(d["y"], d["s"], metric="mcc", sample_weight=w),
      lambda d, w: naive.best_threshold(d["y"], d["s"], "mcc", w),
      BINARY, True, view=lambda r: (r.threshold, r.value)),
    C("best_threshold[cost]", "best_threshold",
      lambda d, w: f.best_threshold(d["y"], d["s"], metric="cost", cost_fp=1.0, cost_fn=5.0,
                                    sample_weight=w),
      lambda d, w: naive.best_threshold(d["y"], d["s"], "cost", w, cost_fp=1.0, cost_fn=5.0),
      BINARY, True, view=lambda r: (r.threshold, r.value),
      invariances={**dict.fromkeys(INVARIANCES, ALL), "scale": (0,)},
      notes="the cost is a weighted count: it scales (the threshold does not)"),
    *[C(name, name,
        lambda d, w, name=name, m=m: getattr(f, name)(d["y"], d["p"], m, sample_weight=w),
        lambda d, w, name=name, m=m: naive.operating_point(d["y"], d["p"], name, m, w),
        PROBA, True, view=lambda r: (r.value, r.threshold),
        notes="torchmetrics' rule; tests/test_operating_points.py compares with torchmetrics")
      for name, m in (("sensitivity_at_specificity", 0.8), ("specificity_at_sensitivity", 0.7),
                      ("precision_at_recall", 0.6), ("recall_at_precision", 0.55))],
    C("confusion_matrix_at_thresholds", "confusion_matrix_at_thresholds",
      lambda d, w: f.confusion_matrix_at_thresholds(d["y"], d["s"], sample_weight=w),
      lambda d, w: sk(skm.confusion_matrix_at_thresholds, d["y"], d["s"], sample_weight=w),
      BINARY, True, view=lambda r: tuple(r),
      invariances={**dict.fromkeys(INVARIANCES, ALL), "scale": (4,)},
      notes="the counts are weighted: they scale with the weights (the thresholds do not)"),
    C("metric_at_thresholds", "metric_at_thresholds",
      lambda d, w: f.metric_at_thresholds(d["y"], d["s"], f.f1_score, sample_weight=w,
                                          metric_params={"zero_division": 0}),
      lambda d, w: sk(skm.metric_at_thresholds, d["y"], d["s"], skm.f1_score, sample_weight=w,
                      metric_params={"zero_division": 0}),
      BINARY, True, view=lambda r: tuple(r),
      bad_words={**MULTICLASS_PRED_WORDS, "negative weight": None},
      notes="one sweep for the metrics it knows (tests/test_threshold_dropins.py has each); "
            "negative weights go to the metric, as in scikit-learn"),
    C("coords", "coords",
      lambda d, w: f.coords(d["y"], d["s"], ret=COORDS_RET, sample_weight=w),
      _naive_coords("all"), BINARY, True, view=_coords_view,
      notes="pROC's values: tests/test_coords.py compares with pROC's own test tables"),
    C("coords[specificity]", "coords",
      lambda d, w: f.coords(d["y"], d["s"], [0.3, 0.8, 0.95], input="specificity",
                            ret=COORDS_RET, sample_weight=w),
      _naive_coords([0.3, 0.8, 0.95], "specificity"), BINARY, True, view=_coords_view,
      tol=1e-10, reason="interpolated: the same formula, rounding differs at 1e-16"),
    C("coords[best]", "coords",
      lambda d, w: f.coords(d["y"], d["s"], "best", ret=COORDS_RET, sample_weight=w),
      _naive_coords("best"), BINARY, True, view=_coords_view),
    C("coords_ci[wilson]", "coords_ci",
      lambda d, w: f.coords_ci(d["y"], d["s"], [0.0, 0.5, 1.0], method="wilson",
                               ret=["sensitivity", "specificity", "ppv"], sample_weight=w),
      lambda d, w: _wilson_coords(d, w), BINARY, True,
      view=lambda r: {"low": np.column_stack([r.low[k] for k in r.low]),
                      "high": np.column_stack([r.high[k] for k in r.high])},
      invariances={"unit": ALL, "repeat": ALL, "zero": ALL, "shuffle": ALL},
      notes="weights are frequencies: the trials are the weighted totals, so scaling the "
            "weights changes the intervals"),
    C("coords_ci", "coords_ci",
      lambda d, w, **kw: f.coords_ci(d["y"], d["s"], [0.5, 0.8], input="specificity",
                                     ret=["specificity", "sensitivity", "ppv"], sample_weight=w,
                                     **{**BOOT, **kw}),
      _coords_ci_reference, BINARY, True,
      view=lambda r: {"low": np.column_stack([r.low[k] for k in r.low]),
                      "high": np.column_stack([r.high[k] for k in r.high]),
                      "replicates": r.replicates},
      invariances={"unit": ALL, "scale": ALL},
      notes="a replicate draws rows, not weight (as bootstrap_ci): only unit and scaled "
            "weights keep the replicates", slow=True),
    C("gini", "gini", lambda d, w: f.gini(d["y"], d["s"], sample_weight=w),
      lambda d, w: 2.0 * sk(skm.roc_auc_score, d["y"], d["s"], sample_weight=w) - 1.0,
      BINARY, True, bad_words={"third class": ("multi_class", "3 classes")}),
    C("lift_at", "lift_at", lambda d, w: f.lift_at(d["y"], d["s"], 0.1, sample_weight=w),
      lambda d, w: naive.lift_at(d["y"], d["s"], 0.1, w), BINARY, True),
    C("gains_table", "gains_table",
      lambda d, w: f.gains_table(d["y"], d["s"], n_bins=4, sample_weight=w),
      lambda d, w: naive.gains_table(d["y"], d["s"], 4, w), BINARY, True,
      view=fields(*GAINS_FIELDS),
      invariances={**dict.fromkeys(INVARIANCES, ALL), "scale": (
          "bin", "rate", "cumulative_gain", "lift", "cumulative_lift", "base_rate")},
      notes="count and positives are weighted counts: they scale with the weights"),
    C("roc_convex_hull", "roc_convex_hull",
      lambda d, w: f.roc_convex_hull(d["y"], d["s"], sample_weight=w),
      lambda d, w: naive.roc_convex_hull(d["y"], d["s"], w), BINARY, True,
      view=fields("fpr", "tpr", "thresholds", "auc")),
    C("partial_auc[fpr]", "partial_auc",
      lambda d, w: f.partial_auc(d["y"], d["s"], fpr_range=(0.05, 0.3), sample_weight=w),
      _naive_partial(fpr_range=(0.05, 0.3)), BINARY, True),
    C("partial_auc[tpr, corrected]", "partial_auc",
      lambda d, w: f.partial_auc(d["y"], d["s"], tpr_range=(0.8, 1.0), correct=True,
                                 sample_weight=w),
      _naive_partial(tpr_range=(0.8, 1.0), correct=True), BINARY, True),
    C("partial_auc[mcclish]", "partial_auc",
      lambda d, w: f.partial_auc(d["y"], d["s"], fpr_range=(0, 0.3), correct=True,
                                 sample_weight=w),
      lambda d, w: sk(skm.roc_auc_score, d["y"], d["s"], sample_weight=w, max_fpr=0.3),
      BINARY, True),
    # ---------------------------------------------------------------- inference
    C("mann_whitney_u", "mann_whitney_u",
      lambda d, w: f.mann_whitney_u(d["y"], d["s"], sample_weight=w),
      _scipy_mwu, BINARY, True, view=fields("statistic", "pvalue"), tol=1e-10,
      reason="p-values: scipy's normal tail (special.ndtr) and exact distribution against "
             "fastauc's erfc and its own recursion agree to ~1e-12, not to the last bit",
      integer_weights=True, invariances=_scale_only(),
      notes="frequency weights: scaling them changes the sample size, so U and the p-value "
            "(only the repeated-rows invariance defines them)",
      goal=">= 10x scipy.stats.mannwhitneyu", bench={}, bench_reference=True),
    C("mann_whitney_u[auc]", "mann_whitney_u",
      lambda d, w: f.mann_whitney_u(d["y"], d["s"], sample_weight=w, method="asymptotic"),
      lambda d, w: naive.pairwise_auc(d["y"], d["s"], w), BINARY, True,
      view=lambda r: r.auc, reason="U / (n_pos n_neg) is the AUC for any weights (the "
      "asymptotic method: the exact one needs whole-number class totals)"),
    C("venkatraman_test", "venkatraman_test",
      lambda d, w: f.venkatraman_test(d["y"], d["s"], d["s2"], n_permutations=20,
                                      random_state=0),
      lambda d, w: naive.venkatraman_statistic(d["y"], d["s"], d["s2"]), TWO, False,
      view=lambda r: r.statistic),
    C("venkatraman_test[unpaired]", "venkatraman_test",
      lambda d, w: f.venkatraman_test(d["y"], d["s"], d["s2"][::-1], y_true_b=d["y"][::-1],
                                      n_permutations=20, random_state=0),
      lambda d, w: naive.venkatraman_statistic(d["y"], d["s"], d["s2"][::-1],
                                               y_true_b=d["y"][::-1]),
      TWO, False, view=lambda r: r.statistic, tol=1e-10,
      reason="the trapezoid sums run in another order than the reference's: 1e-16 each"),
    C("roc_power", "roc_power",
      lambda d, w: f.roc_power(d["y"], d["s"], d["s2"]),
      lambda d, w: _power_view(naive.roc_power_two(d["y"], d["s"], d["s2"])), TWO, False,
      view=fields("v0", "va", "delta"),
      reason="the variances and the difference that the closed form takes (its algebra is "
             "tests/test_power.py's): power itself divides by VA = v1 + v2 - 2 c, which "
             "cancels to rounding noise on tie-heavy data"),
    C("roc_power[obuchowski]", "roc_power",
      lambda d, w: f.roc_power(d["y"], d["s"], d["s2"], power=0.9, method="obuchowski"),
      lambda d, w: _power_view(naive.roc_power_two(d["y"], d["s"], d["s2"], power=0.9,
                                                   method="obuchowski")), TWO, False,
      view=fields("v0", "va", "delta"), tol=1e-10,
      reason="normal quantiles by two algorithms (a few ulp) in the binormal fits"),
    C("smooth_roc", "smooth_roc",
      lambda d, w: f.smooth_roc(d["y"], d["s"]),
      lambda d, w: naive.smooth_roc(d["y"], d["s"]), BINARY, False,
      view=fields("specificities", "sensitivities", "auc"), tol=1e-10,
      reason="normal quantiles by two algorithms (a few ulp) in a least-squares fit"),
    C("smooth_roc[density]", "smooth_roc",
      lambda d, w: f.smooth_roc(d["y"], d["s"], method="density", n=64),
      lambda d, w: naive.smooth_roc_density(d["y"], d["s"], n=64), BINARY, False,
      view=fields("specificities", "sensitivities", "auc"), tol=1e-10,
      reason="kernel sums and cumulative sums in another order than the reference's"),
    C("cv_auc_ci", "cv_auc_ci",
      lambda d, w: f.cv_auc_ci(d["y"], d["s"], d["fold"], sample_weight=w),
      lambda d, w: naive.cv_auc_ci(d["y"], d["s"], d["fold"], sample_weight=w), FOLDS, True,
      view=fields("estimate", "se", "low", "high", "fold_aucs"), tol=1e-10,
      reason="influence values from placements (table cumulative sums) against pair loops",
      invariances=_scale_only("estimate", "fold_aucs"),
      notes="frequency weights: scaling them changes the sample size and so the standard "
            "error and the interval"),
    C("cv_auc_ci[pooled]", "cv_auc_ci",
      lambda d, w: f.cv_auc_ci(d["y"], d["s"], d["fold"], sample_weight=w, pooled=d["unit"]),
      lambda d, w: naive.cv_auc_ci(d["y"], d["s"], d["fold"], sample_weight=w, ids=d["unit"]),
      FOLDS, True, view=fields("estimate", "se", "low", "high", "fold_aucs"), tol=1e-10,
      reason="influence values from placements (table cumulative sums) against pair loops",
      notes="a unit's influence value is over the mean weight per unit: scale-free"),
    C("cv_roc_curve", "cv_roc_curve",
      lambda d, w: f.cv_roc_curve(d["y"], d["s"], d["fold"], fpr=CV_GRID, sample_weight=w),
      lambda d, w: naive.cv_roc_curve(d["y"], d["s"], d["fold"], fpr=CV_GRID, sample_weight=w),
      FOLDS, True, view=fields("fpr", "tpr", "std", "fold_tpr", "fold_aucs", "auc"), tol=1e-12,
      reason="rates from cumulative sums against masked sums of weights"),
    C("delong_covariance", "delong_covariance",
      lambda d, w: f.delong_covariance(d["y"], np.column_stack((d["s"], d["s2"])),
                                       sample_weight=w),
      lambda d, w: naive.delong_covariance(d["y"], np.column_stack((d["s"], d["s2"])), w),
      TWO, True, view=tuple, invariances=_scale_only(0),
      notes="frequency weights (divisor sum(w) - 1): scaling changes the covariance"),
    C("roc_auc_ci", "roc_auc_ci",
      lambda d, w: f.roc_auc_ci(d["y"], d["s"], sample_weight=w),
      _delong_ci, BINARY, True, view=fields("estimate", "low", "high", "se"),
      invariances=_scale_only("estimate"),
      notes="frequency weights: scaling changes the standard error and the interval",
      goal="<= 2x fastauc.roc_auc_score", bench={}),
    C("delong_test", "delong_test",
      lambda d, w: f.delong_test(d["y"], d["s"], d["s2"], sample_weight=w),
      lambda d, w: naive.delong_test(d["y"], d["s"], d["s2"], w), TWO, True,
      view=fields("difference", "se", "statistic", "pvalue", "low", "high"), tol=1e-9,
      reason="var = c_aa + c_bb - 2 c_ab cancels: the covariances agree to 1e-12, their "
             "difference's square root to about 1e-9",
      invariances=_scale_only("difference"),
      notes="frequency weights: scaling changes the standard error, z and the p-value",
      bench={}),
    C("delong_test[unpaired]", "delong_test",
      lambda d, w: f.delong_test(d["y"], d["s"], d["s2"], y_true_b=d["y"], sample_weight=w,
                                 sample_weight_b=w),
      _delong_unpaired_reference, TWO, True,
      view=fields("difference", "se", "statistic", "df", "pvalue", "low", "high"), tol=1e-9,
      reason="the t tail (incomplete beta by continued fraction) against scipy's agrees to "
             "about 1e-12 relative; the statistic's square root to ~1e-12",
      invariances=_scale_only("difference"),
      notes="frequency weights: scaling changes both variances and the degrees of freedom"),
    C("delong_omnibus", "delong_omnibus",
      lambda d, w: f.delong_omnibus(d["y"], _omnibus_columns(d), sample_weight=w),
      _omnibus_reference, TWO, True, view=fields("statistic", "pvalue", "aucs"), tol=1e-7,
      reason="a quadratic form in a 2 x 2 inverse of covariances that cancel: ~1e-9 "
             "relative, worse when the contrasts are nearly collinear",
      invariances=_scale_only("aucs"),
      notes="frequency weights: scaling changes the covariance and the chi-square"),
    C("roc_auc_ci[cluster]", "roc_auc_ci",
      lambda d, w: f.roc_auc_ci(d["y"], d["s"], cluster=d["c"], sample_weight=w),
      _clustered_ci_reference, CLUSTERED, True, view=fields("estimate", "se"),
      notes="the clusters are the sampling units: scaling the weights leaves "
            "Obuchowski's variance unchanged"),
    C("delong_covariance[cluster]", "delong_covariance",
      lambda d, w: f.delong_covariance(d["y"], np.column_stack((d["s"], d["s2"])),
                                       cluster=d["c"], sample_weight=w),
      lambda d, w: naive.clustered_auc_variance(d["y"], np.column_stack((d["s"], d["s2"])),
                                                d["c"], w),
      CLUSTERED, True, view=tuple,
      notes="the clusters are the sampling units: scaling the weights leaves the "
            "covariance unchanged"),
    C("bootstrap_ci", "bootstrap_ci",
      lambda d, w, **kw: f.bootstrap_ci(d["y"], d["s"], sample_weight=w, **{**BOOT, **kw}),
      _bootstrap_reference, BINARY, True,
      view=fields("estimate", "low", "high", "se", "replicates"),
      invariances={"unit": ALL, "scale": ALL, "repeat": ("estimate",),
                   "zero": ("estimate",), "shuffle": ("estimate",)},
      notes="a replicate draws rows, not weight: a zero-weight row still takes draws and a "
            "repeated row is drawn as several rows, so only the estimate survives those; "
            "shuffling reorders tied rows of a class, which changes which row (and weight) "
            "a draw picks, so only the estimate survives that too.  Unit and scaled "
            "weights give the same draws and the same (scale-free) replicates",
      goal=">= 100x a scikit-learn resampling loop", bench={"n_resamples": 200}, slow=True),
    *[C(f"bootstrap_ci[{m}]", "bootstrap_ci",
        lambda d, w, m=m, at=at, **kw: f.bootstrap_ci(d["y"], d["p"], metric=m, at=at,
                                                      sample_weight=w, **{**BOOT, **kw}),
        _bootstrap_metric_reference(m, at), PROBA, True,
        view=fields("estimate", "low", "high", "replicates"),
        invariances={"unit": ALL, "scale": ALL, "repeat": ("estimate",),
                     "zero": ("estimate",), "shuffle": ("estimate",)},
        notes="as bootstrap_ci: a replicate draws rows, not weight", slow=True)
      for m, at in (("sensitivity_at_specificity", 0.8), ("specificity_at_sensitivity", 0.7),
                    ("precision_at_recall", 0.6), ("recall_at_precision", 0.55),
                    ("brier", None), ("ece", None))],
    C("bootstrap_ci_poisson", "bootstrap_ci",
      lambda d, w, **kw: f.bootstrap_ci(d["y"], d["s"], sample_weight=w, scheme="poisson",
                                        **{**BOOT, **kw}),
      _poisson_bootstrap_reference, BINARY, True,
      view=fields("estimate", "low", "high", "se", "replicates"),
      invariances={"unit": ALL, "scale": ALL, "repeat": ("estimate",),
                   "zero": ("estimate",), "shuffle": ("estimate",)},
      notes="a row's count is keyed by its position in the input: unit and scaled weights "
            "give the same counts and replicates; removing, repeating or shuffling rows "
            "moves positions, so only the estimate survives those",
      bench={"n_resamples": 200}, slow=True),
    C("bootstrap_test", "bootstrap_test",
      lambda d, w, **kw: f.bootstrap_test(d["y"], d["s"], d["s2"], sample_weight=w,
                                          **{**BOOT, **kw}),
      _bootstrap_test_reference, TWO, True,
      view=fields("difference", "se", "statistic", "pvalue", "low", "high", "replicates"),
      invariances={"unit": ALL, "scale": ALL, "repeat": ("difference",),
                   "zero": ("difference",), "shuffle": ("difference",)},
      notes="as bootstrap_ci: draws are of rows, so only the point difference survives "
            "repeated, removed and shuffled rows",
      slow=True),
    C("bootstrap_test[unpaired]", "bootstrap_test",
      lambda d, w, **kw: f.bootstrap_test(d["y"], d["s"], d["s2"], y_true_b=d["y"],
                                          sample_weight=w, sample_weight_b=w,
                                          **{**BOOT, **kw}),
      _unpaired_bootstrap_test_reference, TWO, True,
      view=fields("difference", "se", "statistic", "pvalue", "low", "high", "replicates"),
      invariances={"unit": ALL, "scale": ALL, "repeat": ("difference",),
                   "zero": ("difference",), "shuffle": ("difference",)},
      notes="as bootstrap_test: each data set's draws are of rows", slow=True),
    C("bootstrap_ci[partial_auc]", "bootstrap_ci",
      lambda d, w, **kw: f.bootstrap_ci(d["y"], d["s"], metric="partial_auc", sample_weight=w,
                                        **{**BOOT, **BOOT_PARTIAL, **kw}),
      _bootstrap_partial_reference, BINARY, True,
      view=fields("estimate", "low", "high", "se", "replicates"),
      invariances={"unit": ALL, "scale": ALL, "repeat": ("estimate",),
                   "zero": ("estimate",), "shuffle": ("estimate",)},
      notes="as bootstrap_ci: a replicate draws rows, not weight", slow=True),
    C("bootstrap_ci[cluster]", "bootstrap_ci",
      lambda d, w, **kw: f.bootstrap_ci(d["y"], d["s"], cluster=_boot_clusters(len(d["y"])),
                                        sample_weight=w, **{**BOOT, **kw}),
      _bootstrap_cluster_reference, BINARY, True,
      view=fields("estimate", "low", "high", "se", "replicates"),
      invariances={"unit": ALL, "scale": ALL, "repeat": ("estimate",),
                   "zero": ("estimate",), "shuffle": ("estimate",)},
      notes="a replicate draws clusters (rows 3 by 3 here), not weight: repeating, removing "
            "or shuffling rows changes the clusters, so only the estimate survives those",
      slow=True),
    C("by_group", "by_group",
      lambda d, w: f.by_group(d["y"], d["p"], d["g"], sample_weight=w),
      lambda d, w: {k: v for k, v in naive.by_group(d["y"], d["p"], d["g"], w).items()
                    if k != "group"},
      GROUPED, True, view=fields(*GROUP_FIELDS),
      invariances=_scale_only("auc", "average_precision", "log_loss"),
      notes="frequency weights: scaling changes each group's DeLong standard error",
      goal="<= 2x one fastauc.roc_auc_score; >= 10x polars-ds; >= 100x pandas groupby",
      bench={}),
    C("auc_over_time", "auc_over_time",
      lambda d, w: f.auc_over_time(d["y"], d["s"], d["t"], freq=1.0, window=2.0,
                                   sample_weight=w),
      _over_time_reference, TIMED, True, view=_over_time_view, tol=1e-10,
      reason="DeLong's variance from each window's sweep against naive's pair matrices",
      invariances={k: v for k, v in _scale_only("auc").items() if k != "zero"},
      notes="frequency weights: scaling changes each window's DeLong variance; a row of "
            "weight zero still has its time, so it keeps its period in the table (removing "
            "the only row of the last period removes the period)",
      bad_words={"nan label": None}),
    C("plot_over_time", "plot_over_time",
      lambda d, w: f.plot_over_time(f.auc_over_time(d["y"], d["s"], d["t"], freq=1.0)),
      lambda d, w: np.array([a for a, _ in naive.auc_over_time(d["y"], d["s"], d["t"], 1.0,
                                                               1)]),
      TIMED, False, view=lambda fig: _figure_lines(fig)[0][:, 1], slow=True,
      bad_words={"nan label": None}),
    C("subgroup_aucs", "subgroup_aucs",
      lambda d, w: f.subgroup_aucs(d["y"], d["p"], d["g"], sample_weight=w),
      _subgroup_reference, GROUPED, True, view=_subgroup_view, tol=1e-10,
      reason="DeLong's variances from the placements' step functions against the pair "
             "matrices of naive.delong_covariance",
      invariances=_scale_only("subgroup", "bpsn", "bnsp"),
      notes="frequency weights: scaling changes each DeLong variance"),
    C("report", "report",
      lambda d, w: f.report(d["y"], d["p"], sample_weight=w),
      _report_reference, PROBA, True, view=_report_view,
      invariances=_scale_only("auc", "gini", "average_precision", "log_loss", "lift", "best"),
      notes="DeLong's interval uses frequency weights: scaling changes it",
      goal="< 3 s at n = 1e7 (one model)", bench={}, slow=True),
    # ---------------------------------------------------------------- plots
    C("roc_confidence_band", "roc_confidence_band",
      lambda d, w: f.roc_confidence_band(d["y"], d["s"], sample_weight=w, n_resamples=20,
                                         random_state=5, confidence_level=0.9,
                                         fpr_grid=np.linspace(0, 1, 11)),
      _band_reference, BINARY, True, positive_weights=True,
      invariances={"unit": ALL, "scale": ALL},
      notes="a bootstrap band: as bootstrap_ci, draws are of rows",
      slow=True),
    C("plot_roc", "plot_roc",
      lambda d, w: f.plot_roc(d["y"], d["s"], sample_weight=w, band=False,
                              operating_point=None),
      _roc_line, BINARY, True, view=lambda fig: _figure_lines(fig)[0], slow=True),
    C("plot_precision_recall", "plot_precision_recall",
      lambda d, w: f.plot_precision_recall(d["y"], d["s"], sample_weight=w, baseline=False),
      _pr_line, BINARY, True, view=lambda fig: _figure_lines(fig)[0], slow=True),
    C("plot_gains", "plot_gains",
      lambda d, w: f.plot_gains(d["y"], d["s"], sample_weight=w),
      _gains_curve_reference, BINARY, True, view=_gains_figure, slow=True),
    C("plot_calibration", "plot_calibration",
      lambda d, w: f.plot_calibration(d["y"], d["p"], sample_weight=w),
      _corp_line, PROBA, True, view=lambda fig: _figure_lines(fig)[0], slow=True,
      bad_words={"third class": ("inferred from y_true is multiclass", "binary")}),
    C("plot_det", "plot_det",
      lambda d, w: f.plot_det(d["y"], d["s"], sample_weight=w),
      _det_line, BINARY, True, view=lambda fig: _figure_lines(fig)[0], slow=True),
]

BY_NAME = {c.name: c for c in REGISTRY}
assert len(BY_NAME) == len(REGISTRY), "registry names must be unique"


def public_functions():
    """Every public callable of fastauc that computes something (not classes,
    not the configuration functions)."""
    return sorted(n for n in fastauc.__all__
                  if callable(getattr(fastauc, n)) and not isinstance(getattr(fastauc, n), type)
                  and n not in CONFIG_FUNCTIONS)


CONFIG_FUNCTIONS = ("config_context", "get_config", "set_config")


def first_entries():
    """One entry per public function (its first), e.g. for the bad-input table."""
    out = {}
    for c in REGISTRY:
        out.setdefault(c.function, c)
    return out


WEIGHTED = [c for c in REGISTRY if c.weights]


# ------------------------------------------------------------------ comparing results

def close_figures():
    """Close every pyplot figure (a plot that raises has already opened its figure)."""
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def assert_close(ours, ref, tol=1e-12, where="result"):
    """Recursive comparison: same structure, NaN where NaN, ``|a - b| <= tol * max(1, |b|)``."""
    if isinstance(ref, dict):
        assert isinstance(ours, dict) and set(ours) == set(ref), (where, ours, ref)
        for k in ref:
            assert_close(ours[k], ref[k], tol, f"{where}[{k!r}]")
        return
    if isinstance(ref, (tuple, list)) and not (
            len(ref) and np.isscalar(ref[0]) and not isinstance(ref[0], str)):
        assert len(ours) == len(ref), (where, ours, ref)
        for i, (a, b) in enumerate(zip(ours, ref)):
            assert_close(a, b, tol, f"{where}[{i}]")
        return
    if ref is None or isinstance(ref, (str, bool)):
        assert ours == ref, (where, ours, ref)
        return
    a = np.asarray(ours, dtype=np.float64)
    b = np.asarray(ref, dtype=np.float64)
    assert a.shape == b.shape, (where, a.shape, b.shape, a, b)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(invalid="ignore"):
        near = np.abs(a - b) <= tol * np.maximum(1.0, np.abs(b))
    bad = ~(same | near)
    assert not bad.any(), (where, a[bad] if a.ndim else a, b[bad] if b.ndim else b)


def select(result, keys):
    """The parts of a view an invariance compares (``ALL``: everything)."""
    if keys is ALL:
        return result
    if isinstance(result, dict):
        return {k: result[k] for k in keys}
    return tuple(result[k] for k in keys)
