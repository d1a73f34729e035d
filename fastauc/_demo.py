"""``fastauc demo``: the built-in data set scored, fastauc timed against its peers."""

from __future__ import annotations

import sys
import time

import numpy as np

__all__ = ["demo", "demo_warmup", "make_demo_data"]


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


def _second_model(y, p):
    """A second, weaker model of the demo's rows, for the paired comparison."""
    noise = np.random.default_rng(1).standard_normal(p.shape[0])
    return np.round(np.clip(p + 0.15 * noise * np.sqrt(p * (1 - p)), 1e-4, 1 - 1e-4), 4)


# the bootstrap's replicates: enough for the demo's 95% interval, and 0.9 s
# on 2 cores at 1e6 rows, so that the demo ends within 15 s on an empty
# cache; real use wants 1000 or more (docs/guide/intervals.md)
DEMO_RESAMPLES = 500


def _pieces(fastauc, _warm, y, p):
    """The demo's calls whose kernels compile, by piece."""
    return {
        "log_loss": lambda: fastauc.log_loss(y, p),
        "report": lambda: fastauc.report(y, np.column_stack((p, _second_model(y, p))),
                                         names=["a", "b"]),
        "ci": lambda: fastauc.roc_auc_ci(y, p),
        "bootstrap": lambda: fastauc.bootstrap_ci(y, p, n_resamples=20, random_state=0),
        "auc": lambda: (_warm.warm(_warm.tallies_family(p)), fastauc.roc_auc_score(y, p),
                        fastauc.average_precision_score(y, p)),
    }


def demo_warmup(*pieces):
    """Compile (or load) the kernels of the demo's calls ``pieces`` (keys of
    ``_pieces``), in order, on a small copy of its data (the same dtypes, so
    the same signatures)."""
    import warnings

    import fastauc

    from . import _warm

    y, p = make_demo_data(70_000)
    calls = _pieces(fastauc, _warm, y, p)
    with warnings.catch_warnings(), _warm.kernels_only():
        warnings.simplefilter("ignore")
        for piece in pieces:
            calls[piece]()


def _compile_plan(cpus):
    """The demo's pieces by compiler: ``(this process's thread, children)``.

    Numba compiles one function at a time per process, so the pieces are
    compiled by this process's thread and by child processes into the shared
    cache, in groups that share few kernels: the report's sort carries row
    numbers, the others' is the plain sort.  On 2-3 CPUs, two groups of
    about the same compile time on an empty cache (the thread's DeLong
    interval comes last, when the child's bootstrap has cached the plain
    sort; the report, first in the output, is the thread's); from 4 CPUs the
    bootstrap gets a
    child of its own, which compiles the plain sort too (a CPU's time spent
    to save the wall's)."""
    if cpus >= 4:
        return ("log_loss", "report"), (("bootstrap",), ("auc", "ci"))
    return ("log_loss", "report", "ci"), (("bootstrap", "auc"),)


