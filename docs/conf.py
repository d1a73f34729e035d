"""Sphinx configuration of fastauc's documentation site.

Build it with ``make -C docs html`` (``docs/Makefile``): pages from Markdown
(MyST), the API reference from the docstrings (autosummary + numpydoc, one
page per public name, each docstring checked by numpydoc's validation), and
the examples gallery from ``examples/plot_*.py`` (sphinx-gallery, which runs
the scripts; ``make -C docs html-noplot`` skips running them).
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# the checkout's fastauc, even where another one is installed
sys.path.insert(0, str(ROOT))

# fastauc.torch's reference pages document torch.nn.Module and torchmetrics
# classes.  The docs extra leaves torch out (from PyPI it is a CUDA build of
# several GB): without it autodoc reads fastauc.torch with torch and
# torchmetrics mocked (the pages keep their docstrings, signatures and
# examples as text), and the one gallery script that trains a PyTorch model
# is not run.  With PyTorch installed (its CPU build will do), every page and
# example is built from the real modules; CI builds it so.
try:
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401

    TORCH = True
except ImportError:
    TORCH = False
    autodoc_mock_imports = ["torch", "torchmetrics"]

import fastauc  # noqa: E402

project = "fastauc"
author = "the fastauc developers"
copyright = "the fastauc developers"
release = fastauc.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "sg_execution_times.rst"]
templates_path = ["_templates"]

# -- Markdown (MyST) ---------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
# "#some-heading" links between and within pages, as GitHub renders them
myst_heading_anchors = 3

# -- The public API ----------------------------------------------------------
# Every name a user imports: the __all__ of fastauc and of its public
# submodules, and AUCLinearClassifier (fastauc.AUCLinearClassifier, loaded on
# first use, so that ``from fastauc import *`` does not need scikit-learn).
# tests/test_docs.py checks that docs/api lists exactly these.
PUBLIC_MODULES = ("fastauc", "fastauc.dask", "fastauc.spark", "fastauc.torch",
                  "fastauc.sklearn", "fastauc.objectives", "fastauc.deploy",
                  "fastauc.streaming")
def _public_names():
    return sorted(
        {f"{m}.{name}" for m in PUBLIC_MODULES for name in importlib.import_module(m).__all__}
        | {f"fastauc.{name}" for name in fastauc._LAZY_CLASSES})


if TORCH:
    PUBLIC_NAMES = _public_names()
else:
    from sphinx.ext.autodoc.mock import mock

    # scikit-learn and scipy look for torch as they import (array API
    # support): imported first, they find none, not the mock
    import scipy.stats  # noqa: F401
    import sklearn.base  # noqa: F401
    import sklearn.metrics  # noqa: F401

    with mock(autodoc_mock_imports):
        PUBLIC_NAMES = _public_names()

# -- API reference: autosummary and autodoc ----------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_typehints = "none"  # numpydoc's Parameters section says the types
add_module_names = False
# A method without a docstring of its own is left out, rather than shown with
# its base class's words (torch.nn.Module.forward's speak of Module)
autodoc_inherit_docstrings = False
# fastauc.report (a function) and fastauc.Report (a class) would be the same
# file where file names ignore case (macOS, Windows): give the class's page
# another name there
_lower = {}
for _name in PUBLIC_NAMES:
    _lower.setdefault(_name.lower(), []).append(_name)
autosummary_filename_map = {
    n: n + "-class" for names in _lower.values() if len(names) > 1
    for n in names if n.rsplit(".", 1)[1][:1].isupper()
}

# Every cross-reference must resolve: a link in a docstring to a fastauc name
# that has no page is an error.  Other libraries' names (sklearn.metrics.auc,
# torchmetrics' classes...) stay plain text: the build reads no inventory from
# the network.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(?:numpy|np|scipy|sklearn|torch|torchmetrics|lightning|dask|distributed|"
               r"pyspark|pandas|pd|polars|pyarrow|cupy|jax|numba|lightgbm|xgboost|"
               r"matplotlib)(?:\..*)?"),
]

# -- numpydoc ----------------------------------------------------------------
numpydoc_show_class_members = False  # the class template lists the members
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
# Every public name's docstring is checked as the page is built: a name
# without a docstring (GL08); parameters undocumented, unknown or out of
# order (PR01, PR02, PR03, PR10: a missing space before the colon); no
# Returns (RT01), no Examples (EX01), no See Also (SA01).  The same set as
# ``numpydoc.validate.validate("fastauc.roc_auc_score")`` is checked with.
numpydoc_validation_checks = {"GL08", "PR01", "PR02", "PR03", "PR10", "RT01", "EX01", "SA01"}
if tags.has("novalidate"):  # noqa: F821 - sphinx-build -t novalidate: pages only
    numpydoc_validation_checks = set()
# Checked: the public names themselves, not their methods and attributes
# (an Examples and a See Also for every method would be the class's own
# examples again).
# Nor the public constants (fastauc.sklearn.SCORERS...): a ``#:`` comment
# above the constant is their documentation, without sections.
def _constants():
    return {n for n in PUBLIC_NAMES if not callable(
        getattr(importlib.import_module(n.rpartition(".")[0]), n.rpartition(".")[2]))}


if TORCH:
    _CONSTANTS = _constants()
else:
    with mock(autodoc_mock_imports):
        _CONSTANTS = _constants()
numpydoc_validation_exclude = {
    r"^(?!(?:" + "|".join(re.escape(n) for n in PUBLIC_NAMES if n not in _CONSTANTS) + r")$)"
}
# A result record (a frozen dataclass such as ConfidenceInterval) documents
# its fields under Attributes, not Parameters: no user builds one.  So PR01
# (parameters not documented) is not reported for a docstring that has an
# Attributes section and no Parameters section.
numpydoc_validation_overrides = {
    "PR01": [r"(?m:\A(?![\s\S]*^[ \t]*Parameters\n[ \t]*-{3,}$)(?=[\s\S]*^[ \t]*Attributes\n[ \t]*-{3,}$))"],
}

# -- HTML --------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"fastauc {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_sidebars = {"index": []}
html_copy_source = False
html_show_sourcelink = False

# -- Examples gallery (sphinx-gallery) ---------------------------------------
EXAMPLES = ROOT / "examples"
GALLERY = (EXAMPLES / "README.rst").is_file() or (EXAMPLES / "README.txt").is_file()
if GALLERY:
    extensions.append("sphinx_gallery.gen_gallery")
    sphinx_gallery_conf = {
        "examples_dirs": "../examples",
        "gallery_dirs": "auto_examples",
        "filename_pattern": r"/plot_",
        "within_subsection_order": "FileNameSortKey",
        # "Examples using fastauc.roc_auc_score" on each reference page
        "doc_module": ("fastauc",),
        "backreferences_dir": "api/generated/backreferences",
        "reference_url": {"fastauc": None},
        "remove_config_comments": True,
        "show_memory": False,
        "matplotlib_animations": False,
    }
    if not TORCH:  # the script that trains a PyTorch model needs torch
        sphinx_gallery_conf["ignore_pattern"] = r"__init__\.py|plot_train_torch\.py"
autosummary_context = {"gallery": GALLERY}


# -- Members another library puts on fastauc's classes -----------------------
# scikit-learn gives every estimator set_fit_request & co. (metadata routing):
# their docstrings are scikit-learn's, with its glossary's links.
_FOREIGN = ("sklearn", "torch", "torchmetrics", "lightning")


def _skip_foreign_members(app, what, name, obj, skip, options):
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and module.split(".")[0] in _FOREIGN:
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_members)
