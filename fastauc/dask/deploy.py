"""Getting workers ready: Numba's compiled kernels on every worker."""

from __future__ import annotations

import time


def _warm_here() -> float:
    """Compile or load every kernel the in-memory calls and the ``fastauc.dask``
    tasks use, in this process; returns the seconds it took."""
    import warnings

    import dask
    import dask.array as da
    import numpy as np

    from ..deploy import warmup
    from .inference import delong_test
    from .metrics import roc_auc_score
    from .report import report

    t0 = time.perf_counter()
    warmup()
    rng = np.random.default_rng(0)
    n = 3000
    y = da.from_array(rng.integers(0, 2, n), chunks=1000)
    p = da.from_array(rng.random(n), chunks=1000)
    q = da.from_array(np.round(rng.random(n), 2), chunks=1000)
    w = da.from_array(rng.random(n), chunks=1000)
    # the graph runs in this process: inside a worker, dask would otherwise
    # hand it back to the cluster
    with dask.config.set(scheduler="sync"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for weight in (None, w):
            roc_auc_score(y, p, sample_weight=weight)
            delong_test(y, p, q, sample_weight=weight)
            report(y, [p, q], sample_weight=weight)
    return time.perf_counter() - t0


def warm_workers(client=None) -> dict:
    """Compile (or load from Numba's cache) every kernel on every worker of the
    cluster, before the first real call: ``{worker address: seconds}``.

    One worker runs first: with a cold cache it compiles and writes the
    package's Numba cache once; the others then load it (milliseconds per
    kernel) instead of all compiling at once and racing to write the same
    files.  Workers that join later compile or load on their first task.
    Each worker runs the in-memory kernels and a small ``fastauc.dask``
    graph on its own threads (dask's synchronous scheduler), and prints
    :func:`fastauc.deploy.warmup`'s line to its standard output.

    Parameters
    ----------
    client : distributed.Client, default=None
        The client of the cluster; by default the current one
        (``distributed.get_client()``).

    Returns
    -------
    seconds : dict of str to float
        Each worker's address and the seconds its warm-up took (the first
        worker on a cold cache compiles: seconds; the others load); empty
        when the cluster has no worker.  Unlike the metrics, there is no
        ``compute`` argument: the warm-up runs at once.

    Raises
    ------
    ValueError
        Without ``client``, when there is no current ``distributed`` client
        (``distributed.get_client()``'s error).

    See Also
    --------
    fastauc.deploy.warmup : The same in this process.
    fastauc.spark.warm_executors : The same on Spark.

    Examples
    --------
    On a real cluster (each worker prints its line to its own standard output):

    >>> import distributed, fastauc.dask                      # doctest: +SKIP
    >>> client = distributed.Client("tcp://scheduler:8786")  # doctest: +SKIP
    >>> fastauc.dask.warm_workers(client)                     # doctest: +SKIP
    {'tcp://10.0.0.5:40331': 21.4, 'tcp://10.0.0.6:39221': 0.6}

    A one-worker cluster in this process (its line is printed here):

    >>> import distributed, fastauc.dask
    >>> with distributed.Client(n_workers=1, threads_per_worker=1, processes=False,
    ...                         dashboard_address=":0") as client:  # doctest: +ELLIPSIS
    ...     done = fastauc.dask.warm_workers(client)
    ...     sorted(done) == sorted(client.scheduler_info()["workers"])
    fastauc ...: kernels compiled or loaded in ... s
    True
    >>> all(seconds >= 0 for seconds in done.values())
    True
    """
    import distributed

    client = client if client is not None else distributed.get_client()
    workers = sorted(client.scheduler_info()["workers"])
    if not workers:
        return {}
    done = client.run(_warm_here, workers=workers[:1])
    if len(workers) > 1:
        done.update(client.run(_warm_here, workers=workers[1:]))
    return done
