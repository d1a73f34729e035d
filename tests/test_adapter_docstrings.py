"""The docstrings of the optional modules (``fastauc.dask``, ``fastauc.spark``,
``fastauc.torch``, ``fastauc.sklearn``, ``fastauc.objectives``,
``fastauc.deploy``, ``AUCLinearClassifier``).

- The cluster adapters' parameters come from one table
  (``fastauc._adapters.docstrings``): every placeholder is filled, every
  shared parameter reads as the table says, an unknown key fails at import.
- Every public name passes the numpydoc checks the API reference is built
  with (``docs/conf.py``); a constant is checked on its attribute docstring,
  the text Sphinx renders for it.
- The examples of those attribute docstrings run (doctest does not collect
  them from the modules).
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import re
from pathlib import Path

import pytest

from fastauc._adapters.docstrings import PARAMETERS, Engine, Param, dask_doc, spark_doc

ROOT = Path(__file__).resolve().parents[1]
CHECKS = {"GL08", "PR01", "PR02", "PR03", "PR10", "RT01", "EX01", "SA01"}
ENGINES = {"fastauc.dask": dask_doc, "fastauc.spark": spark_doc}
MODULES = {  # module -> the optional packages its names need
    "fastauc.dask": (), "fastauc.spark": (), "fastauc.torch": ("torch", "torchmetrics"),
    "fastauc.sklearn": ("sklearn",), "fastauc.objectives": (), "fastauc.deploy": (),
    "fastauc.linear_model": ("sklearn", "scipy"),
}
CONSTANTS = {"fastauc.sklearn": ("FUNCTIONS", "SCORERS"), "fastauc.deploy": ("GROUPS",)}


def _module(name):
    for package in MODULES[name]:
        pytest.importorskip(package)
    return importlib.import_module(name)


def _names(module):
    if module == "fastauc.linear_model":
        return ["AUCLinearClassifier"]
    return list(_module(module).__all__)


def _attribute_docs(module):
    """``{name: docstring}`` of the string literals right after a module-level
    assignment (what Sphinx's autodoc renders for a constant)."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    body = ast.parse(path.read_text(encoding="utf-8")).body
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.Assign) and isinstance(after, ast.Expr) and \
                isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    docs[target.id] = inspect.cleandoc(after.value.value)
    return docs


# -- the adapters' table ------------------------------------------------------

@pytest.mark.parametrize("module", sorted(ENGINES))
def test_adapter_placeholders_are_filled(module):
    mod = _module(module)
    for name in mod.__all__:
        doc = getattr(mod, name).__doc__
        leftover = re.findall(r"^\s*\{[\w*/]+\}\s*$|>>> SESSION", doc, re.M)
        assert not leftover, (name, leftover)


@pytest.mark.parametrize("module", sorted(ENGINES))
def test_adapter_shared_parameters_come_from_the_table(module):
    """A parameter the table describes reads, in every adapter function, as
    one of the table's entries for that name: nothing written beside it."""
    engine = ENGINES[module]
    mod = _module(module)
    by_name = {}
    for key in list(PARAMETERS) + list(engine.parameters):
        by_name.setdefault(key.split("/")[0], []).append(engine.block(key, "    "))
    checked = 0
    for name in mod.__all__:
        doc = getattr(mod, name).__doc__
        params = inspect.signature(getattr(mod, name)).parameters
        for param in params.values():
            shown = "**" + param.name if param.kind is param.VAR_KEYWORD else param.name
            if shown in by_name and not (name == "report" and shown in ("y_true", "y_scores")):
                assert any(block in doc for block in by_name[shown]), (name, shown)
                checked += 1
    assert checked > 50


def test_adapter_table_refuses_unknown_keys_and_fields():
    with pytest.raises(KeyError, match="no_such_parameter"):
        dask_doc.fill("    Parameters\n    ----------\n    {no_such_parameter}\n")
    engine = Engine("dask", fields={}, leads={}, notes={},
                    parameters={"x": Param("{unknown}", "An option.")})
    with pytest.raises(KeyError, match="unknown"):
        engine.fill("    {x}\n")
    with pytest.raises(ValueError, match="redefines"):
        Engine("dask", fields={}, leads={}, notes={}, parameters={"y_true": Param("", "")})


def test_adapter_blocks_read_as_numpydoc():
    """Spark's columns are named in ``df``; literals and sets are not broken."""
    block = spark_doc.block("sample_weight/delong", "    ")
    assert block.startswith("    sample_weight : str, default=None\n        Column of ``df`` "
                            "with the non-negative frequency weights")
    assert dask_doc.block("y_true/curve").startswith(
        "y_true : dask array, dask Series or array-like of shape (n_samples,)\n"
        "    True binary labels.")
    for key in PARAMETERS:
        for engine in ENGINES.values():
            for line in engine.block(key).splitlines()[1:]:
                assert line.count("``") % 2 == 0, (key, line)


# -- numpydoc's checks ----------------------------------------------------------

@pytest.mark.parametrize("module", sorted(MODULES))
def test_public_docstrings_pass_numpydoc_checks(module):
    pytest.importorskip("numpydoc")
    from numpydoc.docscrape import get_doc_object
    from numpydoc.validate import validate

    mod = _module(module)
    constants = _attribute_docs(module) if module in CONSTANTS else {}
    failed = []
    for name in _names(module):
        if name in CONSTANTS.get(module, ()):
            report = validate(get_doc_object(getattr(mod, name), what="data",
                                             doc=constants[name]))
        else:
            report = validate(f"{module}.{name}")
        failed += [f"{module}.{name}: {code} {message}"
                   for code, message in report["errors"] if code in CHECKS]
    assert not failed, "\n".join(failed)


# -- the constants' examples --------------------------------------------------

@pytest.mark.parametrize("module, name", [(m, n) for m, names in CONSTANTS.items()
                                          for n in names])
def test_constants_are_documented_and_their_examples_run(module, name):
    _module(module)
    doc = _attribute_docs(module).get(name)
    assert doc and "Examples\n--------" in doc, name
    test = doctest.DocTestParser().get_doctest(doc, {}, f"{module}.{name}", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0, (name, runner.summarize(verbose=False))
