"""Held-out AUC of gradient boosting trained on several objectives.

The table of docs/guide/training.md: LightGBM with its built-in ``binary`` log
loss and with fastauc's square, squared-hinge and AUM objectives, and
XGBoost's ``rank:pairwise`` (pairs sampled per query; here one query), on
synthetic data with 1% and 10% positives and on scikit-learn's breast
cancer data; mean and standard deviation over seeds, each seed a new split
(and for the synthetic sets new data).  Also the time a round takes with the
built-in ``binary`` objective and with fastauc's, and with XGBoost's
``binary:logistic`` and fastauc's, on 1e6 rows x 20 features (``--timing``).

    python benchmarks/training_table.py            # the AUC table (a few minutes)
    python benchmarks/training_table.py --timing   # the time of 100 rounds at 1e6 x 20
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

import fastauc
from fastauc.objectives import lightgbm_objective, xgboost_objective

SEEDS = 5
ROUNDS = 100


def synthetic(rate, seed, n=20_000, features=20):
    """A logistic model with a few informative features and noise."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n, n_features=features, n_informative=6,
                               n_redundant=4, weights=[1 - rate], flip_y=0.02,
                               class_sep=0.8, random_state=seed)
    return X, y


def breast_cancer(seed):
    from sklearn.datasets import load_breast_cancer

    return load_breast_cancer(return_X_y=True)


def split(X, y, seed):
    from sklearn.model_selection import train_test_split

    return train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)


def fit_predict(name, Xt, yt, Xv, seed):
    import lightgbm as lgb
    import xgboost as xgb

    params = {"verbose": -1, "learning_rate": 0.05, "num_leaves": 15, "seed": seed,
              "min_data_in_leaf": 20, "feature_fraction": 0.9, "bagging_fraction": 0.9,
              "bagging_freq": 1}
    if name == "xgboost rank:pairwise":
        booster = xgb.train({"objective": "rank:pairwise", "eta": 0.05, "max_depth": 4,
                             "seed": seed, "subsample": 0.9, "tree_method": "hist"},
                            xgb.DMatrix(Xt, yt, qid=np.zeros(len(yt), np.int64)), ROUNDS)
        return booster.predict(xgb.DMatrix(Xv), output_margin=True)
    objective = "binary" if name == "binary" else lightgbm_objective(name)
    booster = lgb.train({**params, "objective": objective}, lgb.Dataset(Xt, yt), ROUNDS)
    return booster.predict(Xv, raw_score=True)


MODELS = ["binary", "xgboost rank:pairwise", "square", "squared_hinge", "aum"]
DATA = [("1% positives, 20,000 x 20", lambda s: synthetic(0.01, s)),
        ("10% positives, 20,000 x 20", lambda s: synthetic(0.10, s)),
        ("breast cancer, 569 x 30", breast_cancer)]


def auc_table():
    rows = []
    for label, make in DATA:
        cells = []
        for model in MODELS:
            aucs = []
            for seed in range(SEEDS):
                X, y = make(seed)
                Xt, Xv, yt, yv = split(X, y, seed)
                aucs.append(fastauc.roc_auc_score(yv, fit_predict(model, Xt, yt, Xv, seed)))
            cells.append(f"{np.mean(aucs):.4f} ± {np.std(aucs):.4f}")
            print(label, model, cells[-1], flush=True)
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    head = "| data | " + " | ".join(f"`{m}`" for m in MODELS) + " |"
    return "\n".join([head, "|" + "---|" * (len(MODELS) + 1), *rows])


def timing(n=1_000_000, features=20, rounds=100):
    import lightgbm as lgb
    import xgboost as xgb

    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, features)).astype(np.float32)
    y = (X[:, :5].sum(axis=1) + rng.normal(size=n) * 2 > 3).astype(np.float64)
    out = {}
    data = lgb.Dataset(X, y, free_raw_data=False).construct()
    for name, obj in (("lightgbm binary", "binary"),
                      ("lightgbm fastauc squared_hinge", lightgbm_objective("squared_hinge"))):
        t = time.perf_counter()
        lgb.train({"objective": obj, "verbose": -1, "num_threads": 2}, data, rounds)
        out[name] = time.perf_counter() - t
    dtrain = xgb.DMatrix(X, y, nthread=2)
    for name, kw in (("xgboost binary:logistic", {"params": {"objective": "binary:logistic"}}),
                     ("xgboost fastauc squared_hinge", {"params": {},
                                                        "obj": xgboost_objective()}),
                     ("xgboost rank:pairwise", {"params": {"objective": "rank:pairwise"}})):
        params = {"tree_method": "hist", "nthread": 2, **kw.pop("params")}
        d = dtrain if "rank" not in name else xgb.DMatrix(X, y, qid=np.zeros(n, np.int64),
                                                          nthread=2)
        t = time.perf_counter()
        xgb.train(params, d, rounds, **kw)
        out[name] = time.perf_counter() - t
    lines = [f"{rounds} rounds, {n:,} rows x {features} features, 2 threads "
             f"({platform.processor() or platform.machine()}):", ""]
    lines += ["| training | seconds | ratio |", "|---|---|---|"]
    for name, sec in out.items():
        base = out["lightgbm binary"] if name.startswith("lightgbm") else \
            out["xgboost binary:logistic"]
        lines.append(f"| {name} | {sec:.1f} | {sec / base:.2f}x |")
    return "\n".join(lines)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timing", action="store_true")
    args = ap.parse_args()
    print(timing() if args.timing else auc_table())