class _Compilers:
    """The demo's pieces compiling at once (``_compile_plan``): ``need``
    waits for the ones a step uses and loads into this process what the
    children compiled (or, with a warm cache and no children, loads them)."""

    def __init__(self, here, groups, spawn):
        import subprocess
        import threading

        self.thread = threading.Thread(target=demo_warmup, args=here, daemon=True)
        self.thread.start()
        self.here = set(here)
        self.loaded = set()
        self.children = [(group, subprocess.Popen(
            [sys.executable, "-c", "from fastauc._demo import demo_warmup; "
             f"demo_warmup(*{list(group)!r})"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)) for group in groups] if spawn else \
            [(group, None) for group in groups]

    @property
    def spawned(self):
        return any(child is not None for _, child in self.children)

    def need(self, *pieces):
        if self.here.intersection(pieces):
            self.thread.join()
        load = []
        for group, child in self.children:
            if set(group).intersection(pieces):
                if child is not None:
                    child.wait()  # if it failed, its pieces compile here, as they would anyway
                load += [piece for piece in group if piece not in self.loaded]
        demo_warmup(*load)
        self.loaded.update(load)


def demo(n=1_000_000, naive_n=20_000, out=sys.stdout):
    """Score the built-in data set and time fastauc against its peers.

    The first result comes at once: in a process whose kernels are not
    compiled yet, ``roc_auc_score`` and ``average_precision_score`` answer
    from numpy (the same numbers).  Meanwhile the kernels of the demo's
    other calls compile, or load from the cache, in a background thread and
    in child processes (``_compile_plan``), so several cores compile at once,
    and each step waits for its own kernels only.  Every timing printed is
    of compiled kernels (the first calls' aside); on an empty cache a child
    may still be compiling the intervals' kernels on another core while the
    report and the table run, which slows fastauc's calls (they use two
    threads), not scikit-learn's.
    """
    import fastauc
    from fastauc.naive import pairwise_auc

    from . import _warm

    t_start = time.perf_counter()
    from ._kernels.resampling import replicate_batch
    from ._parallel import num_threads

    compilers = _Compilers(*_compile_plan(num_threads()), not _warm.cached(replicate_batch))
    y, p = make_demo_data(n)
    print(f"fastauc {fastauc.__version__} demo: {n:,} rows, {int(y.sum()):,} positives, "
          f"{len(np.unique(p)):,} distinct scores", file=out)
    t0 = time.perf_counter()
    with _warm.deferred():  # numpy answers; their kernels compile meanwhile
        first = fastauc.roc_auc_score(y, p), fastauc.average_precision_score(y, p)
    t_first = time.perf_counter() - t0
    how = "" if _warm.ready(_warm.tallies_family(p)) else \
        "from numpy while the kernels compile or load: "
    print(f"\nAUC {first[0]:.6f}, average precision {first[1]:.6f}: the first calls, "
          f"{t_first:.2f} s ({how}exact, the kernels' numbers to the last bit)", file=out,
          flush=True)
    q = _second_model(y, p)
    compilers.need("report")
    rep, t_rep = _best_time(lambda: fastauc.report(y, np.column_stack((p, q)),
                                                   names=["model_a", "model_b"]), repeat=1)
    print(f"\nfastauc.report on both models ({t_rep:.2f} s):\n", file=out)
    print(rep, file=out, flush=True)
    try:  # imported while a child may still compile (a second), not on the clock below
        import sklearn.metrics as skm
    except ImportError:
        skm = None
    compilers.need("auc", "log_loss")
    rows = []
    funcs = [("roc_auc_score", fastauc.roc_auc_score, "roc_auc_score"),
             ("average_precision_score", fastauc.average_precision_score,
              "average_precision_score"),
             ("log_loss", fastauc.log_loss, "log_loss")]
    for name, ours, sk_name in funcs:
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
    compilers.need("ci", "bootstrap")
    t_ready = time.perf_counter() - t_start
    ci, t_ci = _best_time(lambda: fastauc.roc_auc_ci(y, p))
    boot, t_boot = _best_time(lambda: fastauc.bootstrap_ci(y, p, n_resamples=DEMO_RESAMPLES,
                                                           random_state=0), repeat=1)
    print(f"\n95% interval of the AUC, DeLong:    [{ci.low:.6f}, {ci.high:.6f}] "
          f"(se {ci.se:.6f}) in {t_ci:.3f} s", file=out)
    print(f"95% interval of the AUC, bootstrap: [{boot.low:.6f}, {boot.high:.6f}] "
          f"(se {boot.se:.6f}, {DEMO_RESAMPLES:,} stratified replicates) in {t_boot:.3f} s",
          file=out)
    ys, ps = y[:naive_n], p[:naive_n]
    exact, t_naive = _best_time(lambda: pairwise_auc(ys, ps), repeat=1)
    fast, t_fast = _best_time(lambda: fastauc.roc_auc_score(ys, ps))
    print(f"\nnaive pairwise AUC on the first {naive_n:,} rows: {exact:.12f} in {t_naive:.3f} s; "
          f"fastauc {fast:.12f} in {t_fast * 1e3:.2f} ms ({t_naive / t_fast:,.0f}x)", file=out)
    total = time.perf_counter() - t_start
    note = "kernels compiled" if compilers.spawned or _warm.compiled() else "kernels loaded"
    print(f"\n{total:.1f} s in all ({note} in the first {t_ready:.1f} s; every timing above "
          "is of compiled kernels, the first calls' aside)", file=out)
    return 0
