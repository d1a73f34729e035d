"""Numba kernels: plain loops over already-validated, contiguous arrays.

Kernels trust their inputs and never raise on user data; ``fastauc._validation``
checks everything first.  They are grouped by what they compute:

- ``sorting``: float64 -> order-preserving uint64 keys, the class split and an
  LSD radix sort (one sort per call, shared by everything below);
- ``table``: the distinct-score table (sorted distinct keys with their
  positive and negative weight) and the per-key step every sweep shares;
  merging tables, sweeping key ranges, the segmented (per-group) table;
- ``sweeps``: the merge-sweep over the sorted runs of the two classes that
  writes the table (or the curve points) while it sweeps it;
- ``losses``: log loss;
- ``calibration``: the Brier score's sums and the calibration bins over a
  table.
"""
