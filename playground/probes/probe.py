"""Linear probes per layer with Hewitt & Liang's control task (2019): held-out accuracy, control accuracy, selectivity.

scikit-learn does the fitting; only the control labels and the word-alone baseline are written here (a few lines each,
no library offers them).
"""

from __future__ import annotations

import warnings

from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

C = 1.0  # inverse L2 strength, scikit-learn's default; Hewitt & Liang show selectivity depends on it, so it is fixed
MAX_ITER = 300
PROBE = f"StandardScaler + LogisticRegression(C={C}, lbfgs, max_iter={MAX_ITER})"


def control_labels(words: Sequence[str], train_labels: Sequence[str], seed: int) -> list[str]:
    """One random label per word type, drawn from the training labels' frequencies: the control task.

    Types are drawn in sorted order from a generator of their own, so the labels depend on the seed and the set of
    words only (not on token order); a word gets the same control label wherever it occurs, train or test.
    """
    counts = Counter(train_labels)
    classes = sorted(counts)
    p = np.array([counts[c] for c in classes], dtype=float)
    rng = np.random.default_rng(seed)
    types = sorted(set(words))
    drawn = rng.choice(len(classes), size=len(types), p=p / p.sum())
    table = {w: classes[i] for w, i in zip(types, drawn)}
    return [table[w] for w in words]


def shuffled_within_word(words: Sequence[str], labels: Sequence[str], seed: int) -> list[str]:
    """Each word's labels dealt out again at random among its own tokens: the control task for senses.

    Hewitt & Liang's control gives every word type one label, which suits part of speech (nearly a property of the
    word) but not sense (a property of the token: "bank" has two). This control keeps what a probe could get from the
    word alone (each word's senses and how often each occurs) and removes what only the context can give (which token
    has which sense). Words are dealt in sorted order from one generator, so the result depends on the seed only.
    """
    rng = np.random.default_rng(seed)
    out = list(labels)
    where: dict[str, list[int]] = defaultdict(list)
    for i, w in enumerate(words):
        where[w].append(i)
    for w in sorted(where):
        idx = where[w]
        for i, y in zip(idx, rng.permutation([labels[i] for i in idx])):
            out[i] = str(y)
    return out


def word_alone(train_words: Sequence[str], train_labels: Sequence[str], test_words: Sequence[str], test_labels) -> float:
    """Held-out accuracy of guessing each word's most frequent training label (the overall majority for new words)."""
    by_word: dict[str, Counter] = defaultdict(Counter)
    for w, y in zip(train_words, train_labels):
        by_word[w][y] += 1
    overall = Counter(train_labels).most_common(1)[0][0]
    guess = [by_word[w].most_common(1)[0][0] if w in by_word else overall for w in test_words]
    return float(np.mean([g == y for g, y in zip(guess, test_labels)]))


def majority(train_labels: Sequence[str], test_labels: Sequence[str]) -> float:
    top = Counter(train_labels).most_common(1)[0][0]
    return float(np.mean([y == top for y in test_labels]))


def _probe(seed: int):
    # deferred: scikit-learn takes ~1 s to import, and the page reads the shipped curves without it
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=MAX_ITER, random_state=seed))


def accuracy(x_train: np.ndarray, y_train: Sequence[str], x_test: np.ndarray, y_test: Sequence[str], seed: int) -> float:
    """Held-out accuracy of one linear probe trained on (x_train, y_train). One class only: it always answers it."""
    if len(set(y_train)) < 2:
        return float(np.mean([y == y_train[0] for y in y_test]))
    from sklearn.exceptions import ConvergenceWarning  # deferred, as in _probe

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # the probe's budget is fixed; its accuracy is what counts
        model = _probe(seed).fit(x_train, list(y_train))
    return float(np.mean(model.predict(x_test) == np.asarray(y_test)))


def loo_accuracy(x: np.ndarray, y: Sequence[str], seed: int) -> float:
    """Leave-one-out: each token predicted by a probe trained on all the others (for sets too small to split)."""
    hits = []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        hits.append(accuracy(x[keep], [y[j] for j in np.flatnonzero(keep)], x[i : i + 1], [y[i]], seed))
    return float(np.mean(hits))


def type_control(words: Sequence[str], labels: Sequence[str], is_test: Sequence[bool] | None, seed: int) -> list[str]:
    """Hewitt & Liang's control task, the labels' frequencies taken from the training tokens."""
    train = labels if is_test is None else [y for y, t in zip(labels, is_test) if not t]
    return control_labels(words, train, seed)


def sense_control(words: Sequence[str], labels: Sequence[str], is_test: Sequence[bool] | None, seed: int) -> list[str]:
    return shuffled_within_word(words, labels, seed)


CONTROLS = {"pos": type_control, "sense": sense_control}  # which control task each label gets (see their docstrings)
CONTROL_NAMES = {"pos": "word_type", "sense": "within_word"}


def layer_curves(
    features: np.ndarray,
    words: Sequence[str],
    labels: Sequence[str],
    is_test: Sequence[bool] | None,
    seed: int,
    control: str = "pos",
) -> dict:
    """Per layer (features: layers x tokens x dim): task and control accuracy and selectivity, plus the baselines.

    `is_test` None means leave-one-out over all tokens; `control` names the control task (CONTROLS). Returns plain
    lists and numbers (a TaskCurve's fields).
    """
    words, labels = list(words), list(labels)
    control_of = CONTROLS[control](words, labels, is_test, seed)
    if is_test is None:
        acc = [loo_accuracy(layer, labels, seed) for layer in features]
        ctl = [loo_accuracy(layer, control_of, seed) for layer in features]
        senses_per_word = {w: len({y for v, y in zip(words, labels) if v == w}) for w in words}
        alone = float(np.mean([1 / senses_per_word[w] for w in words]))
        top = Counter(labels).most_common(1)[0][1] / len(labels)
        n_train, n_test = len(labels) - 1, len(labels)
    else:
        test = np.asarray(is_test, dtype=bool)
        train_words = [w for w, t in zip(words, test) if not t]
        train_labels = [y for y, t in zip(labels, test) if not t]
        test_words = [w for w, t in zip(words, test) if t]
        test_labels = [y for y, t in zip(labels, test) if t]
        c_train = [c for c, t in zip(control_of, test) if not t]
        c_test = [c for c, t in zip(control_of, test) if t]
        acc = [accuracy(layer[~test], train_labels, layer[test], test_labels, seed) for layer in features]
        ctl = [accuracy(layer[~test], c_train, layer[test], c_test, seed) for layer in features]
        alone = word_alone(train_words, train_labels, test_words, test_labels)
        top = majority(train_labels, test_labels)
        n_train, n_test = len(train_labels), len(test_labels)
    return {
        "accuracy": acc,
        "control": ctl,
        "selectivity": [a - c for a, c in zip(acc, ctl)],
        "word_alone": alone,
        "majority": top,
        "n_train": n_train,
        "n_test": n_test,
        "n_classes": len(set(labels)),
        "n_types": len(set(words)),
        "split": "leave-one-out" if is_test is None else "fixed",
        "control_task": CONTROL_NAMES[control],
    }
