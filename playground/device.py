"""The one GPU wrapper: every model-bound backend function is an `@entry(seconds)`, run through one runner.

On a ZeroGPU Space CUDA exists only inside a call decorated with `spaces.GPU`, and that call runs in a forked
worker process: its arguments and its result are pickled across (open files, locks, CUDA tensors and generators
cannot cross), what it changes in module state stays in the worker, and the visitor's daily GPU quota is checked
against the *requested* duration before it starts (spaces' default, 60 s, refuses an anonymous student after a
click or two). So here:

- each entry states a short duration estimated from its own arguments (`seconds`: a number, or a function of the
  entry's arguments; clamped to MIN_SECONDS..MAX_SECONDS);
- the UI installs the runner once at start (`install`): `spaces.GPU` on a ZeroGPU Space, a local fork-and-pickle
  emulation of it for tests (`emulate`), nothing elsewhere (the entry is called as it is);
- a `LoadedModel` crosses as its registry key and is looked up in the worker's copy of the model cache (the fork
  inherited it): a 440 MB model is never pickled per click (models.LoadedModel.__reduce__);
- an `InputError` raised inside an entry is carried back as a value and raised again outside: spaces would turn
  it into a bare "ZeroGPU worker error" and the student would lose the reason.

This module never imports gradio or spaces: the UI hands `install` the `spaces.GPU` decorator.
"""

from __future__ import annotations

import functools
import inspect
import io
import multiprocessing
import os
import pickle
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from playground.errors import InputError

MIN_SECONDS, MAX_SECONDS = 4, 90  # what one entry may ask ZeroGPU for; real runs here take well under a second on a GPU


@dataclass
class Entry:
    name: str  # "module.function": the name stats, tests and the emulation report use
    fn: Callable  # the undecorated function
    seconds: float | Callable[..., float]
    generator: bool
    calls: int = 0
    wrapped: Callable | None = None  # what the installed runner wraps (the carried fn, with its duration); None: itself


ENTRIES: dict[str, Entry] = {}
_lock = threading.Lock()


@dataclass
class Stats:
    """What the load panel shows about the GPU runner (process-wide counters)."""

    mode: str = "direct"  # "direct", "zerogpu" or "emulated"
    calls: int = 0
    seconds_requested: float = 0.0
    quota_refusals: int = 0  # ZeroGPU said the visitor's (or the Space's) GPU quota was spent
    worker_errors: int = 0
    by_entry: dict[str, int] = field(default_factory=dict)


STATS = Stats()
_mode = "direct"
_inside = threading.local()  # set in a worker: an entry called from inside another runs directly


