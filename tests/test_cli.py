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
