"""One table of parameter descriptions for the cluster adapters' docstrings.

``fastauc.dask`` and ``fastauc.spark`` have the same functions with the same
parameters; what a parameter means is written once, in :data:`PARAMETERS`,
and each adapter's docstrings draw it from there (pandas' ``@doc``
substitutions are the model).  A docstring names a parameter by a line that
holds only its key in braces, where the parameter's numpydoc block goes::

    @dask_doc
    def roc_auc_score(y_true, y_score, *, sample_weight=None, compute=True):
        '''...

        Parameters
        ----------
        {y_true}
        {y_score}
        {sample_weight}
        {compute}

        Returns
        -------
        ...
        '''

The decorator replaces each such line, at import time, by ``name : type``
and the description wrapped below it, so that ``help()``, the doctests and
the API reference read a normal numpydoc docstring.  A key is the parameter's
name, or ``name/variant`` where one name means something else in another
family of functions (``pos_label`` defaults to 1 for the average precision,
to None for the curves); the block always carries the plain name.  Parameters
of one function only are written in its docstring as usual, beside the
placeholders.

What differs between the engines is kept apart from the table, in each
:class:`Engine`: the type of a column (dask collections, or a column's name
in ``df``), the engine's own parameters (``compute``, ``df``) and notes that
only hold on one engine (how Dask aligns chunks, which Spark types a score
column may have).  ``{column}``, ``{columns}`` and ``{workers}`` in a type or
a description are the engine's words.  An unknown key or field raises at
import, so a typo cannot reach a page.

Column descriptions start with a noun phrase ("True binary labels: ..."):
on Spark, where the argument is a column's name, they read "Column of ``df``
with the true binary labels: ...".
"""

from __future__ import annotations

import re
import textwrap
from typing import NamedTuple

__all__ = ["PARAMETERS", "Engine", "dask_doc", "spark_doc"]


class Param(NamedTuple):
    """A parameter's numpydoc type and description.

    ``kind`` is ``"column"`` or ``"columns"`` for data the engines pass
    differently (dask collections, or column names of ``df``), None for
    options that every engine takes alike.  ``type`` may be a mapping from
    the engine's name to its type where the engines' types differ beyond
    ``{column}``.
    """

    type: str | dict
    description: str
    kind: str | None = None


def _column(description, type="{column}"):
    return Param(type, description, "column")


def _columns(description, type="{columns}"):
    return Param(type, description, "columns")


