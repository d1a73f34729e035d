"""The ``fastauc`` command line (optional extras are imported lazily)."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

__all__ = ["main", "make_demo_data"]


def make_demo_data(n=1_000_000, positive_rate=0.1, seed=0):
    """Deterministic synthetic scored data: labels, probabilities (with ties).

    Scores come from a binormal model (positives shifted by 1.2 standard
    deviations), squashed to probabilities and rounded to 4 decimals so that
    many rows tie, as real model outputs do.

    Examples
    --------
    >>> y, p = make_demo_data(1000)
    >>> y.shape, p.shape, bool(((p > 0) & (p < 1)).all())
    ((1000,), (1000,), True)
    """
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < positive_rate).astype(np.int8)
    z = rng.standard_normal(n) + 1.2 * y - 2.0
    p = np.round(1.0 / (1.0 + np.exp(-z)), 4)
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return y, p


def _best_time(fn, repeat=3):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return out, best


def demo(n=1_000_000, naive_n=20_000, out=sys.stdout):
    """Score the built-in data set and time fastauc against its peers."""
    import fastauc
    from fastauc.naive import pairwise_auc

    y, p = make_demo_data(n)
    print(f"fastauc {fastauc.__version__} demo: {n:,} rows, {int(y.sum()):,} positives, "
          f"{len(np.unique(p)):,} distinct scores", file=out)
    rows = []
    funcs = [("roc_auc_score", fastauc.roc_auc_score, "roc_auc_score"),
             ("average_precision_score", fastauc.average_precision_score,
              "average_precision_score"),
             ("log_loss", fastauc.log_loss, "log_loss")]
    try:
        import sklearn.metrics as skm
    except ImportError:
        skm = None
    for name, ours, sk_name in funcs:
        ours(y[:100], p[:100])  # compile or load from the cache
        value, t_ours = _best_time(lambda: ours(y, p))
        if skm is not None:
            sk_value, t_sk = _best_time(lambda: getattr(skm, sk_name)(y, p), repeat=1)
            rows.append((name, value, t_ours, f"{t_sk:9.3f} s", f"{t_sk / t_ours:7.1f}x",
                         f"{abs(value - sk_value):.1e}"))
        else:
            rows.append((name, value, t_ours, "  (not installed)", "", ""))
    print(f"\n{'metric':<25}{'value':>10}{'fastauc':>12}{'scikit-learn':>14}"
          f"{'speed-up':>10}{'|diff|':>10}", file=out)
    for name, value, t, t_sk, ratio, diff in rows:
        print(f"{name:<25}{value:>10.6f}{t:>10.3f} s{t_sk:>14}{ratio:>10}{diff:>10}", file=out)
    ci, t_ci = _best_time(lambda: fastauc.roc_auc_ci(y, p))
    boot, t_boot = _best_time(lambda: fastauc.bootstrap_ci(y, p, n_resamples=1000,
                                                           random_state=0), repeat=1)
    print(f"\n95% interval of the AUC, DeLong:    [{ci.low:.6f}, {ci.high:.6f}] "
          f"(se {ci.se:.6f}) in {t_ci:.3f} s", file=out)
    print(f"95% interval of the AUC, bootstrap: [{boot.low:.6f}, {boot.high:.6f}] "
          f"(se {boot.se:.6f}, 1,000 stratified replicates) in {t_boot:.3f} s", file=out)
    ys, ps = y[:naive_n], p[:naive_n]
    exact, t_naive = _best_time(lambda: pairwise_auc(ys, ps), repeat=1)
    fast, t_fast = _best_time(lambda: fastauc.roc_auc_score(ys, ps))
    print(f"\nnaive pairwise AUC on the first {naive_n:,} rows: {exact:.12f} in {t_naive:.3f} s; "
          f"fastauc {fast:.12f} in {t_fast * 1e3:.2f} ms ({t_naive / t_fast:,.0f}x)", file=out)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="fastauc", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    d = sub.add_parser("demo", help="score built-in synthetic data and compare timings")
    d.add_argument("--n", type=int, default=1_000_000, help="rows (default 1e6)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        if args.n < 1000:
            parser.error("--n must be at least 1000")
        return demo(n=args.n)
    parser.print_help()
    return 0
