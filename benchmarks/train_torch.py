"""A PyTorch MLP trained for AUC with fastauc.torch, against BCE.

    python benchmarks/train_torch.py [--seeds 5] [--out docs/train_torch.md]

Two tabular binary tasks: scikit-learn's ``make_classification`` (1e5 rows,
20 features, 5% positives, some label noise) and its breast-cancer set (569
rows).  The same MLP (two hidden layers of 64, ReLU) is trained with
``BCEWithLogitsLoss``, with fastauc's squared-hinge and square all-pairs
losses (``PairwiseAUCLoss``), full batch and in mini-batches of 1,024,
by Adam; the held-out AUC and its DeLong interval come from
``fastauc.torch.BinaryAUROC`` (checked against ``fastauc.roc_auc_ci``).
Each cell is the mean held-out AUC over the seeds, with the mean DeLong
interval's half-width and the range over seeds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import fastauc
from fastauc.torch import BinaryAUROC, PairwiseAUCLoss


def tasks(seed):
    X, y = make_classification(n_samples=100_000, n_features=20, n_informative=8,
                               weights=[0.95], flip_y=0.02, class_sep=0.8, random_state=seed)
    yield "make_classification, 1e5 rows, 5% positives", X, y
    X, y = load_breast_cancer(return_X_y=True)
    yield "breast cancer, 569 rows", X, y


def mlp(d):
    return torch.nn.Sequential(torch.nn.Linear(d, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64),
                               torch.nn.ReLU(), torch.nn.Linear(64, 1))


LOSSES = {
    "BCE": torch.nn.BCEWithLogitsLoss(),
    "squared hinge (fastauc)": PairwiseAUCLoss(loss="squared_hinge"),
    "square (fastauc)": PairwiseAUCLoss(loss="square"),
}


def train(X, y, loss_name, batch, seed, epochs):
    torch.manual_seed(seed)
    model = mlp(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = LOSSES[loss_name]
    Xt, yt = torch.tensor(X, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
    n = Xt.shape[0]
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(n, generator=g) if batch else torch.arange(n)
        for start in range(0, n, batch or n):
            idx = order[start:start + (batch or n)]
            opt.zero_grad()
            out = model(Xt[idx]).squeeze(1)
            value = criterion(out, yt[idx])
            value.backward()
            opt.step()
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--out")
    args = parser.parse_args()
    torch.set_num_threads(2)
    lines = ["| task | batches | loss | held-out AUC (mean) | DeLong half-width | range over "
             "seeds | train s |", "|---|---|---|---|---|---|---|"]
    print(lines[0], lines[1], sep="\n", flush=True)
    results = {}
    for seed in range(args.seeds):
        for task, X, y in tasks(seed):
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y,
                                                  random_state=seed)
            scaler = StandardScaler().fit(Xtr)
            Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
            small = X.shape[0] < 10_000
            for batch in (None, 64 if small else 1024):
                epochs = 300 if batch is None else (30 if small else 5)
                for name in LOSSES:
                    t = time.perf_counter()
                    model = train(Xtr, ytr, name, batch, seed, epochs)
                    seconds = time.perf_counter() - t
                    with torch.no_grad():
                        scores = model(torch.tensor(Xte, dtype=torch.float32)).squeeze(1)
                    metric = BinaryAUROC()
                    metric.update(scores, torch.tensor(yte))
                    ci = metric.delong_interval()
                    ref = fastauc.roc_auc_ci(yte, scores.numpy().astype(np.float64))
                    assert abs(ci.estimate - ref.estimate) < 1e-12
                    key = (task, "full batch" if batch is None else f"{batch} rows", name)
                    results.setdefault(key, []).append((ci.estimate, (ci.high - ci.low) / 2,
                                                        seconds))
    for key, rows in results.items():
        a = np.array(rows)
        line = (f"| {key[0]} | {key[1]} | {key[2]} | {a[:, 0].mean():.4f} | "
                f"{a[:, 1].mean():.4f} | {a[:, 0].min():.4f}-{a[:, 0].max():.4f} | "
                f"{a[:, 2].mean():.1f} |")
        lines.append(line)
        print(line, flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
