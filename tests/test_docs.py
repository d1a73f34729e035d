"""The documentation's sources, checked without building the site.

- The API reference (``docs/api/*.rst``) lists exactly the public API: the
  ``__all__`` of the modules ``docs/conf.py`` names, read from the source
  (no import: the optional engines need not be installed).
- The pages speak to users: no words about how the project was worked on
  (work items, sessions, goals) in what a user reads.

``make -C docs html`` builds the site itself (``docs/Makefile``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PACKAGE = ROOT / "fastauc"


# -- the reference lists the public API ---------------------------------------

def _module_file(module):
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _assigned(path, name):
    """The literal value assigned to ``name`` at the top of ``path``, or None."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return ast.literal_eval(node.value)
    return None


def _public_modules():
    return _assigned(DOCS / "conf.py", "PUBLIC_MODULES")


def _lazy_classes():
    """``fastauc.AUCLinearClassifier`` and the like: public, loaded on first use."""
    return {f"fastauc.{name}" for name in _assigned(PACKAGE / "__init__.py", "_LAZY_CLASSES")}


def _public_api():
    names = set(_lazy_classes())
    for module in _public_modules():
        names |= {f"{module}.{name}" for name in _assigned(_module_file(module), "__all__")}
    return names


_DIRECTIVE = re.compile(r"^\.\.\s+([\w:-]+)::\s*(.*)$")


def _documented():
    """Every autosummary entry of docs/api/*.rst, fully qualified, in order."""
    entries = []
    for page in sorted((DOCS / "api").glob("*.rst")):
        module, in_table = None, False
        for line in page.read_text(encoding="utf-8").splitlines():
            directive = _DIRECTIVE.match(line.strip()) if not line[:1].isspace() else None
            if directive:
                in_table = directive.group(1) == "autosummary"
                if directive.group(1) in ("currentmodule", "module", "py:currentmodule"):
                    module = directive.group(2).strip()
                continue
            if not in_table:
                continue
            entry = line.strip()
            if line and not line[:1].isspace():  # the table's end
                in_table = False
            elif entry and not entry.startswith(":"):
                entry = entry.lstrip("~")
                qualified = entry if entry.startswith("fastauc.") else f"{module}.{entry}"
                entries.append((page.name, qualified))
    return entries


def test_reference_lists_exactly_the_public_api():
    documented = [name for _, name in _documented()]
    twice = sorted({n for n in documented if documented.count(n) > 1})
    assert not twice, f"listed twice in docs/api: {twice}"
    public = _public_api()
    missing = sorted(public - set(documented))
    unknown = sorted(set(documented) - public)
    assert not missing, f"public names without a page in docs/api/*.rst: {missing}"
    assert not unknown, f"docs/api/*.rst lists names outside the public API: {unknown}"


# Modules with an __all__ whose names the reference leaves out, and why.
NOT_IN_REFERENCE = {
    "fastauc.cli": "the command line: the guide documents the fastauc command",
    "fastauc.naive": "slow definitions that the tests compare with, not for use",
    "fastauc.dask.ranges": "the graph steps the fastauc.dask functions share",
}


def test_every_public_module_is_in_the_reference():
    """A module without an underscore whose __all__ names something not listed
    is either a public module (docs/conf.py's PUBLIC_MODULES) or left out of
    the reference on purpose (NOT_IN_REFERENCE)."""
    public_modules = set(_public_modules())
    public = _public_api()
    short = {}
    for name in public:
        module, _, attr = name.rpartition(".")
        short.setdefault(module, set()).add(attr)
    unlisted = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        if any(p.startswith("_") for p in parts) or module in public_modules:
            continue
        names = _assigned(path, "__all__")
        if not names or module in NOT_IN_REFERENCE:
            continue
        # a module whose names its package exports: fastauc.ranking, fastauc.dask.metrics
        package = ".".join(parts[:-1])
        left = set(names) - short.get(package, set())
        if left:
            unlisted.append(f"{module}: {sorted(left)}")
    assert not unlisted, (
        "public modules whose names the API reference does not list; add the module to "
        f"PUBLIC_MODULES in docs/conf.py and its names to docs/api: {unlisted}")


def test_documented_names_import():
    """The entries name real objects (what autosummary will import), for the
    modules that import without their optional engines."""
    import importlib

    failed = []
    for page, name in _documented():
        module, _, attr = name.rpartition(".")
        if module == "fastauc.torch":
            try:
                import torch  # noqa: F401
                import torchmetrics  # noqa: F401
            except ImportError:
                continue
        if name == "fastauc.AUCLinearClassifier":
            pytest.importorskip("sklearn")
        if not hasattr(importlib.import_module(module), attr):
            failed.append(f"{page}: {name}")
    assert not failed, f"docs/api entries that name nothing: {failed}"


# -- the pages speak to users ------------------------------------------------

