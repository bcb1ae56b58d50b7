"""On a ZeroGPU Space the model-bound work runs inside spaces.GPU; elsewhere it is left alone."""

import sys
import types

from playground.ui.common import on_gpu


def work(x):
    return x + 1


def test_plain_machines_get_the_function_itself(monkeypatch):
    monkeypatch.delenv("SPACES_ZERO_GPU", raising=False)
    assert on_gpu(work) is work


def test_zero_gpu_wraps_with_spaces_gpu(monkeypatch):
    wrapped = []
    fake = types.SimpleNamespace(GPU=lambda fn: wrapped.append(fn) or (lambda *a: ("on gpu", fn(*a))))
    monkeypatch.setitem(sys.modules, "spaces", fake)
    monkeypatch.setenv("SPACES_ZERO_GPU", "true")
    assert on_gpu(work)(1) == ("on gpu", 2) and wrapped == [work]
