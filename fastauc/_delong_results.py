"""The record of :func:`fastauc.delong_omnibus` (several models' AUCs compared)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DeLongOmnibusResult"]

_PAIR_COLUMNS = ("model_a", "model_b", "auc_a", "auc_b", "difference", "se", "statistic",
                 "pvalue", "pvalue_holm", "pvalue_bonferroni", "low", "high")


@dataclass(frozen=True)
class DeLongOmnibusResult:
    """Result of :func:`delong_omnibus`: k models' AUCs on the same rows compared.

    Attributes
    ----------
    statistic : float
        DeLong et al.'s chi-square ``(L A)' (L S L')^-1 (L A)`` of equal AUCs,
        ``L`` the contrasts of each model against the next.
    df : float
        Its degrees of freedom, ``k - 1`` (the rank of ``L S L'`` when some
        models are exact combinations of others).
    pvalue : float
        The chi-square upper tail at ``statistic``.
    names : tuple of str
        The models' names (column names, mapping keys, or ``"0"``, ``"1"``...).
    aucs : ndarray of shape (k,)
        The models' AUCs (each the float ``roc_auc_score`` returns).
    cov : ndarray of shape (k, k)
        DeLong's covariance of the AUCs.
    pairs : dict of str to ndarray
        The pairwise table, one entry per pair ``a < b``: ``model_a``,
        ``model_b``, ``auc_a``, ``auc_b``, ``difference``, ``se``,
        ``statistic`` (z), ``pvalue``, ``pvalue_holm``, ``pvalue_bonferroni``
        (adjusted over the ``k (k - 1) / 2`` pairs), ``low``, ``high``.
    alternative : str
        The pairwise tests' alternative.
    confidence_level : float
        The pairwise intervals' level.

    See Also
    --------
    delong_omnibus : The function returning this record.
    DeLongTestResult : One pair's test.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import delong_omnibus
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> S = np.array([[0.1, 0.2, 0.3], [0.4, 0.1, 0.2], [0.35, 0.3, 0.1], [0.8, 0.4, 0.9],
    ...               [0.2, 0.5, 0.4], [0.7, 0.6, 0.8], [0.3, 0.7, 0.5], [0.9, 0.8, 0.6]])
    >>> res = delong_omnibus(y, S)
    >>> res.df, len(res.pairs["pvalue"])
    (2.0, 3)
    """

    statistic: float
    df: float
    pvalue: float
    names: tuple
    aucs: np.ndarray
    cov: np.ndarray
    pairs: dict
    alternative: str
    confidence_level: float

    def to_frame(self):
        """The pairwise table as a pandas DataFrame, one row per pair (needs pandas)."""
        import pandas as pd

        return pd.DataFrame({c: self.pairs[c] for c in _PAIR_COLUMNS})

    def __repr__(self) -> str:
        return (f"DeLongOmnibusResult(statistic={self.statistic!r}, df={self.df!r}, "
                f"pvalue={self.pvalue!r}, names={self.names!r}, "
                f"aucs={np.array2string(np.asarray(self.aucs), precision=4)}, "
                f"pairs={len(self.pairs['pvalue'])})")
