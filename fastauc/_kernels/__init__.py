"""Numba kernels: plain loops over already-validated, contiguous arrays.

Kernels trust their inputs and never raise on user data; ``fastauc._validation``
checks everything first.  They are grouped by what they compute:

- ``sorting``: float64 -> order-preserving uint64 keys, the class split and an
  LSD radix sort (one sort per call, shared by everything below);
- ``sweeps``: one merge-sweep over the two sorted classes that yields ROC AUC,
  average precision and, on request, the cumulative tallies of the curves;
- ``losses``: log loss.
"""
