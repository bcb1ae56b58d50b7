"""Waiting for a state in a concurrency test: poll a condition until it holds, with a deadline, never a fixed sleep."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Poll `condition` until it holds (True) or `seconds` pass (False)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True
