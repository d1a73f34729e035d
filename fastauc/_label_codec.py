"""The labels and classes of an ``Accumulator``'s state as JSON-able values
(``to_bytes``' header), checked when read back."""

from __future__ import annotations

import numpy as np

__all__ = ["decode_classes", "decode_label", "encode_classes", "encode_label"]

_LABEL_TYPES = {"bool": bool, "int": int, "float": float, "str": str}


def encode_label(label):
    if label is None:
        return None
    for name, typ in _LABEL_TYPES.items():
        if type(label) is typ:
            return {"type": name, "value": label}
    raise TypeError(f"cannot write a label of type {type(label).__name__}")


def decode_label(d):
    if d is None:
        return None
    typ = _LABEL_TYPES[d["type"]]
    value = d["value"]
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not typ:
        raise ValueError(f"label {value!r} is not of type {d['type']}")
    return value


def encode_classes(classes):
    if classes is None:
        return None
    return {"dtype": classes.dtype.str, "values": classes.tolist()}


def decode_classes(d):
    if d is None:
        return None
    dtype = np.dtype(d["dtype"])
    if dtype.kind not in "biufUO":
        raise ValueError(f"label dtype {dtype} is not a label type")
    values = d["values"]
    if not isinstance(values, list) or not values:
        raise ValueError("classes must be a non-empty list")
    if dtype.kind in "UO" and not all(isinstance(x, str) for x in values):
        raise ValueError("string classes must be strings")
    if dtype.kind in "biuf" and not all(isinstance(x, (bool, int, float)) for x in values):
        raise ValueError("numeric classes must be numbers")
    classes = np.array(values, dtype=dtype)
    if classes.shape != (len(values),) or np.unique(classes).shape[0] != len(values) \
            or not (np.sort(classes) == classes).all():
        raise ValueError("classes must be distinct and sorted")
    return classes