#: Parameter descriptions shared by ``fastauc.dask`` and ``fastauc.spark``:
#: key (``name`` or ``name/variant``) -> :class:`Param`.
PARAMETERS = {
    # ------------------------------------------------------------ the columns
    "y_true": _column(
        "True binary labels: numbers, booleans or strings, two distinct values "
        "(the greater one is the positive class)."),
    "y_true/pos_label": _column(
        "True binary labels: numbers, booleans or strings, two distinct values, of "
        "which ``pos_label`` is the positive class."),
    "y_true/curve": _column(
        "True binary labels.  If they are not {0, 1} or {-1, 1}, ``pos_label`` must be "
        "given (scikit-learn's rule)."),
    "y_true/log_loss": _column(
        "True labels: two distinct values over all rows (a partition may hold only "
        "one of them)."),
    "y_score": _column("Scores of the positive class."),
    "y_score_a": _column("Scores of the first model."),
    "y_score_b": _column("Scores of the second model, on the same rows."),
    "y_scores": _columns("Scores of ``k`` models on the same rows, one column per model."),
    "y_proba": _column(
        "Probabilities of the greater label, in [0, 1] (clipped to ``[eps, 1 - eps]`` "
        "as in memory)."),
    "y_prob": _column("Predicted probabilities of the positive class, in [0, 1]."),
    "sample_weight": _column(
        "Non-negative sample weights, on the same rows.", "{column}, default=None"),
    "sample_weight/delong": _column(
        "Non-negative frequency weights, on the same rows: DeLong's variance counts a "
        "row of weight 2 as two rows (see :func:`fastauc.delong_covariance`).",
        "{column}, default=None"),
    "sample_weight/bootstrap": _column(
        "Non-negative weights, on the same rows: a replicate is the weighted AUC with "
        "each row's weight multiplied by its count in the replicate.",
        "{column}, default=None"),
    "sample_weight/mann_whitney": _column(
        "Frequency weights, on the same rows: a row of weight ``k`` counts as ``k`` "
        "rows.  ``method=\"exact\"`` needs integer class totals.",
        "{column}, default=None"),
    "cluster/delong": _column(
        "Each row's cluster id (integers, strings or real numbers; a cluster's rows may "
        "lie in several partitions): Obuchowski's (1997) clustered covariance, from "
        "each partition's placements summed per cluster and added up by id (see "
        ":func:`fastauc.delong_covariance`).", "{column}, default=None"),
    "cluster/bootstrap": _column(
        "Each row's cluster id (integers, strings or real numbers): a row's Poisson "
        "count is its cluster's, a function of the seed, the replicate and the id's "
        "value alone, so any partitioning gives the in-memory replicates (see "
        ":func:`fastauc.bootstrap_ci`).", "{column}, default=None"),
    "groups": _columns(
        "Group labels of any type (numbers, strings, booleans): one group per "
        "combination of the columns' values that occurs.",
        {"dask": "{column}, or tuple of them", "spark": "str or list of str"}),
    # ------------------------------------------------------------ the options
    "pos_label": Param(
        "int, float, bool or str, default=None",
        "The label of the positive class; by default the labels must be {0, 1} or "
        "{-1, 1} (scikit-learn's rule)."),
    "pos_label/ap": Param("int, float, bool or str, default=1", "The positive class."),
    "pos_label/greater": Param(
        "int, float, bool or str, default=None",
        "The positive class; by default the greater of the two labels over all rows."),
    "confidence_level": Param("float, default=0.95", "Level of the interval, in (0, 1)."),
    "confidence_level/difference": Param(
        "float, default=0.95",
        "Level of the interval of the difference, in (0, 1) (one-sided for a one-sided "
        "``alternative``)."),
    "confidence_level/groups": Param("float, default=0.95",
                                     "Level of the DeLong intervals, in (0, 1)."),
    "confidence_level/report": Param(
        "float, default=0.95",
        "Level of the AUC intervals and of the paired tests' intervals, in (0, 1)."),
    "transform": Param(
        '{None, "logit"}, default=None',
        '``"logit"``: build the Wald interval for ``logit(auc)`` and map it back, so '
        "that it stays inside (0, 1) (as :func:`fastauc.roc_auc_ci`)."),
    "alternative": Param(
        '{"two-sided", "less", "greater"}, default="two-sided"',
        '``"greater"``: H1 is ``auc_a > auc_b``; ``"less"``: H1 is ``auc_a < auc_b``.'),
    "alternative/over_time": Param(
        '{"less", "greater", "two-sided"}, default="less"',
        "The alternative of each window's test against the reference: ``\"less\"`` "
        "flags a drop of the AUC."),
    "confidence_level/over_time": Param(
        "float, default=0.95",
        "Level of the intervals, in (0, 1); ``1 - confidence_level`` is the tests' level."),
    "alternative/mann_whitney": Param(
        '{"two-sided", "less", "greater"}, default="two-sided"',
        '``"greater"``: positives score stochastically greater than negatives '
        "(AUC > 1/2); ``\"less\"``: smaller."),
    "use_continuity": Param("bool, default=True",
                            "Continuity correction of 1/2 (asymptotic method only)."),
    "method/mann_whitney": Param(
        '{"auto", "asymptotic", "exact"}, default="auto"',
        '``"exact"`` uses the exact null distribution of U (no tie correction); '
        '``"auto"`` uses it when one class has at most 8 rows and there are no ties, as '
        "scipy does."),
    "normalize": Param("bool, default=True",
                       "Mean loss per (weighted) sample if True, else the sum."),
    "drop_intermediate/roc": Param(
        "bool, default=True",
        "Drop thresholds that are collinear with their neighbours (scikit-learn's "
        "second-difference rule); they do not change the plotted curve or AUC."),
    "drop_intermediate/pr": Param(
        "bool, default=False",
        "Drop thresholds where the true positive count does not change from the "
        "previous or the next threshold."),
    "max_points": Param(
        "int, default=None",
        "Thin the curve on the {workers} to about this many points, every one a point "
        "of the exact curve (``drop_intermediate`` then applies to those).  None: every "
        "distinct threshold."),
    "max_points/thresholds": Param(
        "int, default=None",
        "Keep about this many thresholds, thinned on the {workers}, each with its "
        "exact confusion matrix.  None: every distinct threshold."),
    "metric/best": Param(
        '{"f1", "fbeta", "mcc", "youden", "accuracy", "closest_topleft", "cost"}, '
        'default="f1"',
        'The metric maximised.  ``"closest_topleft"`` minimises ``(1 - tpr)^2 + fpr^2`` '
        '(pROC\'s "closest.topleft"); ``"cost"`` minimises ``cost_fp * FP + cost_fn * FN``.'),
    "beta": Param("float, default=1.0", 'Weight of recall for ``metric="fbeta"`` (positive).'),
    "cost_fp": Param(
        "float, default=None",
        'Cost of a false positive, for ``metric="cost"`` (required there with '
        "``cost_fn``; non-negative)."),
    "cost_fn": Param(
        "float, default=None",
        'Cost of a false negative, for ``metric="cost"`` (required there with '
        "``cost_fp``; non-negative)."),
    "x/coords": Param(
        '"all", "local maxima", "best" or array-like of float, default="all"',
        "The points: every point of the curve, pROC's local maxima, the best point(s) by "
        "``best_method``, or values of the coordinate ``input``."),
    "input/coords": Param(
        'str, default="threshold"',
        "What numeric ``x`` holds: a threshold (predict positive when ``score >= x``) or a "
        'monotone coordinate (``"specificity"``, ``"sensitivity"``, ``"fpr"``, ...), '
        "interpolated between the curve's points as pROC does."),
    "ret/coords": Param(
        'str or sequence of str, default=("threshold", "specificity", "sensitivity")',
        'The coordinates returned (pROC\'s names, ``"f1"``, ``"mcc"``, or ``"all"``).'),
    "best_method": Param(
        '{"youden", "closest.topleft"}, default="youden"',
        'The criterion of ``x="best"``.'),
    "best_weights": Param(
        "tuple of 2 floats, default=(1.0, 0.5)",
        "pROC's ``best.weights``: the relative cost of a false negative and the prevalence."),
    "n_bins/calibration_error": Param("int, default=15", "Number of equal-width bins."),
    "norm": Param('{"l1", "l2", "max"}, default="l1"',
                  "The expected calibration error, its root mean square, or the largest gap."),
    "method/reliability": Param(
        '{"isotonic", "uniform", "quantile"}, default="isotonic"',
        "PAV blocks (CORP), bins of equal width, or bins at the probabilities' quantiles."),
    "n_bins/reliability": Param("int, default=10",
                                'Number of bins (``"uniform"`` and ``"quantile"``).'),
    "metric/bootstrap": Param(
        '{"roc_auc"}, default="roc_auc"',
        "The metric resampled; the clusters bootstrap the AUC only."),
    "n_resamples": Param("int, default=1000", "Number of replicates (positive)."),
    "method/bootstrap": Param(
        '{"percentile", "basic"}, default="percentile"',
        '``"percentile"``: quantiles of the replicates; ``"basic"``: the percentile '
        'interval reflected about the estimate.  ``"bca"`` needs the jackknife over '
        "all rows at once and raises."),
    "stratified": Param(
        "None or False, default=None",
        "The Poisson scheme is never stratified (``True`` raises)."),
    "random_state": Param(
        "None, int, numpy Generator, RandomState or SeedSequence, default=None",
        "Seeds the replicates: a row's Poisson(1) count in replicate ``r`` is a "
        "function of the seed, ``r`` and the row's global position only, so the same "
        "value gives the same replicates whatever the partitioning and the {workers} "
        '(and the in-memory ``scheme="poisson"`` ones).  None: fresh entropy.'),
    "scheme": Param(
        '{"poisson"}, default="poisson"',
        "The multinomial scheme draws n rows from all partitions at once and cannot be "
        'split across them: ``"multinomial"`` raises.'),
    "dropna": Param(
        "bool, default=False",
        "Leave out rows whose group label is missing (null, NaN, None) instead of "
        "raising."),
    "names": Param(
        "list of str, default=None",
        "Model names, one per score column; by default the names of the ``scores`` "
        "columns."),
    "ci": Param(
        '{"delong", "bootstrap"}, default="delong"',
        "How the AUC interval is computed: DeLong's, or :func:`bootstrap_ci`'s with the "
        "Poisson scheme."),
    "**bootstrap_options": Param(
        "",
        'For ``ci="bootstrap"``: ``n_resamples``, ``random_state``, ``method`` '
        '(``"percentile"`` or ``"basic"``), ``scheme`` (``"poisson"`` only), '
        "``stratified`` (None or False), as in :func:`bootstrap_ci`; ``progress`` is "
        "accepted and ignored."),
}


