"""Run scikit-learn's own metric tests with fastauc's functions substituted.

    python benchmarks/sklearn_conformance.py             # table on stdout + docs/guide/swapping_in.md
    python benchmarks/sklearn_conformance.py --no-write  # table only
    python benchmarks/sklearn_conformance.py -k roc_auc  # a subset (not written)

How it works.  The installed scikit-learn's ``sklearn/metrics/tests``
files ``test_ranking.py``, ``test_classification.py`` and ``test_common.py``
run twice in fresh pytest processes, with this file loaded as a plugin
(``-p sklearn_conformance``) before the test modules are imported:

1. *reference run*: each of the names below in ``sklearn.metrics`` is
   wrapped so that calling it is recorded for the running test, but the
   wrapper calls scikit-learn's own function;
2. *fastauc run*: the same names are replaced by a recording wrapper around
   fastauc's function, so every ``from sklearn.metrics import roc_auc_score``
   in the test modules (and their module-level registries and ``partial``
   objects) gets fastauc.

A test counts for a function when it passes in the reference run and calls
that function in either run; it passes for fastauc when it passes in the
fastauc run.  Tests that scikit-learn itself skips are not counted.  The
per-test outcomes, with the first line of each failure, are written as JSON
(``--json``) and the deviations listed in the markdown.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FUNCTIONS = (
    "roc_auc_score",
    "roc_curve",
    "auc",
    "average_precision_score",
    "precision_recall_curve",
    "det_curve",
    "log_loss",
    "f1_score",
    "fbeta_score",
    "precision_score",
    "recall_score",
    "precision_recall_fscore_support",
    "class_likelihood_ratios",
    "metric_at_thresholds",
)
MODULES = ("test_ranking", "test_classification", "test_common")
ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "guide" / "swapping_in.md"
BEGIN, END = "<!-- conformance:begin -->", "<!-- conformance:end -->"

# ------------------------------------------------------------------ plugin side
# (imported by pytest through ``-p sklearn_conformance`` in the child processes)

_MODE = os.environ.get("FASTAUC_CONFORMANCE_MODE")
_OUT = os.environ.get("FASTAUC_CONFORMANCE_OUT")
_calls: set = set()
_results: dict = {}


def _install(mode: str) -> None:
    import sklearn.metrics as skm

    import fastauc

    for name in FUNCTIONS:
        original = getattr(skm, name)
        target = getattr(fastauc, name) if mode == "fastauc" else original

        def wrapper(*args, __name=name, __target=target, **kwargs):
            _calls.add(__name)
            return __target(*args, **kwargs)

        functools.update_wrapper(wrapper, target)
        setattr(skm, name, wrapper)


if _MODE:
    _install(_MODE)


def pytest_runtest_setup(item):
    _calls.clear()


def pytest_runtest_logreport(report):
    entry = _results.setdefault(report.nodeid, {"outcome": "passed", "error": ""})
    if report.failed and entry["outcome"] != "failed":
        entry["outcome"] = "failed"
        crash = getattr(report.longrepr, "reprcrash", None)
        text = crash.message if crash else str(report.longrepr)
        entry["error"] = " ".join(line.strip() for line in text.splitlines()[:3])[:400]
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"
    if report.when == "teardown":
        entry["calls"] = sorted(_calls)


def pytest_sessionfinish(session):
    if _OUT:
        Path(_OUT).write_text(json.dumps(_results))


# ------------------------------------------------------------------ runner side

def _run(mode: str, extra: list[str]) -> dict:
    out = Path(tempfile.mkdtemp()) / f"{mode}.json"
    ini = out.parent / "pytest.ini"
    ini.write_text("[pytest]\n")
    env = dict(os.environ, FASTAUC_CONFORMANCE_MODE=mode, FASTAUC_CONFORMANCE_OUT=str(out),
               PYTHONPATH=os.pathsep.join([str(ROOT / "benchmarks"), str(ROOT)]))
    cmd = [sys.executable, "-m", "pytest", "-c", str(ini), "-q", "-p", "no:cacheprovider",
           "-p", "sklearn_conformance", "-W", "ignore", "--tb=line", "--no-header",
           "--pyargs", *(f"sklearn.metrics.tests.{m}" for m in MODULES), *extra]
    subprocess.run(cmd, env=env, cwd=out.parent, stdout=subprocess.DEVNULL, check=False)
    return json.loads(out.read_text())


def tally(reference: dict, ours: dict):
    """Per function: (tests counted, passed, failing test ids with their errors)."""
    rows = {}
    for name in FUNCTIONS:
        counted = sorted(
            t for t, r in reference.items()
            if r["outcome"] == "passed"
            and (name in r.get("calls", ()) or name in ours.get(t, {}).get("calls", ()))
        )
        failing = [(t, ours.get(t, {}).get("error", "not run")) for t in counted
                   if ours.get(t, {}).get("outcome") != "passed"]
        rows[name] = (len(counted), len(counted) - len(failing), failing)
    return rows


def markdown(rows, versions: str) -> str:
    lines = [
        f"Measured with `python benchmarks/sklearn_conformance.py` ({versions}).",
        "",
        "| function | tests that call it | pass with fastauc | share |",
        "|---|---:|---:|---:|",
    ]
    for name, (n, ok, _) in rows.items():
        share = f"{100 * ok / n:.1f}%" if n else "-"
        lines.append(f"| `{name}` | {n} | {ok} | {share} |")
    failing = collections.OrderedDict()
    for name, (_, _, fails) in rows.items():
        for test, err in fails:
            failing.setdefault(test, (err, []))[1].append(name)
    lines += ["", f"Failing tests ({len(failing)}):", ""]
    if not failing:
        lines.append("none")
    for test, (err, names) in failing.items():
        short = test.split("/tests/")[-1]
        lines.append(f"- `{short}` ({', '.join(names)}): {err.replace('|', '/')}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default=None, help="pytest -k expression (not written)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--json", default=None, help="write per-test outcomes here")
    args = parser.parse_args(argv)
    extra = ["-k", args.k] if args.k else []
    t0 = time.perf_counter()
    reference = _run("sklearn", extra)
    ours = _run("fastauc", extra)
    rows = tally(reference, ours)
    import numpy
    import sklearn

    import fastauc

    versions = (f"scikit-learn {sklearn.__version__}, fastauc {fastauc.__version__}, "
                f"numpy {numpy.__version__}, Python {sys.version.split()[0]}")
    text = markdown(rows, versions)
    print(text)
    print(f"({time.perf_counter() - t0:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps({"sklearn": reference, "fastauc": ours}))
    if not args.no_write and not args.k:
        doc = DOC.read_text()
        head, rest = doc.split(BEGIN)
        _, tail = rest.split(END)
        DOC.write_text(f"{head}{BEGIN}\n{text}{END}{tail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
