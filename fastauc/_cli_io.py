"""The command line's readers: CSV and Parquet columns, in memory or in
record batches, and its error type (``fastauc.cli`` and ``fastauc monitor``)."""

from __future__ import annotations

import numpy as np

__all__ = ["CLIError", "read_columns", "record_batches"]


class CLIError(Exception):
    """A user error: printed as one line, exit status 2, no traceback."""


_PARQUET = (".parquet", ".pq")


def _need_pyarrow(what):
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise CLIError(f"{what} needs pyarrow: pip install 'fastauc[io]'") from None


def read_columns(path, columns):
    """Read ``columns`` of a CSV or Parquet file into numpy arrays (a dict).

    Parquet needs pyarrow (the ``io`` extra); CSV uses pyarrow when it is
    installed and the standard library otherwise.  Missing files and columns
    raise :class:`CLIError` naming them.
    """
    import os

    if not os.path.exists(path):
        raise CLIError(f"no such file: {path}")
    wanted = list(dict.fromkeys(columns))
    lower = path.lower()
    if lower.endswith(_PARQUET):
        _need_pyarrow("reading Parquet")
        import pyarrow.parquet as pq

        available = pq.read_schema(path).names
        _check_columns(path, wanted, available)
        table = pq.read_table(path, columns=wanted)
        return {c: table.column(c).to_numpy(zero_copy_only=False) for c in wanted}
    delimiter = "\t" if lower.endswith((".tsv", ".tab")) else ","
    try:
        import pyarrow.csv as pcsv
    except ImportError:
        return _read_csv_stdlib(path, wanted, delimiter)
    import pyarrow as pa

    try:
        header = pcsv.open_csv(path, parse_options=pcsv.ParseOptions(delimiter=delimiter))
        available = header.schema.names
    except pa.ArrowInvalid as exc:
        raise CLIError(f"could not read {path} as CSV: {exc}") from None
    _check_columns(path, wanted, available)
    table = pcsv.read_csv(path, parse_options=pcsv.ParseOptions(delimiter=delimiter),
                          convert_options=pcsv.ConvertOptions(include_columns=wanted))
    return {c: table.column(c).to_numpy(zero_copy_only=False) for c in wanted}


def _read_csv_stdlib(path, wanted, delimiter):
    import csv

    with open(path, newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            available = next(reader)
        except StopIteration:
            raise CLIError(f"{path} is empty") from None
        _check_columns(path, wanted, available)
        idx = [available.index(c) for c in wanted]
        rows = [[r[i] for i in idx] for r in reader if r]
    out = {}
    for j, c in enumerate(wanted):
        col = np.array([r[j] for r in rows], dtype=object)
        try:
            out[c] = np.array([float(x) if x.strip() not in ("", "NA", "NaN", "nan") else np.nan
                               for x in col])
        except ValueError:
            out[c] = col.astype(str)
    return out


def _check_columns(path, wanted, available):
    missing = [c for c in wanted if c not in available]
    if missing:
        raise CLIError(f"column {missing[0]!r} not found in {path} "
                       f"(columns: {', '.join(map(str, available))})")


def _missing(values):
    if values.dtype.kind == "f":
        return ~np.isfinite(values)
    if values.dtype.kind == "O":
        return np.array([v is None or (isinstance(v, float) and v != v) for v in values])
    return np.zeros(values.shape[0], bool)


def _pos_label(target, text):
    """The --pos-label text as a value of the target's type."""
    if text is None:
        return None
    kind = target.dtype.kind
    try:
        if kind in "iu":
            return int(text)
        if kind == "f":
            return float(text)
        if kind == "b":
            return text.lower() in ("1", "true", "yes")
    except ValueError:
        raise CLIError(f"--pos-label {text!r} is not a value of the target column") from None
    return text


_BATCH_ROWS = 1 << 20  # rows per record batch when streaming


def record_batches(path, columns, batch_rows=_BATCH_ROWS):
    """``(batches, n_rows)``: ``batches()`` iterates over dicts of numpy columns
    of at most ``batch_rows`` rows (pyarrow's record batches; ``n_rows`` None
    for CSV, whose length is not known before reading it)."""
    import os

    if not os.path.exists(path):
        raise CLIError(f"no such file: {path}")
    _need_pyarrow("--stream")
    import pyarrow as pa

    wanted = list(dict.fromkeys(columns))
    lower = path.lower()
    if lower.endswith(_PARQUET):
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(path)
        _check_columns(path, wanted, pf.schema_arrow.names)

        def batches():
            for rb in pq.ParquetFile(path).iter_batches(batch_size=batch_rows, columns=wanted):
                yield {c: rb.column(c).to_numpy(zero_copy_only=False) for c in wanted}

        return batches, pf.metadata.num_rows
    import pyarrow.csv as pcsv

    parse = pcsv.ParseOptions(delimiter="\t" if lower.endswith((".tsv", ".tab")) else ",")
    try:
        names = pcsv.open_csv(path, parse_options=parse).schema.names
    except pa.ArrowInvalid as exc:
        raise CLIError(f"could not read {path} as CSV: {exc}") from None
    _check_columns(path, wanted, names)

    def csv_batches():
        reader = pcsv.open_csv(path, parse_options=parse,
                               read_options=pcsv.ReadOptions(block_size=1 << 26),
                               convert_options=pcsv.ConvertOptions(include_columns=wanted))
        try:
            for rb in reader:
                yield {c: rb.column(c).to_numpy(zero_copy_only=False) for c in wanted}
        except pa.ArrowInvalid as exc:
            raise CLIError(f"could not read {path} as CSV: {exc}") from None

    return csv_batches, None
