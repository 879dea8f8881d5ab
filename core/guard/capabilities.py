"""The saver methods a guard has: exactly those its inner saver has."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from langgraph.checkpoint.base import BaseCheckpointSaver

__all__ = ["OPTIONAL_METHODS", "guarded_class", "overrides"]

_T = TypeVar("_T", bound=type)


class _Guard(Protocol):
    inner: BaseCheckpointSaver[Any]

    def forget(self, thread_ids: Iterable[str] | None) -> None: ...


def _delete_for_runs(self: _Guard, run_ids: Sequence[str]) -> None:
    self.forget(None)  # which threads the runs wrote is the saver's to know
    self.inner.delete_for_runs(run_ids)


async def _adelete_for_runs(self: _Guard, run_ids: Sequence[str]) -> None:
    self.forget(None)
    await self.inner.adelete_for_runs(run_ids)


def _copy_thread(self: _Guard, source_thread_id: str, target_thread_id: str) -> None:
    self.forget([target_thread_id])
    self.inner.copy_thread(source_thread_id, target_thread_id)


async def _acopy_thread(self: _Guard, source_thread_id: str, target_thread_id: str) -> None:
    self.forget([target_thread_id])
    await self.inner.acopy_thread(source_thread_id, target_thread_id)


def _prune(self: _Guard, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
    self.forget(thread_ids)
    self.inner.prune(thread_ids, strategy=strategy)


async def _aprune(
    self: _Guard, thread_ids: Sequence[str], *, strategy: str = "keep_latest"
) -> None:
    self.forget(thread_ids)
    await self.inner.aprune(thread_ids, strategy=strategy)


# name -> the guard's method: the inner saver's, after the guard forgets what they remove
OPTIONAL_METHODS: dict[str, Callable[..., Any]] = {
    "delete_for_runs": _delete_for_runs,
    "adelete_for_runs": _adelete_for_runs,
    "copy_thread": _copy_thread,
    "acopy_thread": _acopy_thread,
    "prune": _prune,
    "aprune": _aprune,
}

_CLASSES: dict[tuple[type, frozenset[str]], type] = {}


def overrides(saver_type: type, name: str) -> bool:
    """Whether `saver_type` has its own `name` (not `BaseCheckpointSaver`'s, which raises
    NotImplementedError): how LangGraph's conformance suite detects a capability.

    Example:
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> overrides(InMemorySaver, "adelete_thread"), overrides(InMemorySaver, "aprune")
        (True, False)
    """
    return getattr(saver_type, name, None) is not getattr(BaseCheckpointSaver, name, None)


# the saver methods the guard has only when the inner saver has its own (the conformance
# suite's capabilities, sync and async): the guard's own, or a delegate above
_CAPABILITIES = (
    *("get_tuple", "aget_tuple", "list", "alist", "put", "aput", "put_writes", "aput_writes"),
    *("delete_thread", "adelete_thread", *OPTIONAL_METHODS),
)


def guarded_class(base: _T, inner: type) -> _T:
    """`base`'s subclass with exactly the capability methods `inner` has: an optional one
    `inner` has is added (a delegate), a method `inner` lacks is `BaseCheckpointSaver`'s
    (which raises NotImplementedError); one class per set of methods, made once.

    Example:
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> from langgraph.checkpoint.postgres import PostgresSaver
        >>> from core.guard import GuardedSaver
        >>> def has(cls):
        ...     return sorted(n for n in ("put", "aput", "prune", "aprune") if overrides(cls, n))
        >>> [has(guarded_class(GuardedSaver, s)) for s in (InMemorySaver, PostgresSaver)]
        [['aput', 'put'], ['prune', 'put']]
    """
    names = frozenset(name for name in _CAPABILITIES if overrides(inner, name))
    made = _CLASSES.get((base, names))
    if made is None:
        methods = {
            name: OPTIONAL_METHODS[name] if name in names else getattr(BaseCheckpointSaver, name)
            for name in _CAPABILITIES
            if (name in names) != overrides(base, name)
        }
        made = type(base.__name__, (base,), {"__module__": base.__module__, **methods})
        made.__qualname__ = base.__qualname__
        _CLASSES[(base, names)] = made
    return made  # type: ignore[return-value]  # a subclass of base, made at run time