_PLACEHOLDER = re.compile(r"^(?P<indent>[ ]*)\{(?P<key>\**\w+(?:/\w+)?)\}[ ]*$", re.M)
_FIELD = re.compile(r"\{(\w+)\}")
# kept on one line when wrapped: a short set or interval ("{0, 1}", "(0, 1)"),
# an inline literal ("``(1 - tpr)^2 + fpr^2``")
_UNBROKEN = re.compile(r"[({][^(){}\s]{1,8}, [^(){}\s]{1,8}[)}]|``[^`]{1,40}``")


class Engine:
    """An adapter's words for the shared table, and the decorator that fills
    its functions' docstrings.

    Parameters
    ----------
    name : str
        ``"dask"`` or ``"spark"``: the key of a :class:`Param`'s per-engine type.
    fields : dict of str to str
        What ``{column}``, ``{columns}`` and ``{workers}`` stand for.
    leads : dict of str to str
        The words put before a column's description, by :class:`Param` kind
        (empty: the description as written).
    parameters : dict of str to Param
        Parameters of this engine only (keys that are not in :data:`PARAMETERS`).
    notes : dict of str to str
        Sentences added to a parameter's description on this engine, by
        parameter name (every variant of it).
    examples : dict of str to str
        Whole example lines (``">>> SESSION"``) replaced by the doctest lines
        they stand for.
    """

    def __init__(self, name, *, fields, leads, parameters, notes, examples=None):
        overlap = set(parameters) & set(PARAMETERS)
        if overlap:
            raise ValueError(f"{name} redefines shared parameters {sorted(overlap)}")
        self.name, self.fields, self.leads = name, fields, leads
        self.parameters, self.notes, self.examples = parameters, notes, examples or {}

    def _words(self, text, key):
        def field(m):
            if m.group(1) not in self.fields:
                raise KeyError(f"{key}: no field {{{m.group(1)}}} for {self.name}")
            return self.fields[m.group(1)]

        return _FIELD.sub(field, text)

    def block(self, key, indent=""):
        """The numpydoc lines of parameter ``key`` on this engine."""
        param = self.parameters.get(key) or PARAMETERS.get(key)
        if param is None:
            raise KeyError(f"no parameter description {key!r} for fastauc.{self.name}")
        name = key.split("/")[0]
        type_ = param.type[self.name] if isinstance(param.type, dict) else param.type
        type_ = self._words(type_, key)
        description = self._words(param.description, key)
        lead = self.leads.get(param.kind, "") if param.kind else ""
        if lead:
            description = re.sub(r"^The ", "", description)
            description = lead + description[:1].lower() + description[1:]
        note = self.notes.get(name)
        if note:
            description = f"{description}  {self._words(note, key)}"
        head = f"{indent}{name} : {type_}" if type_ else f"{indent}{name}"
        description = _UNBROKEN.sub(lambda m: m.group(0).replace(" ", "\0"), description)
        body = textwrap.fill(description, width=79, initial_indent=indent + "    ",
                             subsequent_indent=indent + "    ", break_long_words=False,
                             break_on_hyphens=False)
        return f"{head}\n{body}".replace("\0", " ")

    def fill(self, doc):
        """``doc`` with its placeholder lines replaced by parameter blocks and its
        example lines by the doctest lines they stand for."""
        doc = _PLACEHOLDER.sub(lambda m: self.block(m.group("key"), m.group("indent")), doc)
        for line, lines in self.examples.items():
            indent = re.search(rf"^([ ]*){re.escape(line)}$", doc, re.M)
            if indent:
                doc = doc.replace(indent.group(0), textwrap.indent(lines, indent.group(1)))
        return doc

    def __call__(self, func):
        """Decorator: fill ``func``'s docstring (none under ``python -OO``)."""
        if func.__doc__:
            func.__doc__ = self.fill(func.__doc__)
        return func


