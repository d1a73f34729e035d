import io
import subprocess
import sys

import numpy as np

from fastauc.cli import demo, main, make_demo_data


def test_demo_data_is_deterministic():
    y1, p1 = make_demo_data(5000)
    y2, p2 = make_demo_data(5000)
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_array_equal(p1, p2)
    assert 0.05 < y1.mean() < 0.15


def test_demo_prints_metrics():
    out = io.StringIO()
    assert demo(n=20_000, naive_n=2_000, out=out) == 0
    text = out.getvalue()
    for word in ("roc_auc_score", "average_precision_score", "log_loss", "naive pairwise AUC",
                 "DeLong", "bootstrap"):
        assert word in text


def test_python_dash_m_help():
    proc = subprocess.run([sys.executable, "-m", "fastauc", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "demo" in proc.stdout
    assert main([]) == 0


# ------------------------------------------------------------------ fastauc report

import json  # noqa: E402

import pytest  # noqa: E402

import fastauc  # noqa: E402
from .compare import assert_close  # noqa: E402


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(0)
    n = 3000
    y = rng.integers(0, 2, n)
    p = 1 / (1 + np.exp(-(y + rng.normal(size=n))))
    q = np.round(y + 2 * rng.normal(size=n), 2)
    w = rng.choice([0.5, 1.0, 2.0], n)
    label = np.where(y == 1, "sick", "well")
    path = tmp_path / "scores.csv"
    with open(path, "w") as fh:
        fh.write("y,p,q,w,label,three\n")
        for i in range(n):
            fh.write(f"{y[i]},{float(p[i])!r},{float(q[i])!r},{w[i]},{label[i]},{i % 3}\n")
    return path, y, p, q, w


def _run(args):
    return subprocess.run([sys.executable, "-m", "fastauc", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def test_report_json_matches_the_library(table):
    path, y, p, q, w = table
    proc = _run(["report", path, "--target", "y", "--score", "p", "--score", "q",
                 "--weight", "w", "--json"])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)  # stdout is only JSON
    ref = fastauc.report(y, np.column_stack((p, q)), sample_weight=w,
                         names=["p", "q"]).to_dict()
    assert got["models"][0]["auc"] == pytest.approx(ref["models"][0]["auc"], abs=1e-12)
    assert got["models"][1]["best"]["f1"]["threshold"] == pytest.approx(
        ref["models"][1]["best"]["f1"]["threshold"], abs=1e-12)
    assert got["comparisons"][0]["pvalue"] == pytest.approx(ref["comparisons"][0]["pvalue"],
                                                            rel=1e-9)


def test_report_poisson_bootstrap_matches_the_library(table):
    path, y, p, q, w = table
    proc = _run(["report", path, "--target", "y", "--score", "p", "--weight", "w", "--json",
                 "--ci", "bootstrap", "--scheme", "poisson", "--n-resamples", "60",
                 "--seed", "4"])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)["models"][0]
    ref = fastauc.bootstrap_ci(y, p, sample_weight=w, n_resamples=60, random_state=4,
                               scheme="poisson")
    multi = fastauc.bootstrap_ci(y, p, sample_weight=w, n_resamples=60, random_state=4)
    assert (got["auc_low"], got["auc_high"]) == pytest.approx((ref.low, ref.high), abs=1e-12)
    assert got["auc_low"] != pytest.approx(multi.low, abs=1e-12)


def test_report_text_parquet_pos_label_bootstrap_and_plot(table, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path, y, p, q, w = table
    parquet = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"label": np.where(y == 1, "sick", "well"), "p": p}), parquet)
    png = tmp_path / "plot.png"
    out = io.StringIO()
    args = ["report", str(parquet), "--target", "label", "--score", "p", "--pos-label", "sick",
            "--ci", "bootstrap", "--n-resamples", "50", "--plot", str(png)]
    from fastauc.cli import _report_parser, run_report
    import argparse

    parser = argparse.ArgumentParser()
    _report_parser(parser.add_subparsers(dest="command"))
    assert run_report(parser.parse_args(args), out=out) == 0
    text = out.getvalue()
    assert "AUC" in text and "bootstrap" in text and "plot written" in text
    assert png.stat().st_size > 10_000
    assert f"{fastauc.roc_auc_score(y, p):.4f}" in text