# Other projects whose issues a page may cite ("pROC issue 57").
OTHER_PROJECTS = (
    r"pROC|scikit-learn|sklearn|torchmetrics|PyTorch|torch|numba|numba-cuda|NumPy|SciPy|"
    r"pandas|polars|pyarrow|Arrow|Dask|distributed|Spark|PySpark|LightGBM|XGBoost|CuPy|"
    r"JAX|matplotlib|Sphinx|numpydoc|sphinx-gallery|CPython|Python"
)

# Words that speak of how fastauc was worked on rather than to its users:
# (pattern, why a user-facing page has no use for it, where it applies: "all"
# files or only the "prose" pages (Markdown, reST, the README), and an
# exception or None: ("before", regex) allows the match when the regex finds
# the line's text up to it, ("near", regex) when it finds the file's path or
# the text around it: 80 characters either side and the two lines either side).
WORK_WORDS = [
    (r"(?i)\bissues?\s*#?\d+",
     "a number of the project's own work items means nothing to a reader",
     "all", ("before", rf"(?i)\b(?:{OTHER_PROJECTS})(?:'s|')?\s+$")),  # "pROC issue 57"
    (r"\b[Ss]ession\b",
     "the session that wrote a page is not the reader's: say what holds for the user",
     "all", ("near", r"(?i)spark")),  # "the Spark session's master"
    (r"(?i)\bprevious run\b",
     "the reader has no previous run: give the numbers and how much they vary", "all", None),
    (r"(?i)\bnot measured yet\b", "a page says what is known, or leaves the row out", "all", None),
    (r"(?i)\bgoals?\b(?: met)?",
     "speed goals were targets of the work, not facts for users: give the measured "
     "number and what it is compared with", "prose", None),
    (r"(?i)\bwork items?\b", "the project's planning, not the reader's", "all", None),
    (r"(?i)\brounds? of work\b", "the project's history, not the reader's", "all", None),
    (r"(?i)\bthis machine\b",
     "the reader's machine is another: name the one the numbers come from "
     "('a 2-core Intel Xeon')",
     "all", ("before", r"kernels for $")),  # fastauc's compile message: the user's machine
    (r"(?i)\bwhat was tried\b", "the history of the work: say what holds and why", "all", None),
]

_NEAR = 80


def _hits(line, prose=True, around=""):
    """The work words of one line, each with why it is flagged; ``around`` is
    the file's path and the lines next to it."""
    hits = []
    for pattern, why, where, allow in WORK_WORDS:
        if where == "prose" and not prose:
            continue
        for match in re.finditer(pattern, line):
            if allow:
                kind, regex = allow
                text = (line[:match.start()] if kind == "before" else
                        line[max(0, match.start() - _NEAR):match.end() + _NEAR] + around)
                if re.search(regex, text):
                    continue
            hits.append((match.group(0), why))
    return hits


def _user_facing_files():
    generated = (DOCS / "_build", DOCS / "auto_examples", DOCS / "api" / "generated")
    files = [ROOT / "README.md"]
    files += sorted(DOCS.rglob("*.md")) + sorted(DOCS.rglob("*.rst"))
    files += sorted(PACKAGE.rglob("*.py")) + sorted((ROOT / "examples").rglob("*.py"))
    return [f for f in files
            if f.is_file() and not any(g in f.parents for g in generated)]


def _work_words():
    found = []
    for path in _user_facing_files():
        prose = path.suffix in (".md", ".rst")
        lines = path.read_text(encoding="utf-8").splitlines()
        name = str(path.relative_to(ROOT))
        for number, line in enumerate(lines, 1):
            around = "\n".join([name, *lines[max(0, number - 3):number - 1], *lines[number:number + 2]])
            for word, why in _hits(line, prose, around):
                found.append(f"{path.relative_to(ROOT)}:{number}: {word!r}: {why}")
    return found


def test_pages_speak_to_users():
    found = _work_words()
    assert not found, "words about the work, not for users:\n" + "\n".join(found)


@pytest.mark.parametrize("text, flagged", [
    ("see issue 38 for the goals", True),
    ("issue #12", True),
    ("GitHub issue 12", True),
    ("as in pROC issue 57", False),
    ("scikit-learn issue #1234 reports it", False),
    ("torchmetrics' issue 99", False),
    ("scikit-learn's issue 5", False),
    ("the session that built this path", True),
    ("the Spark session's default master", False),
    ("spark = SparkSession.builder.getOrCreate()", False),
    ("a local session and a DataFrame", True),
    ("the previous run's numbers", True),
    ("Not measured yet: no GPU", True),
    ("7.6x (goal <= 10x)", True),
    ("on this machine, 2.1 s", True),
    ("compiling its kernels for this machine, first run only", False),
    ("three rounds of work", True),
    ("100 boosting rounds", False),
])
def test_work_words_rules(text, flagged):
    assert bool(_hits(text)) == flagged, _hits(text)