#: ``fastauc.dask``: columns are dask arrays, dask Series or array-likes.
dask_doc = Engine(
    "dask",
    fields={
        "column": "dask array, dask Series or array-like of shape (n_samples,)",
        "columns": "list of dask arrays or Series, 2-D dask array or dask DataFrame",
        "workers": "workers",
    },
    leads={},
    parameters={
        "compute": Param(
            "bool, default=True",
            "Run the graph (on the current ``distributed`` client, else dask's local "
            "scheduler) and return the result; ``False`` returns a "
            "``dask.delayed.Delayed`` object whose ``.compute()`` gives it."),
    },
    notes={
        "y_score": "A dask DataFrame's column, or a one-column dask DataFrame; the other "
                   "columns are cut into its chunks, and dask Series with as many "
                   "partitions are read together.",
        "y_score_a": "The other columns are cut into its chunks; dask Series with as "
                     "many partitions are read together.",
        "y_proba": "The other columns are cut into its chunks.",
        "y_scores": "A list (or tuple) of 1-D columns, the columns of a 2-D array of "
                    "shape (n_samples, k), the columns of a dask DataFrame, or one 1-D "
                    "column.",
        "names": "Without ``scores``: ``model_1``, ``model_2``...",
        "groups": "A tuple of columns names the result's ``groups`` ``\"group_0\"``, "
                  "``\"group_1\"``...; one column names it ``\"group\"``.",
    },
)

