"""Collection rules for the whole run: ``pytest`` collects ``tests`` and, for
the doctests (``--doctest-modules``), every module of ``fastauc``
(``pyproject.toml``'s ``testpaths``).

``fastauc/torch.py`` and the ``fastauc/_torch*.py`` modules behind it import
torch and torchmetrics, the ``torch`` extra, which the ``test`` extra leaves
out (from PyPI, torch is a CUDA build of several GB; README, "Contributing").
Without them those modules' doctests are skipped, with the reason in
``pytest -rs``'s summary, instead of failing to import.  (A conftest's
``collect_ignore`` would leave them out silently, and only below its own
folder: so this file, at the root, above both.)
"""

import importlib.util
from pathlib import Path

import pytest

_TORCH_MISSING = [name for name in ("torch", "torchmetrics")
                  if importlib.util.find_spec(name) is None]
_PACKAGE = Path(__file__).parent / "fastauc"


def _needs_torch(path: Path) -> bool:
    return path.parent == _PACKAGE and (path.name == "torch.py" or
                                        (path.name.startswith("_torch") and path.suffix == ".py"))


class _SkippedModule(pytest.File):
    """A module that cannot be imported here: collecting it reports a skip."""

    def collect(self):
        pytest.skip(f"{self.path.name}'s doctests: {' and '.join(_TORCH_MISSING)} not "
                    'installed (the torch extra: pip install "fastauc[torch]"; README, '
                    '"Contributing", for the CPU build)')


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path, parent):
    collected = yield
    if _TORCH_MISSING and _needs_torch(file_path):
        return [_SkippedModule.from_parent(parent, path=file_path)]
    return collected