def duration(entry: Entry, *args: Any, **kwargs: Any) -> int:
    """The seconds this call asks for: the entry's estimate from its arguments, clamped and rounded up."""
    try:
        raw = entry.seconds(*args, **kwargs) if callable(entry.seconds) else entry.seconds
    except Exception:  # an estimate must never break a request: ask for the most instead
        raw = MAX_SECONDS
    return int(min(MAX_SECONDS, max(MIN_SECONDS, -(-float(raw) // 1))))


def entry(seconds: float | Callable[..., float]) -> Callable[[Callable], Callable]:
    """Declare a model-bound function: it runs through the installed runner with a `seconds` estimate."""

    def declare(fn: Callable) -> Callable:
        name = f"{fn.__module__}.{fn.__qualname__}"
        item = Entry(name, fn, seconds, inspect.isgeneratorfunction(fn))
        ENTRIES[name] = item
        if item.generator:

            @functools.wraps(fn)
            def run_generator(*args: Any, **kwargs: Any) -> Iterator:
                yield from _call_generator(item, args, kwargs)

            run_generator.entry = item
            return run_generator

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            return _call(item, args, kwargs)

        run.entry = item
        return run

    return declare


def mode() -> str:
    return _mode


def install(gpu_decorator: Callable[..., Callable] | None = None, emulated: bool = False) -> None:
    """Choose the runner for every entry (declared so far and later): spaces.GPU, the emulation, or none."""
    global _mode
    with _lock:
        _mode = "emulated" if emulated else "zerogpu" if gpu_decorator is not None else "direct"
        STATS.mode = _mode
        for item in ENTRIES.values():
            _wrap(item, gpu_decorator)
        _decorator[0] = gpu_decorator


_decorator: list[Callable | None] = [None]


def _wrap(item: Entry, gpu_decorator: Callable | None) -> None:
    if gpu_decorator is None:
        item.wrapped = None
        return
    carried = _carry_generator(item.fn) if item.generator else _carry(item.fn)
    item.wrapped = gpu_decorator(carried, duration=functools.partial(duration, item))


def _count(item: Entry, seconds: int) -> None:
    with _lock:
        item.calls += 1
        STATS.calls += 1
        STATS.seconds_requested += seconds
        STATS.by_entry[item.name] = STATS.by_entry.get(item.name, 0) + 1


def _note_failure(exc: BaseException) -> None:
    text = f"{type(exc).__name__} {getattr(exc, 'title', '')} {exc}".lower()
    with _lock:
        if "zerogpu" in text and ("quota" in text or "gpu limit" in text or "credits" in text):
            STATS.quota_refusals += 1
        elif "worker error" in text or "could not cross" in text:
            STATS.worker_errors += 1


def _direct(item: Entry) -> bool:
    if getattr(_inside, "active", False):  # already inside a GPU call: no second one
        return True
    if _mode == "direct":
        with _lock:
            item.calls += 1
        return True
    if item.wrapped is None and _mode == "zerogpu":
        _wrap(item, _decorator[0])  # declared after install
    return False


def _call(item: Entry, args: tuple, kwargs: dict) -> Any:
    if _direct(item):
        return item.fn(*args, **kwargs)
    _count(item, duration(item, *args, **kwargs))
    try:
        if _mode == "emulated":
            return _unwrap(_emulate(_carry(item.fn), args, kwargs, generator=False))
        return _unwrap(item.wrapped(*args, **kwargs))
    except InputError:
        raise
    except Exception as exc:
        _note_failure(exc)
        raise


def _call_generator(item: Entry, args: tuple, kwargs: dict) -> Iterator:
    if _direct(item):
        yield from item.fn(*args, **kwargs)
        return
    _count(item, duration(item, *args, **kwargs))
    source = None
    try:
        source = (
            _emulate(_carry_generator(item.fn), args, kwargs, generator=True)
            if _mode == "emulated"
            else item.wrapped(*args, **kwargs)
        )
        for value in source:
            yield _unwrap(value)
    except InputError:
        raise
    except Exception as exc:
        _note_failure(exc)
        raise
    finally:
        # Stopped early (a refusal raised above, the student cancelled): end the GPU call now. Left to the garbage
        # collector -- the raised error's traceback keeps it alive -- the emulation's pipe and worker stayed open.
        close = getattr(source, "close", None)
        if close is not None:
            close()


# An InputError crosses back as this value (spaces re-raises only gradio's own errors with their message).
@dataclass(frozen=True)
class _Refused:
    code: str
    message: str
    params: dict


def _carry(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def carried(*args: Any, **kwargs: Any) -> Any:
        _inside.active = True
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            return _Refused(exc.code, str(exc), {k: str(v) for k, v in exc.params.items()})
        finally:
            _inside.active = False

    return carried


def _carry_generator(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def carried(*args: Any, **kwargs: Any) -> Iterator:
        _inside.active = True
        try:
            yield from fn(*args, **kwargs)
        except InputError as exc:
            yield _Refused(exc.code, str(exc), {k: str(v) for k, v in exc.params.items()})
        finally:
            _inside.active = False

    return carried


def _unwrap(value: Any) -> Any:
    if isinstance(value, _Refused):
        error = InputError(value.code, value.message)
        error.params = dict(value.params)
        raise error
    return value


# ---- the local emulation of ZeroGPU: a forked worker per call, everything pickled both ways ----


class CannotCross(TypeError):
    """An argument or result that could not cross into or out of the GPU worker (names what and why)."""


class _StrictPickler(pickle.Pickler):
    """pickle, refusing tensors on an accelerator: on ZeroGPU no CUDA tensor may outlive the call."""

    def reducer_override(self, obj: Any) -> Any:
        torch = sys.modules.get("torch")
        # Tensors and generators only: a storage's `.device` warns that TypedStorage is deprecated (its tensor, met
        # first, was already checked).
        if torch is not None and isinstance(obj, (torch.Tensor, torch.Generator)):
            if obj.device.type not in ("cpu", "meta"):
                raise CannotCross(f"a tensor on {obj.device} cannot cross the GPU boundary; move it to the CPU first")
        return NotImplemented


def dumps(value: Any, what: str) -> bytes:
    """`value` pickled as ZeroGPU's worker queue would pickle it; CannotCross names what failed."""
    buffer = io.BytesIO()
    try:
        _StrictPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    except CannotCross:
        raise
    except Exception as exc:
        raise CannotCross(f"the {what} could not cross into the GPU worker: {type(exc).__name__}: {exc}") from None
    return buffer.getvalue()


def _child(fn: Callable, payload: bytes, conn: Any, generator: bool) -> None:
    try:
        import torch  # deferred: torch takes seconds to import; importing this module needs none

        # The parent's OpenMP pool does not survive a fork (its first parallel region would hang): one thread, as a
        # ZeroGPU worker uses the CPU for little but moving tensors.
        torch.set_num_threads(1)
        args, kwargs = pickle.loads(payload)
        if generator:
            for value in fn(*args, **kwargs):
                conn.send_bytes(b"i" + dumps(value, "result"))
            conn.send_bytes(b"e")
        else:
            conn.send_bytes(b"o" + dumps(fn(*args, **kwargs), "result"))
    except BaseException as exc:  # anything else is a worker error, as on ZeroGPU (the class name, no message)
        try:
            conn.send_bytes(b"x" + pickle.dumps(f"{type(exc).__name__}: {exc}"))
        except Exception:
            pass
    finally:
        conn.close()
        os._exit(0)  # no atexit handlers, no flushing of the parent's buffers twice


def _emulate(fn: Callable, args: tuple, kwargs: dict, generator: bool) -> Any:
    payload = dumps((args, kwargs), "arguments")
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_child, args=(fn, payload, send, generator), daemon=True)
    worker.start()
    send.close()

    def messages() -> Iterator[Any]:
        try:
            while True:
                try:
                    message = receive.recv_bytes()
                except EOFError:
                    raise RuntimeError("ZeroGPU worker error: the GPU worker ended without a result") from None
                kind, body = message[:1], message[1:]
                if kind == b"x":
                    raise RuntimeError(f"ZeroGPU worker error: {pickle.loads(body)}")
                if kind == b"e":
                    return
                yield pickle.loads(body)
                if kind == b"o":
                    return
        finally:
            receive.close()
            worker.join(timeout=30)
            if worker.is_alive():  # a consumer that stopped early: the worker has nobody to talk to
                worker.kill()

    if generator:
        return messages()
    (value,) = messages()  # read to its end: the pipe closed and the worker joined before the value is returned
    return value
