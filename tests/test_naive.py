"""The fast AUC agrees with the O(n*m) definition in fastauc.naive."""

import numpy as np
from hypothesis import given

import fastauc
from fastauc.naive import pairwise_auc

from .strategies import binary_problems


@given(binary_problems())
def test_roc_auc_matches_pairwise_definition(problem):
    y, s, w = problem
    if w is not None and (w[y == 1].sum() == 0 or w[y == 0].sum() == 0):
        return
    assert abs(fastauc.roc_auc_score(y, s, sample_weight=w) - pairwise_auc(y, s, w)) <= 1e-12


def test_pairwise_chunks_and_ties(rng):
    y = rng.integers(0, 2, 3000)
    s = rng.integers(0, 20, 3000).astype(float)  # heavy ties
    w = rng.random(3000)
    # tiny blocks force many chunks; the answer must not change
    assert abs(pairwise_auc(y, s, w, block=97) - pairwise_auc(y, s, w)) <= 1e-12
    assert abs(fastauc.roc_auc_score(y, s, sample_weight=w) - pairwise_auc(y, s, w)) <= 1e-12


def test_all_ties_is_one_half():
    assert pairwise_auc([0, 1, 0, 1], [2.0, 2.0, 2.0, 2.0]) == 0.5
    assert fastauc.roc_auc_score([0, 1, 0, 1], [2.0, 2.0, 2.0, 2.0]) == 0.5
    # -0.0 and 0.0 are one tie
    assert fastauc.roc_auc_score([0, 1], [-0.0, 0.0]) == 0.5
    np.testing.assert_array_equal(fastauc.roc_curve([0, 1], [-0.0, 0.0])[2], [np.inf, 0.0])


def test_submodules_reachable_lazily_after_plain_import():
    import subprocess
    import sys

    code = ("import sys, fastauc\n"
            "assert 'fastauc.naive' not in sys.modules and 'sklearn' not in sys.modules\n"
            "assert fastauc.naive.pairwise_auc([0, 1, 1], [0.2, 0.2, 0.9]) == 0.75\n"
            "assert 'naive' in dir(fastauc)\n"
            "try:\n    fastauc.no_such_name\nexcept AttributeError:\n    pass\n"
            "else:\n    raise SystemExit('no AttributeError')\n")
    subprocess.run([sys.executable, "-c", code], check=True)
