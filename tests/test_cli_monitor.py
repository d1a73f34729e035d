"""``fastauc monitor``: the numbers of auc_over_time from a CSV or Parquet
file, in memory and read in batches, and the exit status."""

from __future__ import annotations

import json

import numpy as np
import pytest

import fastauc
from fastauc.cli import main

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    rng = np.random.default_rng(3)
    n = 20000
    minutes = rng.integers(0, 12 * 24 * 60, n)
    t = np.datetime64("2026-03-01") + minutes * np.timedelta64(1, "m")
    day = minutes // (24 * 60)
    y = rng.integers(0, 2, n).astype(float)
    p = np.round(1 / (1 + np.exp(-(y * (1.6 - 0.09 * day) + rng.normal(size=n) - 0.7))), 3)
    w = rng.choice([0.5, 1.0, 2.0], n)
    y[day >= 11] = np.nan  # the last day is not labelled yet
    df = pd.DataFrame({"ts": t, "label": y, "p": p, "w": w})
    d = tmp_path_factory.mktemp("monitor")
    df.to_parquet(d / "scores.parquet")
    df.to_csv(d / "scores.csv", index=False)
    return d, t, y, p, w


def _json(capsys, argv):
    status = main(argv + ["--json"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", ["scores.parquet", "scores.csv"])
@pytest.mark.parametrize("weighted", [False, True])
def test_in_memory_and_streamed_equal_auc_over_time(files, capsys, name, weighted):
    d, t, y, p, w = files
    argv = ["monitor", str(d / name), "--target", "label", "--score", "p", "--time", "ts",
            "--freq", "1D", "--window", "2D", "--fail-on", "never"]
    if weighted:
        argv += ["--weight", "w"]
    ref = fastauc.auc_over_time(y, p, t, freq="1D", window="2D",
                                sample_weight=w if weighted else None)
    for extra in ([], ["--stream"]):
        status, got = _json(capsys, argv + extra)
        assert status == 0
        np.testing.assert_allclose(got["auc"], ref.auc, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(got["se"], ref.se, rtol=1e-9)
        np.testing.assert_allclose(got["pvalue_adjusted"], ref.pvalue_adjusted, rtol=1e-8)
        np.testing.assert_allclose(got["expected_auc"], ref.expected_auc, rtol=1e-12)
        np.testing.assert_allclose(got["log_loss"], ref.log_loss, rtol=1e-12)
        assert got["flag"] == ref.flag.tolist() and got["n"] == ref.n.tolist()
        assert got["start"][0].startswith("2026-03-01")


def test_exit_status_text_and_plot(files, capsys, tmp_path):
    d = files[0]
    argv = ["monitor", str(d / "scores.parquet"), "--target", "label", "--score", "p",
            "--time", "ts", "--window", "2D"]
    assert main(argv + ["--plot", str(tmp_path / "auc.png")]) == 1  # the model has drifted
    text = capsys.readouterr().out
    assert "DROP" in text and "reference AUC" in text
    assert (tmp_path / "auc.png").stat().st_size > 1000
    assert main(argv + ["--fail-on", "never"]) == 0
    capsys.readouterr()
    status, got = _json(capsys, argv + ["--reference", "-2", "--alternative", "greater",
                                        "--adjust", "none"])
    assert status == 1 and got["flag"][0]  # the first days beat the second-last
    status, got = _json(capsys, argv + ["--reference", "2026-03-01,2026-03-03"])
    assert np.isnan(got["pvalue"][0]) and not np.isnan(got["pvalue"][3])
    assert main(argv + ["--reference", "none"]) == 0


def test_monitor_errors(files, capsys):
    d = files[0]
    base = ["monitor", str(d / "scores.parquet"), "--target", "label", "--score", "p"]
    with pytest.raises(SystemExit) as info:
        main(base + ["--time", "nope"])
    assert info.value.code == 2 and "nope" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(base + ["--time", "ts", "--freq", "1D", "--window", "36h"])
    assert "whole number of periods" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(base + ["--time", "ts", "--reference", "somewhere"])
    assert "--reference" in capsys.readouterr().err


def test_report_background_columns(tmp_path, capfd):
    rng = np.random.default_rng(1)
    path = tmp_path / "g.csv"
    pd.DataFrame({"y": rng.integers(0, 2, 2000), "p": rng.random(2000),
                  "g": rng.choice(["a", "b"], 2000)}).to_csv(path, index=False)
    base = ["report", str(path), "--target", "y", "--score", "p", "--by", "g", "--background"]
    assert main(base + ["--json"]) == 0
    in_memory = capfd.readouterr().out
    assert "bpsn_auc" in in_memory
    assert main(base + ["--json", "--stream"]) == 0  # from the groups' tables
    streamed = capfd.readouterr().out
    import json

    a, b = json.loads(in_memory)["by_group"]["p"], json.loads(streamed)["by_group"]["p"]
    for col in ("bpsn_auc", "bnsp_auc", "bpsn_low", "bnsp_high"):
        np.testing.assert_allclose(b[col], a[col], rtol=1e-12, atol=1e-12)
    with pytest.raises(SystemExit):
        main(base + ["--dask"])
    assert "--background needs" in capfd.readouterr().err
