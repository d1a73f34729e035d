"""fastauc.objectives with real LightGBM and XGBoost: the gradients handed
over are pairwise_loss_gradient's (weights and query groups read from the
data sets), training works through both APIs of both libraries, and the
metrics equal fastauc's functions."""

import numpy as np
import pytest

import fastauc
from fastauc import _sort
from fastauc.objectives import (
    lightgbm_metric,
    lightgbm_objective,
    xgboost_metric,
    xgboost_objective,
)

lgb = pytest.importorskip("lightgbm")
xgb = pytest.importorskip("xgboost")

LOSSES = ["squared_hinge", "square", "hinge", "linear", "aum"]


@pytest.fixture
def data(rng):
    n = 600
    X = rng.normal(size=(n, 5))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=n) > 1.2).astype(int)
    w = rng.uniform(0.5, 2.0, n)
    sizes = np.full(20, n // 20)  # 20 queries of 30 consecutive rows
    return X, y, w, sizes


def expected(y, s, loss, w=None, groups=None):
    """What the objective hands over: the normalised loss's gradient times half
    the total weight, with the square loss's Hessian for losses without one."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastauc.UndefinedMetricWarning)
        _, g, h = fastauc.pairwise_loss_gradient(y, s, loss=loss, sample_weight=w,
                                                 groups=groups, hessian=True)
        if loss not in ("square", "squared_hinge"):
            _, _, h = fastauc.pairwise_loss_gradient(y, s, loss="square", sample_weight=w,
                                                     groups=groups, hessian=True)
    half = (len(y) if w is None else w.sum()) / 2
    return g * half, h * half


def assert_float32_of(actual, desired):
    """``actual`` is float32 and each entry is ``desired`` (float64, exact to
    1e-12) rounded once: within half a float32 unit in the last place."""
    assert actual.dtype == np.float32
    np.testing.assert_allclose(actual, desired, rtol=2.0**-24 + 1e-11, atol=1e-15)


@pytest.mark.parametrize("loss", LOSSES)
def test_lightgbm_objective_reads_weights_and_groups(loss, data, rng):
    X, y, w, sizes = data
    s = rng.normal(size=len(y))
    codes = np.repeat(np.arange(len(sizes)), sizes)
    ds = lgb.Dataset(X, y, weight=w, group=sizes, free_raw_data=False).construct()
    grad, hess = lightgbm_objective(loss)(s, ds)
    w = w.astype(np.float32).astype(np.float64)  # what the libraries store
    g, h = expected(y, s, loss, w, codes)
    assert_float32_of(grad, g)
    assert_float32_of(hess, h)
    # the scikit-learn API's call: (y_true, y_pred, weight, group)
    grad2, hess2 = lightgbm_objective(loss)(y, s, w, sizes)
    np.testing.assert_array_equal(grad2, grad)
    np.testing.assert_array_equal(hess2, hess)
    if loss not in ("square", "squared_hinge"):  # a Hessian for Newton steps
        assert np.all(hess[np.isin(codes, np.flatnonzero(
            np.bincount(codes, y) * np.bincount(codes, 1 - y) > 0))] > 0)


@pytest.mark.parametrize("loss", LOSSES)
def test_xgboost_objective_reads_weights_and_qid(loss, data, rng):
    X, y, w, sizes = data
    s = rng.normal(size=len(y))
    codes = np.repeat(np.arange(len(sizes)), sizes)
    dm = xgb.DMatrix(X, y, weight=w, qid=codes)
    grad, hess = xgboost_objective(loss)(s, dm)
    w = w.astype(np.float32).astype(np.float64)
    g, h = expected(y, s, loss, w, codes)
    assert_float32_of(grad, g)
    assert_float32_of(hess, h)
    grad2, _ = xgboost_objective(loss)(y, s, sample_weight=w)  # XGBClassifier: no groups
    assert_float32_of(grad2, expected(y, s, loss, w)[0])
    # XGBoost's own margins are float32: sorted as 32-bit keys, the same terms
    s32 = s.astype(np.float32)
    grad3, hess3 = xgboost_objective(loss)(s32, dm)
    g, h = expected(y, s32.astype(np.float64), loss, w, codes)
    assert_float32_of(grad3, g)
    assert_float32_of(hess3, h)


@pytest.mark.parametrize("loss", LOSSES)
def test_float32_layouts_agree(loss, rng, monkeypatch):
    """The objectives' float32 arrays hold the same values however they are
    laid out: LightGBM's contiguous columns, XGBoost's entries of a row side
    by side (strided views of one buffer), and through the sort's slots (as
    inputs past ``DIRECT_ROWS`` are), on two threads."""
    n = _sort.CHUNK_MIN + 3000
    y = (rng.random(n) < 0.2).astype(int)
    s = rng.normal(size=n).astype(np.float32) + y
    w = rng.uniform(0.5, 2.0, n)
    from_xgb = xgboost_objective(loss).gradient(y, s, w)
    from_lgb = lightgbm_objective(loss).gradient(y, s, w)
    assert all(a.flags.c_contiguous for a in from_lgb)
    monkeypatch.setattr(_sort, "DIRECT_ROWS", 0)
    via_slots = xgboost_objective(loss).gradient(y, s, w)
    for a, b, c in zip(from_xgb, from_lgb, via_slots):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)


def test_xgboost_trains_the_same_on_the_interleaved_arrays(data):
    """XGBoost reads the strided views as it reads contiguous copies."""
    X, y, w, _ = data
    dm = xgb.DMatrix(X, y, weight=w)
    obj = xgboost_objective()

    def copies(preds, dtrain):
        grad, hess = obj(preds, dtrain)
        assert not grad.flags.c_contiguous  # the views, side by side
        return np.ascontiguousarray(grad), np.ascontiguousarray(hess)

    params = {"tree_method": "hist", "eta": 0.3, "nthread": 1}
    views = xgb.train(params, dm, 10, obj=obj).predict(dm, output_margin=True)
    copied = xgb.train(params, dm, 10, obj=copies).predict(dm, output_margin=True)
    np.testing.assert_array_equal(views, copied)


def test_training_ranks_well_through_every_api(data):
    """Each API trains on the objective: held-out AUC far above chance, and
    the training AUC rises with the rounds (how well each loss ranks is
    measured in benchmarks/training_table.py)."""
    X, y, _, _ = data
    Xt, yt, Xv, yv = X[:450], y[:450], X[450:], y[450:]
    params = {"verbose": -1, "learning_rate": 0.1, "min_data_in_leaf": 5}
    booster = lgb.train({**params, "objective": lightgbm_objective()}, lgb.Dataset(Xt, yt), 30)
    auc_train_api = fastauc.roc_auc_score(yv, booster.predict(Xv))
    assert auc_train_api > 0.7
    assert fastauc.roc_auc_score(yt, booster.predict(Xt)) > fastauc.roc_auc_score(
        yt, booster.predict(Xt, num_iteration=1))
    with pytest.warns(UserWarning, match="raw scores"):  # margins, not probabilities
        model = lgb.LGBMClassifier(objective=lightgbm_objective(), n_estimators=30,
                                   learning_rate=0.1, min_child_samples=5,
                                   verbose=-1).fit(Xt, yt)
        margins = model.predict_proba(Xv)
    assert fastauc.roc_auc_score(yv, margins) == pytest.approx(auc_train_api)
    dtrain = xgb.DMatrix(Xt, yt)
    bst = xgb.train({"tree_method": "hist", "eta": 0.1}, dtrain, 30,
                    obj=xgboost_objective("square"))
    assert fastauc.roc_auc_score(yv, bst.predict(xgb.DMatrix(Xv), output_margin=True)) > 0.7
    assert fastauc.roc_auc_score(yt, bst.predict(dtrain, output_margin=True)) > \
        fastauc.roc_auc_score(yt, bst.predict(dtrain, output_margin=True,
                                              iteration_range=(0, 1)))
    clf = xgb.XGBClassifier(objective=xgboost_objective(), n_estimators=30,
                            learning_rate=0.1).fit(Xt, yt)
    assert fastauc.roc_auc_score(yv, clf.predict(Xv, output_margin=True)) > 0.7


@pytest.mark.parametrize("metric, kw, reference", [
    ("roc_auc", {}, lambda y, s, w: fastauc.roc_auc_score(y, s, sample_weight=w)),
    ("average_precision", {},
     lambda y, s, w: fastauc.average_precision_score(y, s, sample_weight=w)),
    ("partial_auc", {"max_fpr": 0.2},
     lambda y, s, w: fastauc.roc_auc_score(y, s, sample_weight=w, max_fpr=0.2)),
    ("pairwise_loss", {"loss": "hinge"},
     lambda y, s, w: fastauc.pairwise_loss(y, s, loss="hinge", sample_weight=w)),
])
def test_metrics_equal_fastaucs_functions(metric, kw, reference, data, rng):
    X, y, w, sizes = data
    w = w.astype(np.float32).astype(np.float64)  # what the libraries store
    s = rng.normal(size=len(y)) + y
    ds = lgb.Dataset(X, y, weight=w, free_raw_data=False).construct()
    name, value, higher = lightgbm_metric(metric, **kw)(s, ds)
    assert value == reference(y, s, w)
    assert higher == (metric != "pairwise_loss")
    assert lightgbm_metric(metric, **kw)(y, s, w, None) == (name, value, higher)
    dm = xgb.DMatrix(X, y, weight=w)
    assert xgboost_metric(metric, **kw)(s, dm) == (name, value)
    assert xgboost_metric(metric, **kw)(y, s, sample_weight=w) == value


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision", "partial_auc"])
def test_metrics_per_group_are_the_mean_over_groups_with_both_classes(metric, data, rng):
    X, y, w, sizes = data
    w = w.astype(np.float32).astype(np.float64)
    s = rng.normal(size=len(y)) + y
    codes = np.repeat(np.arange(len(sizes)), sizes)
    y = y.copy()
    y[codes == 0] = 0  # a query with one class is left out of the mean
    kw = {"max_fpr": 0.3} if metric == "partial_auc" else {}
    values = []
    for g in range(1, len(sizes)):
        m = codes == g
        if 0 < y[m].sum() < m.sum():
            if metric == "average_precision":
                values.append(fastauc.average_precision_score(y[m], s[m], sample_weight=w[m]))
            else:
                values.append(fastauc.roc_auc_score(y[m], s[m], sample_weight=w[m],
                                                    max_fpr=kw.get("max_fpr")))
    ds = lgb.Dataset(X, y, weight=w, group=sizes, free_raw_data=False).construct()
    _, value, _ = lightgbm_metric(metric, **kw)(s, ds)
    assert value == pytest.approx(np.mean(values), rel=1e-12)
    _, value_xgb = xgboost_metric(metric, **kw)(s, xgb.DMatrix(X, y, weight=w, qid=codes))
    assert value_xgb == pytest.approx(np.mean(values), rel=1e-12)


def test_early_stopping_on_fastaucs_auc(data):
    X, y, _, _ = data
    train, valid = lgb.Dataset(X[:450], y[:450]), lgb.Dataset(X[450:], y[450:])
    result = {}
    booster = lgb.train({"objective": lightgbm_objective(), "verbose": -1,
                         "learning_rate": 0.3, "metric": "None"}, train, 200,
                        valid_sets=[valid], feval=lightgbm_metric("roc_auc"),
                        callbacks=[lgb.early_stopping(5, verbose=False),
                                   lgb.record_evaluation(result)])
    aucs = result["valid_0"]["fastauc_auc"]
    assert booster.best_iteration < 200
    assert aucs[booster.best_iteration - 1] == max(aucs)


def test_bad_parameters():
    with pytest.raises(ValueError, match="'loss' parameter"):
        lightgbm_objective("logistic")
    with pytest.raises(ValueError, match="margin"):
        xgboost_objective("hinge", margin=0.0)
    with pytest.raises(ValueError, match="metric must be one of"):
        lightgbm_metric("accuracy")
    with pytest.raises(ValueError, match="max_fpr"):
        xgboost_metric("partial_auc")
