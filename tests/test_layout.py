"""The architecture, checked: what may import what, where compiled code lives,
what the result types are."""

import ast
import dataclasses
import pathlib

import pytest

import fastauc

PKG = pathlib.Path(fastauc.__file__).parent
PUBLIC = sorted(p for p in PKG.glob("*.py") if not p.name.startswith("_"))
PRIVATE = sorted(p for p in PKG.glob("_*.py") if p.name not in ("__init__.py", "__main__.py"))


def _imports(path):
    """``(module, [names])`` of every relative ``from .x import ...`` in a file."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            yield node.module or "", [a.name for a in node.names], node.lineno


@pytest.mark.parametrize("path", PUBLIC + PRIVATE, ids=lambda p: p.name)
def test_no_private_name_comes_from_a_public_module(path):
    """Shared machinery lives in ``_``-prefixed modules: a module takes only public
    names from a public module, never its private helpers."""
    bad = [f"line {line}: from .{mod} import {name}"
           for mod, names, line in _imports(path)
           if mod and not mod.split(".")[0].startswith("_")
           for name in names if name.startswith("_")]
    assert not bad, bad


@pytest.mark.parametrize("path", PRIVATE, ids=lambda p: p.name)
def test_private_modules_do_not_import_public_ones(path):
    """The private layer sits below the public one (no cycles through it)."""
    bad = [f"line {line}: from .{mod} import ..." for mod, _, line in _imports(path)
           if mod and not mod.split(".")[0].startswith("_")]
    assert not bad, bad


@pytest.mark.parametrize("path", PUBLIC + PRIVATE, ids=lambda p: p.name)
def test_compiled_code_lives_under_kernels(path):
    if path.name == "_jit.py":
        return
    text = path.read_text()
    tree = ast.parse(text)
    decorated = [f"{node.name} (line {node.lineno})" for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef)
                 for d in node.decorator_list
                 if "jit" in ast.unparse(d)]
    assert not decorated, decorated
    assert "import numba" not in text and "from numba" not in text


def test_result_types_are_frozen_dataclasses():
    for name in fastauc.__all__:
        obj = getattr(fastauc, name)
        if not isinstance(obj, type) or issubclass(obj, Warning) or obj in (
                fastauc.Accumulator, fastauc.Window, fastauc.AUCLinearClassifier):
            continue  # mutable state (an accumulator, a window, an estimator), not a result
        assert dataclasses.is_dataclass(obj), name
        assert obj.__dataclass_params__.frozen, name


def test_kernels_import_no_python_layer():
    for path in (PKG / "_kernels").glob("*.py"):
        for mod, _, line in _imports(path):
            assert mod.startswith(("_", "sorting", "table", "sweeps", "losses", "thresholds",
                                   "placements", "resampling", "ranks")) or \
                mod == "", (path.name, mod, line)


def _absolute_imports(path):
    """Top-level names of every absolute import in a file."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_the_adapters_shared_layer_sits_between():
    """``fastauc._adapters`` (what fastauc.dask and fastauc.spark share) imports
    no engine, and no in-memory module imports it."""
    shared = sorted((PKG / "_adapters").glob("*.py"))
    assert shared
    for path in shared:
        engines = {"dask", "distributed", "pyspark"} & set(_absolute_imports(path))
        assert not engines, (path.name, engines)
    for path in PUBLIC + PRIVATE:
        assert "_adapters" not in path.read_text(), path.name
