"""Forward hooks with stable stage names: the one way to read (and knock out or patch) a model's insides.

`with capture(model, ["blocks.*.resid_post", "logits"]) as cache: model(**inputs)` records, in that one forward
pass, every stage the names (or fnmatch patterns) ask for, as float32 tensors on the CPU with the batch axis
kept: `cache["blocks.3.attn.pattern"]` is (batch, heads, T, T). Where a stage lives in the model is
`playground.architectures`' table, never a branch here. `replace={name: fn}` swaps a stage's tensor for
`fn(tensor)` before the model carries on with it: knock-out and activation patching are such functions
(`knock_out_heads`). head_mask is not used: transformers 5.23 silently ignores it for most families.

A hook belongs to the model object, which the server shares between requests running at once in other threads:
every hook here acts only in the thread that attached it (`own_thread`), so one student's knock-out never silences
heads in another student's forward pass, and another pass never writes into this one's record.
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from playground.architectures import BlockKind, Stage, block_kind

Tensor = Any  # torch.Tensor; torch is imported where a pass runs (this module stays importable without it)
Replace = Callable[[Tensor], Tensor]  # the model's own tensor (batch axis first) -> the tensor the model carries on with


@dataclass(frozen=True)
class Point:
    """One named stage resolved to a module of this very model."""

    name: str
    stage: Stage
    module: Any
    layer: int  # -1 outside the blocks


def _module(model: Any, base: Any, path: str) -> Any | None:
    root, path = (model, path[4:]) if path.startswith("top:") else (base, path)
    try:
        return root.get_submodule(path) if path else root
    except AttributeError:  # an optional stage (an MLM head) the model does not have
        return None


def points(model: Any, kind: BlockKind | None = None) -> dict[str, Point]:
    """Every stage of `model` by name, in forward order, resolved to its module (stages the model lacks are left out)."""
    kind = kind or block_kind(model)
    base = getattr(model, "base_model", model)
    blocks = base.get_submodule(kind.blocks)
    found: dict[str, Point] = {}

    def add(stage: Stage, name: str, root_path: str, layer: int) -> None:
        path = stage.path if stage.path.startswith("top:") else ".".join(p for p in (root_path, stage.path) if p)
        module = _module(model, base, path)
        if module is None:
            if not stage.optional:
                raise ValueError(f"{type(model).__name__} has no module {path!r} for stage {name!r}")
            return
        found[name] = Point(name, stage, module, layer)

    for stage in kind.embed:
        add(stage, stage.name, "", -1)
    for i in range(len(blocks)):
        for stage in kind.block:
            add(stage, f"blocks.{i}.{stage.name}", f"{kind.blocks}.{i}", i)
    for stage in kind.final:
        add(stage, stage.name, "", -1)
    return found


def select(names: Iterable[str], wanted: Iterable[str] | None) -> list[str]:
    """The names matching any of `wanted` (exact names or fnmatch patterns such as "blocks.*.attn.pattern")."""
    names = list(names)
    if wanted is None:
        return names
    wanted = list(wanted)
    return [n for n in names if any(n == w or fnmatch.fnmatchcase(n, w) for w in wanted)]


def _third(tensor: Tensor, part: int) -> Tensor:
    return tensor if part < 0 else tensor.chunk(3, dim=-1)[part]


def _swap(tensor: Tensor, part: int, fn: Replace) -> Tensor:
    """`tensor` with its stage (the whole, or one third of a fused q | k | v) replaced by `fn` of it."""
    if part < 0:
        return fn(tensor)
    pieces = list(tensor.chunk(3, dim=-1))
    pieces[part] = fn(pieces[part])
    import torch  # deferred: this module stays importable without torch (the figures' and docs' checks)

    return torch.cat(pieces, dim=-1)


def own_thread(hook: Callable[..., Any]) -> Callable[..., Any]:
    """`hook`, acting only in the thread that made it; in any other thread's forward pass it leaves the call alone
    (returns None: torch then carries on with the module's own input or output)."""
    owner = threading.get_ident()

    @functools.wraps(hook)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        return hook(*args, **kwargs) if threading.get_ident() == owner else None

    return guarded


def _hooks(module: Any, group: list[Point], cache: dict, replace: Mapping[str, Replace]) -> list[Any]:
    """The hooks of one module: a pre-hook for stages on its input, a forward hook for those on its outputs."""
    handles = []
    inputs = [p for p in group if p.stage.at == "in"]
    outputs = [p for p in group if p.stage.at != "in"]

    def record(p: Point, tensor: Tensor) -> None:
        cache[p.name] = _third(tensor, p.stage.part).detach().float().cpu()

    if inputs:

        def before(mod, args, kwargs):
            keyword = not args  # a block called as block(hidden_states=...) rather than positionally
            x = kwargs["hidden_states"] if keyword else args[0]
            for p in inputs:
                if p.name in replace:
                    x = _swap(x, p.stage.part, replace[p.name])
                record(p, x)
            if not any(p.name in replace for p in inputs):
                return None  # nothing changed: the model's own call goes on untouched
            return (args, {**kwargs, "hidden_states": x}) if keyword else ((x, *args[1:]), kwargs)

        handles.append(module.register_forward_pre_hook(own_thread(before), with_kwargs=True))
    if outputs:

        def after(mod, args, output):
            many = isinstance(output, (tuple, list))
            items = list(output) if many else [output]
            for p in outputs:
                slot = {"out1": 1, "out2": 2}.get(p.stage.at, 0)  # T5's attention: (output, position bias, weights)
                if p.name in replace:
                    items[slot] = _swap(items[slot], p.stage.part, replace[p.name])
                record(p, items[slot])
            if not any(p.name in replace for p in outputs):
                return None
            return type(output)(items) if many else items[0]

        handles.append(module.register_forward_hook(own_thread(after)))
    return handles


@contextlib.contextmanager
def capture(
    model: Any, names: Iterable[str] | None = None, replace: Mapping[str, Replace] | None = None
) -> Iterator[dict[str, Tensor]]:
    """Record the stages `names` asks for (None: all) while the block runs; `replace` changes stages on the way.

    The dict is filled as the model runs and stays valid after the block; the hooks are gone after it, also when
    the forward pass raised.
    """
    replace = dict(replace or {})
    table = points(model)
    unknown = [n for n in replace if n not in table]
    if unknown:
        raise ValueError(f"no stage named {unknown[0]!r} in this model")
    chosen = set(select(table, names)) | set(replace)
    by_module: dict[int, list[Point]] = {}
    for name in chosen:
        by_module.setdefault(id(table[name].module), []).append(table[name])
    cache: dict[str, Tensor] = {}
    handles = [h for group in by_module.values() for h in _hooks(group[0].module, group, cache, replace)]
    try:
        yield cache
    finally:
        for handle in handles:
            handle.remove()
        ordered = {n: cache[n] for n in table if n in cache}  # forward order, whatever order the hooks fired in
        cache.clear()
        cache.update(ordered)


def knock_out_heads(model: Any, heads: Iterable[tuple[int, int]]) -> dict[str, Replace]:
    """Replacements that silence attention heads: (layer, head) -> its columns of the concatenation set to 0.

    The concatenation is W^O's input, so a silenced head adds nothing to the attention update (W^O's bias stays).
    """
    width = head_width(model)
    by_layer: dict[int, list[int]] = {}
    for layer, head in heads:
        by_layer.setdefault(int(layer), []).append(int(head))

    def silence(chosen: list[int]) -> Replace:
        def fn(concat: Tensor) -> Tensor:
            concat = concat.clone()
            for h in chosen:
                concat[..., h * width : (h + 1) * width] = 0
            return concat

        return fn

    return {f"blocks.{layer}.attn.concat": silence(chosen) for layer, chosen in by_layer.items()}


def head_width(model: Any) -> int:
    """d_v: how many columns of the heads' concatenation (W^O's input) each head writes."""
    config = model.config
    return getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads


def knock_out_each(model: Any, heads: list[tuple[int, int] | None]) -> dict[str, Replace]:
    """Replacements for a batch that silence one head per row: row i of the batch runs with `heads[i]` silenced
    (None: that row runs untouched). One batched pass then gives every single head's effect (the knock-out view's
    ranking) instead of one pass per head."""
    width = head_width(model)
    by_layer: dict[int, list[tuple[int, int]]] = {}
    for row, chosen in enumerate(heads):
        if chosen is not None:
            by_layer.setdefault(int(chosen[0]), []).append((row, int(chosen[1])))

    def silence(rows: list[tuple[int, int]]) -> Replace:
        def fn(concat: Tensor) -> Tensor:
            concat = concat.clone()
            for row, h in rows:
                concat[row, ..., h * width : (h + 1) * width] = 0
            return concat

        return fn

    return {f"blocks.{layer}.attn.concat": silence(rows) for layer, rows in by_layer.items()}
