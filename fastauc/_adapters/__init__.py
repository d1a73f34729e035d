"""What the cluster adapters share (``fastauc.dask``, ``fastauc.spark``).

This layer sits above the public in-memory one (it builds on
:class:`fastauc.Accumulator` and the tables) and below the adapters: nothing
here imports an engine (dask, pyspark), and no in-memory module imports this
package (``tests/test_layout.py`` checks both).
"""
