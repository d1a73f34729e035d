"""PyTorch Lightning with fastauc.torch: an MLP trained for AUC under DDP on the CPU.

    python benchmarks/train_lightning.py [--epochs 20] [--devices 2] [--rows 50000]
                                         [--seed 0] [--loss bce+auc]

Data: scikit-learn's ``make_classification`` (20 features, 3% positives,
2% of the labels flipped), split 60/20/20 into train, validation and test
(stratified).  Two runs of the same LightningModule (an MLP with two hidden
layers of 64): one trained on ``BCEWithLogitsLoss``, one on ``--loss``
(``bce+auc``: BCE plus fastauc's all-pairs squared hinge on the logits,
``PairwiseAUCLoss``; ``auc``: the squared hinge alone).  Each run uses
``Trainer(accelerator="cpu", devices=2, strategy="ddp")`` (gloo).

``fastauc.torch.BinaryAUROC`` is the validation metric: each rank updates it
with its share of the validation rows, Lightning logs it once an epoch, and
its value and DeLong interval are those of every rank's rows together.  The
training AUROC is logged per step (the batch's) and per epoch.

After training, rank 0 scores the test split and prints each model's test
AUC with DeLong's 95% interval (``fastauc.roc_auc_ci``) and DeLong's paired
test between the two models (``fastauc.delong_test``), then the wall time.
fastauc compiles its Numba kernels on first use and caches them, so the
first run on a machine is slower than later ones.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import lightning as L
import torch
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import fastauc
from fastauc.torch import BinaryAUROC, PairwiseAUCLoss

# The data sit in memory as tensors: loader worker processes would only add
# start-up time on two cores.  Lightning advises them anyway, once a loader.
warnings.filterwarnings("ignore", ".*does not have many workers.*")
# Lightning 2.6 calls a torch.utils._pytree name that torch 2.13 deprecates
# (one line a rank, nothing to do on our side).
warnings.filterwarnings("ignore", ".*isinstance\\(treespec, LeafSpec\\)` is deprecated.*")


class AUCModule(L.LightningModule):
    """An MLP for tabular binary classification; ``loss`` is ``"bce"``,
    ``"auc"`` (fastauc's all-pairs squared hinge on the logits) or
    ``"bce+auc"`` (their sum, the pairwise term times ``auc_weight``)."""

    def __init__(self, n_features, loss="bce+auc", auc_weight=1.0, hidden=64, lr=1e-3):
        super().__init__()
        if loss not in ("bce", "auc", "bce+auc"):
            raise ValueError(f"loss must be 'bce', 'auc' or 'bce+auc', got {loss!r}")
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.bce = nn.BCEWithLogitsLoss()
        self.auc_loss = PairwiseAUCLoss()  # squared hinge, margin 1, over all pairs of a batch
        self.train_auroc = BinaryAUROC()
        self.val_auroc = BinaryAUROC()

    def forward(self, x):
        return self.net(x).squeeze(1)  # logits

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = 0.0
        if "bce" in self.hparams.loss:
            loss = loss + self.bce(logits, y)
        if "auc" in self.hparams.loss:
            loss = loss + self.hparams.auc_weight * self.auc_loss(logits, y)  # scores first
        self.train_auroc(logits, y)  # forward: this batch's AUC, and the epoch's state
        self.log("train_auroc", self.train_auroc, on_step=True, on_epoch=True,
                 batch_size=len(y))
        self.log("train_loss", loss, on_step=False, on_epoch=True, sync_dist=True,
                 batch_size=len(y))
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_auroc.update(self(x), y)
        self.log("val_auroc", self.val_auroc, on_epoch=True, prog_bar=True, batch_size=len(y))

    def on_validation_epoch_end(self):
        # DeLong's interval from the metric's state (every rank's rows), before
        # Lightning computes and resets the metric
        ci = self.val_auroc.delong_interval()
        self.log_dict({"val_auroc_low": ci.low, "val_auroc_high": ci.high}, sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class EpochReport(L.Callback):
    """One line an epoch on rank 0 (the validation AUROC and its interval),
    and the training time: the epochs only, once every process has started."""

    seconds = float("nan")

    def on_train_start(self, trainer, pl_module):
        self.start = time.perf_counter()

    def on_train_end(self, trainer, pl_module):
        self.seconds = time.perf_counter() - self.start

    def on_train_epoch_end(self, trainer, pl_module):
        m = trainer.callback_metrics
        if trainer.is_global_zero and "val_auroc" in m:
            print(f"  epoch {trainer.current_epoch + 1}: val_auroc {float(m['val_auroc']):.4f} "
                  f"[{float(m['val_auroc_low']):.4f}, {float(m['val_auroc_high']):.4f}]",
                  flush=True)


def data(rows, seed):
    X, y = make_classification(n_samples=rows, n_features=20, n_informative=8, weights=[0.97],
                               flip_y=0.02, class_sep=0.8, random_state=seed)
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.4, stratify=y,
                                                        random_state=seed)
    X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=0.5,
                                                    stratify=y_rest, random_state=seed)
    scaler = StandardScaler().fit(X_train)

    def tensors(X, y):
        return (torch.tensor(scaler.transform(X), dtype=torch.float32),
                torch.tensor(y, dtype=torch.float32))

    return tensors(X_train, y_train), tensors(X_val, y_val), tensors(X_test, y_test)


def fit(loss, train, val, args):
    L.seed_everything(args.seed, verbose=False)  # the same initial weights for every loss
    model = AUCModule(train[0].shape[1], loss=loss, auc_weight=args.auc_weight)
    trainer = L.Trainer(
        accelerator="cpu", devices=args.devices,
        strategy="ddp" if args.devices > 1 else "auto",  # every process runs this script
        max_epochs=args.epochs, logger=False, enable_checkpointing=False,
        enable_model_summary=False, enable_progress_bar=sys.stderr.isatty(),
        callbacks=[report := EpochReport()])
    if trainer.is_global_zero:
        print(f"loss={loss}", flush=True)
    # the distributed sampler Lightning adds shards (and shuffles) the training rows
    trainer.fit(model, DataLoader(TensorDataset(*train), batch_size=args.batch_size,
                                  shuffle=True),
                DataLoader(TensorDataset(*val), batch_size=4096))
    return model, trainer, report.seconds


@torch.no_grad()
def scores(model, X):
    model.eval()
    return model(X).double().numpy()


def main():
    start = time.perf_counter()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--devices", type=int, default=2, help="CPU processes (DDP ranks)")
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--loss", choices=["bce+auc", "auc"], default="bce+auc",
                        help="the loss compared with BCE")
    parser.add_argument("--auc-weight", type=float, default=1.0,
                        help="weight of the pairwise term in bce+auc")
    parser.add_argument("--batch-size", type=int, default=512, help="rows a batch, per rank")
    args = parser.parse_args()

    train, (X_val, y_val), (X_test, y_test) = data(args.rows, args.seed)
    runs = {}
    for loss in ("bce", args.loss):
        # with strategy="ddp" every rank runs this script; each trains both models
        runs[loss] = fit(loss, train, (X_val, y_val), args)
    trainer = runs["bce"][1]
    if trainer.global_rank != 0:
        return

    y = y_test.numpy()
    test = {loss: scores(model, X_test) for loss, (model, _, _) in runs.items()}
    print(f"\n{args.rows:,} rows ({len(y):,} test rows, {int(y.sum())} positive), "
          f"{args.devices} CPU process{'es (ddp)' if args.devices > 1 else ''}, "
          f"{args.epochs} epochs, batches of {args.batch_size} a rank\n")
    print("| loss | val AUROC (BinaryAUROC, all ranks) | test AUC | 95% DeLong interval "
          "| train s |")
    print("|---|---|---|---|---|")
    gaps = []
    for loss, (model, tr, seconds) in runs.items():
        ci = fastauc.roc_auc_ci(y, test[loss])
        logged = float(tr.callback_metrics["val_auroc"])
        gaps.append(abs(logged - fastauc.roc_auc_score(y_val.numpy(), scores(model, X_val))))
        print(f"| {loss} | {logged:.4f} | {ci.estimate:.4f} | {ci.low:.4f}-{ci.high:.4f} "
              f"| {seconds:.1f} |")
    t = fastauc.delong_test(y, test[args.loss], test["bce"])
    print(f"\nDeLong test, {args.loss} - bce on the test split: difference {t.difference:+.4f} "
          f"(95% interval {t.low:+.4f} to {t.high:+.4f}), z = {t.statistic:.2f}, "
          f"p = {t.pvalue:.3g}")
    # when the validation rows split evenly between the ranks (10,000 on 2 by default)
    # the synced metric is the AUC of every validation row; otherwise Lightning's
    # sampler pads each rank's share with repeated rows, which the metric counts
    print(f"val AUROC logged under DDP minus roc_auc_score of all validation rows on "
          f"rank 0: at most {max(gaps):.1e}")
    print(f"wall time {time.perf_counter() - start:.1f} s (data, both trainings with their "
          f"process start, test)", flush=True)


if __name__ == "__main__":
    main()
