"""AUCLinearClassifier: a scikit-learn estimator (check_estimator passes),
fitted to the penalised all-pairs loss computed by the O(n**2) definition."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.linear_model import LogisticRegression
from sklearn.utils.estimator_checks import parametrize_with_checks

import fastauc
from fastauc import AUCLinearClassifier, naive

LOSSES = ["squared_hinge", "square", "hinge", "linear"]


@parametrize_with_checks([AUCLinearClassifier(loss=loss) for loss in LOSSES])
def test_scikit_learn_estimator_checks(estimator, check):
    """Every check of check_estimator; the one scikit-learn itself skips
    (array API input, without SCIPY_ARRAY_API) is its only skip."""
    check(estimator)


def blobs(rng, n=300):
    """The article's example: two Gaussian blobs in two dimensions."""
    X = np.vstack([rng.normal(-1.0, 1.0, (n // 2, 2)), rng.normal(1.0, 1.0, (n // 2, 2))])
    y = np.repeat([0, 1], n // 2)
    return X, y


@pytest.mark.parametrize("loss", ["squared_hinge", "square", "linear"])
@pytest.mark.parametrize("weighted", [False, True])
def test_coefficients_minimise_the_defined_objective(loss, weighted, rng):
    """The fit equals L-BFGS on the O(n**2) definition of the same objective."""
    X, y = blobs(rng, 60)
    w = rng.uniform(0.5, 2.0, len(y)) if weighted else None
    C = 0.05
    clf = AUCLinearClassifier(loss=loss, C=C, tol=1e-10).fit(X, y, sample_weight=w)
    total = len(y) if w is None else w.sum()

    def objective(coef):
        value, grad, _ = naive.pairwise_loss(y, X @ coef, loss=loss, sample_weight=w)
        return C * total * value + 0.5 * coef @ coef, C * total * (X.T @ grad) + coef

    ref = minimize(objective, np.zeros(2), jac=True, method="L-BFGS-B",
                   options={"gtol": 1e-10})
    np.testing.assert_allclose(clf.coef_[0], ref.x, rtol=1e-6, atol=1e-8)
    assert clf.loss_ == pytest.approx(ref.fun, rel=1e-9)


def test_ranks_the_blobs_as_logistic_regression_does(rng):
    X, y = blobs(rng, 2000)
    ours = AUCLinearClassifier().fit(X, y)
    lr = LogisticRegression().fit(X, y)
    auc_ours = fastauc.roc_auc_score(y, ours.decision_function(X))
    auc_lr = fastauc.roc_auc_score(y, lr.decision_function(X))
    assert auc_ours == pytest.approx(auc_lr, abs=0.005)
    # the intercept cuts at the training threshold of best accuracy
    best = fastauc.best_threshold(y, X @ ours.coef_[0], metric="accuracy")
    assert ours.score(X, y) == pytest.approx(best.value, abs=1e-12)


def test_gradient_handed_to_lbfgs_is_the_objectives(rng):
    """Finite differences of the penalised loss match its gradient."""
    X, y = blobs(rng, 200)
    clf = AUCLinearClassifier(loss="square", C=0.3).fit(X, y)
    coef = clf.coef_[0] + 0.1

    def value(c):
        return 0.3 * len(y) * fastauc.pairwise_loss(y, X @ c, loss="square") + 0.5 * c @ c

    _, grad = fastauc.pairwise_loss_gradient(y, X @ coef, loss="square")
    analytic = 0.3 * len(y) * (X.T @ grad) + coef
    h = 1e-6
    numeric = [(value(coef + h * e) - value(coef - h * e)) / (2 * h) for e in np.eye(2)]
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6)


@pytest.mark.parametrize("params, words", [
    ({"loss": "aum"}, "minimum is coef_ = 0"),
    ({"loss": "logistic"}, "'loss' parameter"),
    ({"C": 0.0}, "C must be a finite number > 0"),
    ({"C": float("nan")}, "C must be"),
    ({"margin": -1.0, "loss": "square"}, "margin"),
    ({"max_iter": 0}, "max_iter"),
])
def test_bad_parameters_raise_at_fit(params, words, rng):
    X, y = blobs(rng, 20)
    with pytest.raises(ValueError, match=words):
        AUCLinearClassifier(**params).fit(X, y)


def test_multiclass_is_refused_with_scikit_learns_words(rng):
    X = rng.normal(size=(30, 2))
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        AUCLinearClassifier().fit(X, np.arange(30) % 3)


def test_optional_parts_load_only_when_used():
    """``import fastauc`` and ``from fastauc import *`` work without
    scikit-learn, scipy, LightGBM and XGBoost; the estimator and the
    objectives load them on first use."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('sklearn', 'scipy', 'lightgbm', 'xgboost'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from fastauc import *\n"
        "import fastauc, fastauc.objectives\n"
        "print(pairwise_loss([0, 1], [0.2, 0.9], loss='hinge'))\n"
        "try:\n"
        "    fastauc.AUCLinearClassifier\n"
        "except ImportError as e:\n"
        "    print('estimator needs', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert float(out.splitlines()[0]) == pytest.approx(0.3)
    assert 'estimator needs fastauc.AUCLinearClassifier needs scikit-learn and scipy: pip ' \
        'install "fastauc[sklearn]"' in out
