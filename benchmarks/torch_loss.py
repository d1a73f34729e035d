"""fastauc.torch's loss, forward plus backward, against the article's n**2 code.

    python benchmarks/torch_loss.py

Best of 7 runs (2 for the article's code), CPU tensors, 10% positives,
scores normal + label.  Figures in docs/guide/training.md.
"""

import time, torch, numpy as np, fastauc
from fastauc.torch import pairwise_loss
def article_loss(y_true, y_pred):
    y_t = torch.cartesian_prod(y_true, y_true); y_p = torch.cartesian_prod(y_pred, y_pred)
    L = (y_t[:, 0] - y_t[:, 1]) * (y_p[:, 1] - y_p[:, 0]); return 0.5 + L.mean()
def best(f, r=7):
    f(); t = []
    for _ in range(r):
        a = time.perf_counter(); f(); t.append(time.perf_counter() - a)
    return min(t)
for n in (10**4, 10**5):
    g = torch.Generator().manual_seed(0)
    y = (torch.rand(n, generator=g) < 0.1).float()
    s = torch.randn(n, generator=g) + y
    for loss, norm in (("linear", "all_pairs"), ("squared_hinge", True), ("square", True)):
        x = s.clone().requires_grad_()
        def step():
            x.grad = None
            pairwise_loss(y, x, loss=loss, normalize=norm).backward()
        print(n, loss, f"{best(step)*1e3:.2f} ms")
n = 10**4
g = torch.Generator().manual_seed(0)
y = (torch.rand(n, generator=g) < 0.1).float(); s = torch.randn(n, generator=g) + y
x = s.clone().requires_grad_()
def art():
    x.grad = None; article_loss(y, x).backward()
ta = best(art, 2)
x2 = s.clone().requires_grad_()
def ours():
    x2.grad = None; pairwise_loss(y, x2, loss="linear", normalize="all_pairs").backward()
to = best(ours)
print(f"article n=1e4 {ta*1e3:.0f} ms, ours {to*1e3:.3f} ms, ratio {ta/to:.0f}x")
