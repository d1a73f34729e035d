"""scikit-learn's ``class_likelihood_ratios`` words and ``replace_undefined_by``
checks, shared by ``likelihood_ratios`` and the threshold sweep
(``_metric_sweep``)."""

from __future__ import annotations

import numbers

import numpy as np

from . import _validation as v

_NAN = np.nan  # scikit-learn's ``Options(Real, {1.0, np.nan})`` accepts this object only

_BAD_DICT = ("The dictionary passed as `replace_undefined_by` needs to be in the form "
             "`{{'LR+': `value_1`, 'LR-': `value_2`}}` where the value for `LR+` ranges "
             "from `1.0` to `np.inf` or is `np.nan` and the value for `LR-` ranges from "
             "`0.0` to `1.0` or is `np.nan`; got `{}`.")

NO_POSITIVE = ("No samples of the positive class are present in `y_true`. "
               "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both set "
               "to `np.nan`. Use the `replace_undefined_by` param to control this "
               "behavior. To suppress this warning or turn it into an error, see Python's "
               "`warnings` module and `warnings.catch_warnings()`.")
# scikit-learn 1.9's words, cut where its message ends (after "param to ")
NO_PREDICTED_POSITIVE = ("No samples were predicted for the positive class and "
                         "`positive_likelihood_ratio` is set to `np.nan`. Use the "
                         "`replace_undefined_by` param to ")
LR_POS_UNDEFINED = ("`positive_likelihood_ratio` is ill-defined and set to `np.nan`. Use the "
                    "`replace_undefined_by` param to ")
LR_NEG_UNDEFINED = ("`negative_likelihood_ratio` is ill-defined and set to `np.nan`. "
                    "Use the `replace_undefined_by` param to control this behavior. To "
                    "suppress this warning or turn it into an error, see Python's "
                    "`warnings` module and `warnings.catch_warnings()`.")
SINGLE_LABEL = ("A single label was found in 'y_true' and 'y_pred'. For the confusion "
                "matrix to have the correct shape, use the 'labels' parameter to pass "
                "all known labels.")


def _is_real(x) -> bool:
    return isinstance(x, numbers.Real)


def check_replace(replace_undefined_by):
    """scikit-learn's checks of ``replace_undefined_by``: ``None`` for NaN
    (both ratios NaN when undefined), else the pair ``(LR+, LR-)`` to use."""
    if isinstance(replace_undefined_by, dict):
        pass
    elif _is_real(replace_undefined_by) and (replace_undefined_by is _NAN
                                             or replace_undefined_by == 1.0):
        if replace_undefined_by is _NAN:
            return None
        return (1.0, 1.0)
    else:
        raise v.InvalidParameterError(
            "The 'replace_undefined_by' parameter of class_likelihood_ratios must be a float "
            "among {1.0, nan} or an instance of 'dict'. Got "
            f"{replace_undefined_by!r} instead.")
    d = replace_undefined_by
    if "LR+" not in d or "LR-" not in d:
        raise ValueError(_BAD_DICT.format(d))
    pos, neg = d["LR+"], d["LR-"]
    ok = (_is_real(pos) and not pos < 1.0 and _is_real(neg)
          and not neg < 0.0 and not neg > 1.0)
    if not ok:
        raise ValueError(_BAD_DICT.format(d))
    return (pos, neg)
