"""Import the user's model and graph, check what they are, and name the caveats to state."""

from __future__ import annotations

import dataclasses
import importlib
from typing import TYPE_CHECKING, Any, is_typeddict

from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.lg_compat import accepted_keywords, builder_of, context_schema, nodes_of, state_schema
from core.words import article

if TYPE_CHECKING:  # langgraph.graph costs half a second: only --graph needs it
    from core.order.graph import CompiledGraph

__all__ = ["ProjectError", "graph_caveats", "is_model", "load_graph", "load_model"]


class ProjectError(CodedError):
    """A model or graph the playground could not use (or a caveat about one), with a code."""


def is_model(value: Any) -> bool:
    """Whether `value` is a Pydantic model class (not an instance, not a TypedDict).

    Example:
        >>> from core.order import AgentState
        >>> is_model(AgentState), is_model(dict)
        (True, False)
    """
    return isinstance(value, type) and issubclass(value, BaseModel)


def load_model(spec: str, kind: str = "model") -> type[BaseModel]:
    """Import the "pkg.mod:Attr" `spec` and check it is a Pydantic model class (`kind`
    names it in errors: "model", or "candidate" for the changed model stores are audited
    against).

    Example:
        >>> load_model("core.order:LineItem").__name__
        'LineItem'
    """
    target = _import(spec, kind)
    if is_model(target):
        model: type[BaseModel] = target
        return model
    what = "a TypedDict" if is_typeddict(target) else _kind(target)
    raise ProjectError(
        ErrorCode.NOT_A_MODEL,
        f"{kind} {spec!r} is {what}, not a Pydantic BaseModel subclass; point --{kind} at a "
        "class that subclasses pydantic.BaseModel.",
    )


def load_graph(spec: str) -> CompiledGraph:
    from langgraph.graph import StateGraph
    from langgraph.graph.state import CompiledStateGraph

    """Import the "pkg.mod:Attr" `spec`: a compiled graph, a builder, or a factory of either.

    Example:
        >>> state_schema(builder_of(load_graph("core.order:build_fanout_graph"))).__name__
        'AgentState'
    """
    target = _import(spec, "graph")
    if callable(target) and not isinstance(target, StateGraph | CompiledStateGraph | type):
        try:
            target = target()
        except Exception as exc:
            raise ProjectError(
                ErrorCode.GRAPH_FACTORY_FAILED,
                f"graph factory {spec!r} raised {type(exc).__name__}: {exc}. A factory must "
                "take no arguments and return a StateGraph or a compiled graph.",
            ) from exc
    if isinstance(target, StateGraph):
        try:
            target = target.compile()
        except Exception as exc:
            raise ProjectError(
                ErrorCode.GRAPH_COMPILE_FAILED,
                f"graph {spec!r} did not compile: {type(exc).__name__}: {exc}. Fix the builder.",
            ) from exc
    if not isinstance(target, CompiledStateGraph):
        raise ProjectError(
            ErrorCode.NOT_A_GRAPH,
            f"graph {spec!r} is {_kind(target)}; point --graph at a StateGraph builder, a "
            "compiled graph, or a zero-argument function returning one.",
        )
    return target


def graph_caveats(graph: CompiledGraph, model: type[BaseModel] | None) -> list[ProjectError]:
    """What a run here does differently from the user's own: state, checkpointer, config, stops.

    `model` is the model the pages validate against (None: no Pydantic model is checked).

    Example:
        >>> from typing import TypedDict
        >>> from langgraph.graph import StateGraph
        >>> class Counter(TypedDict):
        ...     n: int
        >>> builder = StateGraph(Counter).add_node("inc", lambda s: s).set_entry_point("inc")
        >>> [str(note.code) for note in graph_caveats(builder.compile(), None)]
        ['state_not_pydantic']
    """
    builder = builder_of(graph)
    state = state_schema(builder)
    notes = [] if is_model(state) else [_state_note(state, model)]
    context = getattr(context_schema(builder), "__name__", None)
    readers = [
        node.name
        for node in nodes_of(builder)
        if {"config", "runtime"} & accepted_keywords(node.runnable)
    ]
    stops = ", ".join(map(str, [*graph.interrupt_before_nodes, *graph.interrupt_after_nodes]))
    one = len(readers) == 1
    checks = [
        (graph.checkpointer not in (None, False), ErrorCode.GRAPH_CHECKPOINTER_REPLACED,
         "the graph was compiled with a checkpointer; every run here uses its own fresh "
         "in-memory checkpointer instead, so your store is never read or written."),
        (context is not None, ErrorCode.GRAPH_NEEDS_CONTEXT,
         f"the graph declares context_schema {context}; runs here pass no context, so nodes "
         "reading runtime.context get None."),
        (bool(readers), ErrorCode.GRAPH_READS_CONFIG,
         f"{'node' if one else 'nodes'} {', '.join(readers)} {'takes' if one else 'take'} "
         "config or runtime; runs here pass only a thread_id and no context, so keys your "
         "nodes expect there are missing."),
        (bool(stops), ErrorCode.GRAPH_INTERRUPTS,
         f"the graph interrupts at {stops}; a run here stops there and is not resumed. "
         "Compile a variant without interrupt_before/after."),
    ]  # fmt: skip
    return notes + [ProjectError(code, message) for hit, code, message in checks if hit]


def _state_note(state: Any, model: type[BaseModel] | None) -> ProjectError:
    checked = (
        f"The gate and the per-step checks validate {model.__name__}'s fields only."
        if model
        else "No Pydantic model is checked: pass --model (or an input_schema) to validate."
    )
    kind = "a plain class"
    if is_typeddict(state):
        kind = "a TypedDict"
    elif dataclasses.is_dataclass(state):
        kind = "a dataclass"
    return ProjectError(
        ErrorCode.STATE_NOT_PYDANTIC,
        f"the graph's state {state.__name__} is {kind}: LangGraph validates nothing "
        f"between nodes. {checked}",
    )


def _import(spec: str, kind: str) -> Any:
    module_name, _, attr = spec.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and f"{module_name}.".startswith(f"{exc.name}."):
            raise ProjectError(
                ErrorCode.MODULE_NOT_FOUND,
                f"{kind} module {module_name!r} was not found. Run the playground from the "
                "directory that holds it (or install it), and check the spelling.",
            ) from exc
        raise _import_failed(module_name, kind, exc) from exc
    except (Exception, SystemExit) as exc:
        raise _import_failed(module_name, kind, exc) from exc
    for part in attr.split("."):
        if not hasattr(target, part):
            raise ProjectError(
                ErrorCode.ATTRIBUTE_MISSING,
                f"{kind} module {module_name!r} has no attribute {part!r}; "
                "check the name after the colon.",
            )
        target = getattr(target, part)
    return target


def _import_failed(module_name: str, kind: str, exc: BaseException) -> ProjectError:
    return ProjectError(
        ErrorCode.MODULE_IMPORT_FAILED,
        f"{kind} module {module_name!r} raised {type(exc).__name__} on import: {exc}. "
        "Fix the module so that importing it succeeds.",
    )


def _kind(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__qualname__}"
    return article(type(value).__name__) + " value"