_SPARK_SESSION = """\
>>> from pyspark.sql import SparkSession
>>> spark = SparkSession.builder.master("local[2]").getOrCreate()
>>> import numpy as np, fastauc, fastauc.spark
>>> rng = np.random.default_rng(0)
>>> y, s = rng.integers(0, 2, 2000), np.round(rng.random(2000), 2)
>>> df = spark.createDataFrame([(int(a), float(b)) for a, b in zip(y, s)],
...                            "label long, score double").repartition(7)"""

#: ``fastauc.spark``: columns are named, in the DataFrame ``df``.
spark_doc = Engine(
    "spark",
    fields={"column": "str", "columns": "str or list of str", "workers": "executors"},
    leads={"column": "Column of ``df`` with the ", "columns": "Columns of ``df`` with the "},
    parameters={
        "df": Param(
            "pyspark.sql.DataFrame",
            "The rows: a DataFrame of any partitioning, read through the DataFrame API "
            "only (Spark Connect DataFrames too)."),
    },
    notes={
        "y_score": "Any numeric type (decimals are read as double).",
        "y_score_a": "Any numeric type (decimals are read as double).",
        "y_score_b": "Any numeric type (decimals are read as double).",
        "y_scores": "One name or a list of them; any numeric types (decimals are read "
                    "as double).",
        "y_proba": "Any numeric type (decimals are read as double).",
        "sample_weight": "Any numeric type.",
        "groups": "The result's ``groups`` are keyed by these names.",
    },
    # ``>>> SESSION`` in an example: a local SparkSession and a DataFrame ``df`` of
    # 2000 rows in 7 partitions, with the same data as numpy arrays ``y``, ``s``
    examples={">>> SESSION": _SPARK_SESSION},
)