@pytest.mark.parametrize("args,words", [
    (["report", "missing.csv", "--target", "y", "--score", "p"], ["no such file"]),
    (["report", "{path}", "--target", "y", "--score", "nope"], ["column 'nope' not found",
                                                                "columns: y, p"]),
    (["report", "{path}", "--target", "label", "--score", "p"], ["--pos-label"]),
    (["report", "{path}", "--target", "three", "--score", "p"], ["3 classes", "--pos-label"]),
    (["report", "{path}", "--target", "label", "--score", "label"], ["not numeric"]),
    (["report", "{nan}", "--target", "y", "--score", "p"], ["2 missing", "--dropna"]),
    (["report", "{one}", "--target", "y", "--score", "p"], ["only one class"]),
    (["report", "{path}", "--target", "y", "--score", "p", "--n-resamples", "0",
      "--ci", "bootstrap"], ["--n-resamples"]),
])
def test_report_bad_input_one_line_no_traceback(table, tmp_path, args, words):
    path = table[0]
    nan = tmp_path / "nan.csv"
    nan.write_text("y,p\n0,0.1\n1,nan\n0,\n1,0.9\n")
    one = tmp_path / "one.csv"
    one.write_text("y,p\n1,0.1\n1,0.5\n")
    args = [a.format(path=path, nan=nan, one=one) for a in args]
    proc = _run(args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fastauc: error:")
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_report_dropna(tmp_path):
    nan = tmp_path / "nan.csv"
    nan.write_text("y,p\n0,0.1\n1,nan\n0,0.3\n1,0.9\n0,0.2\n1,0.8\n")
    proc = _run(["report", nan, "--target", "y", "--score", "p", "--dropna", "--json"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["n_samples"] == 5


def test_parquet_without_pyarrow_names_the_extra(tmp_path, block_import):
    from fastauc.cli import CLIError, read_columns

    path = tmp_path / "x.parquet"
    path.write_bytes(b"PAR1")
    block_import("pyarrow")
    with pytest.raises(CLIError, match=r"fastauc\[io\]"):
        read_columns(str(path), ["y"])
    csv_path = tmp_path / "x.csv"
    csv_path.write_text("y,p,name\n0,0.1,a\n1,0.9,b\n")
    cols = read_columns(str(csv_path), ["y", "p", "name"])  # the stdlib reader
    assert cols["p"].tolist() == [0.1, 0.9] and cols["name"].tolist() == ["a", "b"]


def test_version_flag():
    out = subprocess.run([sys.executable, "-m", "fastauc", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"fastauc {fastauc.__version__}"


# ------------------------------------------------------------------ fastauc report --by


@pytest.fixture
def grouped(tmp_path):
    rng = np.random.default_rng(1)
    n = 600
    y = rng.integers(0, 2, n)
    p = 1 / (1 + np.exp(-(y + rng.normal(size=n))))
    q = np.round(y + 2 * rng.normal(size=n), 1)
    w = rng.choice([0.5, 1.0, 2.0], n)
    region = rng.choice(["north", "south", "east"], n)
    seg = rng.integers(1, 3, n)
    path = tmp_path / "grouped.csv"
    with open(path, "w") as fh:
        fh.write("y,p,q,w,region,seg\n")
        for i in range(n):
            fh.write(f"{y[i]},{float(p[i])!r},{float(q[i])!r},{w[i]},{region[i]},{seg[i]}\n")
    return path, y, p, q, w, region, seg


def test_report_by_json_matches_by_group(grouped):
    path, y, p, q, w, region, seg = grouped
    proc = _run(["report", path, "--target", "y", "--score", "p", "--score", "q",
                 "--weight", "w", "--by", "region", "--by", "seg", "--json"])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)["by_group"]
    assert list(got) == ["p", "q"]
    for name, s in (("p", p), ("q", q)):
        ref = fastauc.by_group(y, s, (region, seg), sample_weight=w)
        assert got[name]["region"] == ref.groups["group_0"].tolist()
        assert got[name]["seg"] == ref.groups["group_1"].tolist()
        assert got[name]["n"] == ref.n.tolist()
        for col in ("auc", "auc_low", "auc_high", "average_precision"):
            assert got[name][col] == pytest.approx(getattr(ref, col).tolist(), abs=1e-12), col
    assert "log_loss" in got["p"] and "log_loss" not in got["q"]


def test_report_by_text_from_parquet(grouped, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import argparse

    import pyarrow.parquet as pq

    from fastauc.cli import _report_parser, run_report

    path, y, p, q, w, region, seg = grouped
    parquet = tmp_path / "grouped.parquet"
    pq.write_table(pa.table({"y": y, "p": p, "region": region}), parquet)
    parser = argparse.ArgumentParser()
    _report_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    assert run_report(parser.parse_args(["report", str(parquet), "--target", "y", "--score",
                                         "p", "--by", "region"]), out=out) == 0
    text = out.getvalue()
    assert "p by region (3 groups" in text
    ref = fastauc.by_group(y, p, region)
    for label, auc in zip(ref.groups["group"], ref.auc):
        line = next(x for x in text.splitlines() if x.startswith(f"{label} "))
        assert f"{auc:.4f}" in line


def test_report_by_missing_label_needs_dropna(tmp_path):
    path = tmp_path / "gaps.csv"
    path.write_text("y,p,g\n0,0.1,a\n1,0.9,\n0,0.3,a\n1,0.8,a\n0,0.5,b\n1,0.7,b\n1,0.4,b\n")
    proc = _run(["report", path, "--target", "y", "--score", "p", "--by", "g"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == ("fastauc: error: group column 'g' has 1 missing label; "
                                   "pass --dropna to drop those rows")
    proc = _run(["report", path, "--target", "y", "--score", "p", "--by", "g", "--dropna",
                 "--json"])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["n_samples"] == 6
    assert got["by_group"]["p"]["g"] == ["a", "b"] and got["by_group"]["p"]["n"] == [3, 3]
    assert got["by_group"]["p"]["auc"] == [1.0, 0.5]


def test_warmup_runs_every_common_call(capsys):
    assert main(["warmup"]) == 0
    assert "kernels compiled or loaded in" in capsys.readouterr().out


def _report_json(args):
    """The JSON report of ``fastauc report ARGS --json``, run in this process."""
    import argparse

    from fastauc.cli import _report_parser, run_report

    parser = argparse.ArgumentParser()
    _report_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    assert run_report(parser.parse_args(["report", *map(str, args), "--json"]), out=out) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_stream_report_equals_in_memory(table, tmp_path, fmt, monkeypatch):
    pytest.importorskip("pyarrow")
    path, y, p, q, w = table
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = tmp_path / "scores.parquet"
        pq.write_table(pa.table({"y": y, "p": p, "q": q, "w": w, "g": np.arange(len(y)) % 3}),
                       path, row_group_size=700)
        by = ["--by", "g"]
    else:
        by = ["--by", "three"]
    monkeypatch.setattr("fastauc.cli._BATCH_ROWS", 500)
    base = [path, "--target", "y", "--score", "p", "--score", "q", "--weight", "w", *by]
    ref = _report_json(base)
    assert_close(_report_json([*base, "--stream"]), ref)
    # a budget the file does not fit in streams it without being asked
    assert_close(_report_json([*base, "--memory-budget", "10K"]), ref)


def test_stream_report_refuses_the_bootstrap_and_plots(table):
    pytest.importorskip("pyarrow")
    path = table[0]
    for extra, words in ((["--ci", "bootstrap"], "--ci delong"), (["--plot", "x.png"], "--plot")):
        proc = _run(["report", path, "--target", "y", "--score", "p", "--stream", *extra])
        assert proc.returncode == 2 and words in proc.stderr, proc.stderr
    proc = _run(["report", path, "--target", "y", "--score", "p", "--memory-budget", "lots"])
    assert proc.returncode == 2 and "--memory-budget" in proc.stderr


# ------------------------------------------------------------------ issue 36

def test_string_labels_name_the_option(table):
    """The library says "pass pos_label explicitly"; the command line names its option."""
    path = table[0]
    for extra in ([], ["--stream"]):
        if extra:
            pytest.importorskip("pyarrow")
        proc = _run(["report", path, "--target", "label", "--score", "p", *extra])
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        line = proc.stderr.strip()
        assert "--pos-label is not given" in line and "pass --pos-label VALUE" in line, line
        assert "pass pos_label" not in line and "pos_label is not specified" not in line
    with pytest.raises(ValueError, match="pass pos_label explicitly"):  # Python callers
        fastauc.report(np.array(["sick", "well"] * 5), np.arange(10.0))


def test_underflowed_pvalue_in_the_text_report(tmp_path):
    rng = np.random.default_rng(1)
    n = 20_000
    y = rng.integers(0, 2, n)
    path = tmp_path / "sure.csv"
    np.savetxt(path, np.column_stack((y, y + 0.01 * rng.normal(size=n), rng.normal(size=n))),
               delimiter=",", header="y,good,noise", comments="", fmt=["%d", "%.6f", "%.6f"])
    proc = _run(["report", path, "--target", "y", "--score", "good", "--score", "noise"])
    assert proc.returncode == 0, proc.stderr
    assert "p < 1e-300" in proc.stdout and "p = 0\n" not in proc.stdout


@pytest.mark.parametrize("weighted", [False, True])
def test_json_counts_are_integers_unless_weighted(table, weighted):
    path = table[0]
    args = [path, "--target", "y", "--score", "p", "--by", "three"]
    got = _report_json([*args, "--weight", "w"] if weighted else args)
    kind = float if weighted else int
    assert type(got["n_positive"]) is kind and type(got["n_negative"]) is kind
    best = got["models"][0]["best"]["f1"]
    assert all(type(best[k]) is kind for k in ("tp", "fp", "tn", "fn")), best
    groups = got["by_group"]["p"]
    assert all(type(x) is kind for x in groups["pos_weight"])
    if not weighted:  # the counts themselves, as integers
        y = table[1]
        assert got["n_positive"] == int(y.sum()) and best["tp"] + best["fn"] == int(y.sum())


# ------------------------------------------------------------------ operating points, calibration

def test_report_operating_points_and_calibration_json(table):
    path, y, p, q, w = table
    proc = _run(["report", path, "--target", "y", "--score", "p", "--score", "q", "--weight",
                 "w", "--at-specificity", "0.9, 0.95", "--at-sensitivity", "0.8", "--json"])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    ref = fastauc.report(y, np.column_stack((p, q)), sample_weight=w, names=["p", "q"],
                         at_specificity=(0.9, 0.95), at_sensitivity=0.8).to_dict()
    assert_close(got, ref)
    model = got["models"][0]
    assert [(x["given"], x["rate"]) for x in model["operating_points"]] == [
        ("specificity", 0.9), ("specificity", 0.95), ("sensitivity", 0.8)]
    c = fastauc.coords(y, p, [0.9, 0.95], input="specificity", ret="sensitivity",
                       sample_weight=w)
    ci = fastauc.coords_ci(y, p, [0.9, 0.95], input="specificity", ret="sensitivity",
                           method="wilson", sample_weight=w)
    for i in range(2):
        x = model["operating_points"][i]
        assert x["interval"] == "wilson"
        assert (x["value"], x["low"], x["high"]) == pytest.approx(
            (c.sensitivity[i], ci.low.sensitivity[i], ci.high.sensitivity[i]), abs=1e-12)
    d = fastauc.brier_decomposition(y, p, sample_weight=w)
    assert model["calibration"]["miscalibration"] == pytest.approx(d.miscalibration, abs=1e-12)
    assert model["calibration"]["ece"] == pytest.approx(
        fastauc.calibration_error(y, p, sample_weight=w), abs=1e-12)
    assert got["models"][1]["calibration"] is None  # q is no probability


def test_report_operating_points_text_and_calibration_switches(table):
    path = table[0]
    out = _report_text([path, "--target", "y", "--score", "p", "--at-specificity", "0.9"])
    assert "p: operating points" in out and "95% CI (Wilson)" in out
    assert "Brier score" in out and "ECE (15 bins)" in out
    out = _report_text([path, "--target", "y", "--score", "p", "--no-calibration"])
    assert "Brier score" not in out and "operating points" not in out
    out = _report_text([path, "--target", "y", "--score", "p", "--ci", "bootstrap",
                        "--n-resamples", "50", "--at-sensitivity", "0.8"])
    assert "95% CI (bootstrap)" in out
    proc = _run(["report", path, "--target", "y", "--score", "q", "--calibration"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--calibration needs probabilities" in proc.stderr
    assert "drop --calibration" in proc.stderr


def _report_text(args):
    import argparse

    from fastauc.cli import _report_parser, run_report

    parser = argparse.ArgumentParser()
    _report_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    assert run_report(parser.parse_args(["report", *map(str, args)]), out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("extra,words", [
    (["--at-specificity", "1.2"], ["--at-specificity", "not a rate in [0, 1]"]),
    (["--at-specificity", "0.9,x"], ["--at-specificity", "'x' is not a number"]),
    (["--at-sensitivity", ","], ["--at-sensitivity needs rates in [0, 1]"]),
    (["--at-sensitivity", "nan"], ["not a rate in [0, 1]"]),
    (["--dask", "--at-specificity", "0.9"], ["not available with --dask"]),
    (["--spark", "--at-sensitivity", "0.8"], ["not available with --spark"]),
])
def test_report_operating_points_bad_values(table, extra, words):
    proc = _run(["report", table[0], "--target", "y", "--score", "p", *extra])
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fastauc: error:"), proc.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_stream_report_operating_points_equal_in_memory(table, monkeypatch):
    pytest.importorskip("pyarrow")
    path = table[0]
    monkeypatch.setattr("fastauc.cli._BATCH_ROWS", 500)
    base = [path, "--target", "y", "--score", "p", "--score", "q", "--weight", "w",
            "--at-specificity", "0.9", "--at-sensitivity", "0.7,0.8"]
    assert_close(_report_json([*base, "--stream"]), _report_json(base))
