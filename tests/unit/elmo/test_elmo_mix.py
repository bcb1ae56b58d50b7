import numpy as np
import pytest

from playground.elmo import scalar_mix


def _layers():
    return np.random.default_rng(0).normal(size=(3, 4, 6)).astype(np.float32)


def test_weights_are_a_softmax():
    mix = scalar_mix(_layers(), [0.3, -2.0, 5.0])
    assert mix.weights.shape == (3,)
    assert np.isclose(mix.weights.sum(), 1.0) and np.all(mix.weights > 0)
    assert np.argmax(mix.weights) == 2


def test_equal_scores_average_the_layers_and_gamma_scales_linearly():
    layers = _layers()
    one = scalar_mix(layers, [0, 0, 0], gamma=1.0)
    np.testing.assert_allclose(one.vectors, layers.mean(axis=0), atol=1e-6)
    np.testing.assert_allclose(scalar_mix(layers, [0, 0, 0], gamma=2.5).vectors, 2.5 * one.vectors, atol=1e-6)


def test_one_dominant_layer_selects_it():
    layers = _layers()
    np.testing.assert_allclose(scalar_mix(layers, [-50, 50, -50]).vectors, layers[1], atol=1e-5)


def test_wrong_number_of_weights_is_a_clear_error():
    with pytest.raises(ValueError, match="one weight per layer"):
        scalar_mix(_layers(), [1.0, 2.0])
