"""fastauc's global configuration: where a call computes.

The same three functions as scikit-learn's (``set_config``, ``get_config``,
``config_context``), with settings kept per thread (a thread starts from the
values set globally), so that a ``with config_context(device="cuda")`` in one
thread does not move another thread's calls.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

DEVICES = ("auto", "cpu", "cuda")

_global = {"device": "auto"}
_local = threading.local()


def _settings() -> dict:
    if not hasattr(_local, "settings"):
        _local.settings = dict(_global)
    return _local.settings


def get_config() -> dict:
    """The current settings of this thread, as a new dict.

    Returns
    -------
    dict
        ``{"device": ...}``: ``"auto"`` (compute where the scores are: on the
        GPU for CUDA arrays, else on the CPU), ``"cpu"`` or ``"cuda"``.

    See Also
    --------
    set_config : Change the settings.
    config_context : Change them within a ``with`` block.

    Examples
    --------
    >>> import fastauc
    >>> fastauc.get_config()["device"]
    'auto'
    """
    return dict(_settings())


def _check_device(device):
    if device not in DEVICES:
        raise ValueError(f"device must be one of {DEVICES}, got {device!r}")


def set_config(device=None) -> None:
    """Set fastauc's settings globally (and for this thread).

    Parameters
    ----------
    device : {"auto", "cpu", "cuda"}, default=None
        Where calls compute.  ``"auto"``: where the scores are.  ``"cpu"``:
        always on the CPU (device arrays are copied to the host).
        ``"cuda"``: on the GPU, host arrays copied to it first (worth it for
        heavy calls, such as a bootstrap of 1e7 rows).  None leaves it as is.

    See Also
    --------
    get_config : The current settings.
    config_context : Change them within a ``with`` block.

    Examples
    --------
    >>> import fastauc
    >>> fastauc.set_config(device="cpu")
    >>> fastauc.get_config()["device"]
    'cpu'
    >>> fastauc.set_config(device="auto")
    """
    if device is not None:
        _check_device(device)
        _global["device"] = device
        _settings()["device"] = device


@contextmanager
def config_context(*, device=None):
    """Settings for the calls in a ``with`` block of this thread.

    Parameters
    ----------
    device : {"auto", "cpu", "cuda"}, default=None
        As :func:`set_config`'s; None keeps the current value.

    See Also
    --------
    set_config : Change the settings for the rest of the program.
    get_config : The current settings.

    Examples
    --------
    >>> import fastauc
    >>> with fastauc.config_context(device="cpu"):
    ...     fastauc.roc_auc_score([0, 1, 1], [0.2, 0.9, 0.4])
    1.0
    """
    if device is not None:
        _check_device(device)
    settings = _settings()
    old = dict(settings)
    if device is not None:
        settings["device"] = device
    try:
        yield
    finally:
        settings.clear()
        settings.update(old)
