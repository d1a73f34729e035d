"""Optional extras: without the package an extra installs, the error names
the extra, with the install line the docs use (``pip install "fastauc[x]"``:
double quotes work in Windows' cmd too)."""

import importlib
import sys

import pytest

import fastauc

SKLEARN_HINT = 'pip install "fastauc[sklearn]"'


def _fresh_import_error(monkeypatch, module):
    """The ImportError of importing ``module`` anew (its cached copy is put
    back after the test)."""
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError) as info:
        importlib.import_module(module)
    return info.value


@pytest.mark.parametrize("blocked", ["sklearn", "scipy"])
def test_linear_classifier_names_the_sklearn_extra(block_import, monkeypatch, blocked):
    pytest.importorskip("sklearn")
    block_import(blocked)
    err = _fresh_import_error(monkeypatch, "fastauc.linear_model")
    assert str(err) == ("fastauc.AUCLinearClassifier needs scikit-learn and scipy: "
                        + SKLEARN_HINT)
    assert isinstance(err.__cause__, ImportError)  # chained from the original
    assert str(err.__cause__) == f"no {blocked}"


def test_linear_classifier_from_the_package_names_the_extra(block_import, monkeypatch):
    """``fastauc.AUCLinearClassifier`` (imported on first use) raises the same."""
    pytest.importorskip("sklearn")
    monkeypatch.delitem(sys.modules, "fastauc.linear_model", raising=False)
    block_import("sklearn")
    with pytest.raises(ImportError, match=r'needs scikit-learn and scipy: pip install '
                                          r'"fastauc\[sklearn\]"'):
        fastauc.AUCLinearClassifier  # noqa: B018 - the lazy import is the test


def test_sklearn_module_names_the_sklearn_extra(block_import, monkeypatch):
    pytest.importorskip("sklearn")
    block_import("sklearn")
    err = _fresh_import_error(monkeypatch, "fastauc.sklearn")
    assert str(err) == "fastauc.sklearn needs scikit-learn: " + SKLEARN_HINT
    assert isinstance(err.__cause__, ImportError)
    assert str(err.__cause__) == "no sklearn"


def test_plots_name_the_plot_extra_in_double_quotes(block_import):
    from fastauc._plotting import _pyplot

    block_import("matplotlib")
    with pytest.raises(ImportError) as info:
        _pyplot()
    assert str(info.value) == 'plotting needs matplotlib: pip install "fastauc[plot]"'


@pytest.mark.parametrize("module, loader, blocked, message", [
    ("fastauc.dask.ranges", "load_dask", "dask",
     'fastauc.dask needs dask: pip install "fastauc[dask]"'),
    ("fastauc.spark.ranges", "load_spark", "pyspark",
     'fastauc.spark needs pyspark and pyarrow: pip install "fastauc[spark]"'),
], ids=["dask", "spark"])
def test_engines_name_their_extra_in_double_quotes(block_import, module, loader, blocked,
                                                    message):
    ranges = pytest.importorskip(module)
    block_import(blocked)
    with pytest.raises(ImportError) as info:
        getattr(ranges, loader)()
    assert str(info.value) == message
