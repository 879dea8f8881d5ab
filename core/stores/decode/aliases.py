"""Types a LangGraph server stored under its own name for a graph file, read as the user's."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping

import ormsgpack

from core.lg_compat import MSGPACK_EXT_HOLDS_VALUES, MSGPACK_EXT_NAMES_MODULE, build_serde_allowlist

__all__ = ["module_aliases", "needles", "rewrite_modules", "server_module_names"]

# LangGraph's msgpack extension codes (langgraph.checkpoint.serde.jsonplus): 0-5 hold a tuple
# whose first item is a module name; 6 (numpy) holds no name.
_NAMES_A_MODULE = MSGPACK_EXT_NAMES_MODULE
_WALKED = _NAMES_A_MODULE | MSGPACK_EXT_HOLDS_VALUES  # 7: a value that holds others
_OPTIONS = ormsgpack.OPT_NON_STR_KEYS
# Values nest extension values a few levels deep (a dataclass holding a model holding a
# datetime); a stored value nesting more is not LangGraph's own: left to the normal decoder.
_MAX_DEPTH = 64
_LIBRARIES = frozenset({"builtins", "langchain", "langgraph", "pydantic", "pydantic_core"})


def _is_library(module: str) -> bool:
    top = module.split(".")[0]
    return top in _LIBRARIES or top.startswith("langchain_")  # langchain_core, partners


def _server_name(path: str) -> str:
    # langgraph_api.graph._graph_from_spec, exactly: every ".py" goes, not only the suffix
    return path.replace("/", "__").replace(".py", "").replace(" ", "_").lstrip(".")


def server_module_names(module_file: str) -> set[str]:
    """Every module name `langgraph dev` may give this file, for each way to point at it.

    A graph named by path in `langgraph.json` ("./src/agent/graph.py:graph") is imported
    under a name made from that path as written: "/" becomes "__", ".py" is removed,
    " " becomes "_" and leading dots go. The path is relative to the directory the server
    runs in, which may be any parent of the file, with or without a leading "./" ("../x"
    gives the same name as "./x"; paths climbing more than one level are not covered).

    Example:
        >>> names = server_module_names("/x/proj/src/agent/graph.py")
        >>> sorted(name for name in names if "proj" not in name)
        ['__agent__graph', '__graph', '__src__agent__graph', 'agent__graph', 'src__agent__graph']
        >>> sorted(name for name in names if "proj" in name)[:2]
        ['__proj__src__agent__graph', '__x__proj__src__agent__graph']
        >>> server_module_names("/srv/my app/graph.pyx.py") >= {"__my_app__graphx", "__graphx"}
        True
    """
    parts = [part for part in os.path.abspath(module_file).split("/") if part]
    names = set()
    for start in range(len(parts)):
        relative = "/".join(parts[start:])
        names.add(_server_name(f"./{relative}"))
        if "/" in relative:  # without "./", a path needs a "/" or it is read as a module
            names.add(_server_name(relative))
    return names


def module_aliases(models: Iterable[type]) -> dict[str, str]:
    """Server-style module names of the user's own modules, each mapped to the real name.

    The modules are those of the types LangGraph allows for these models (its own
    allow-list: each model, the models, dataclasses and enums it nests), leaving out
    LangChain's, LangGraph's, Pydantic's and built-in ones and modules without a file. A
    name two of the user's modules could both be given is left out: it names neither.

    Example:
        >>> from core.order import AgentState
        >>> aliases = module_aliases([AgentState])
        >>> aliases["core__order____init__"], aliases["__order____init__"]
        ('core.order', 'core.order')
        >>> set(aliases.values())
        {'core.order'}
    """
    owners: dict[str, set[str]] = {}
    for module in sorted({entry[0] for entry in build_serde_allowlist(schemas=list(models))}):
        file = getattr(sys.modules.get(module), "__file__", None)
        if _is_library(module) or not file:
            continue
        for name in server_module_names(file):
            owners.setdefault(name, set()).add(module)
    real = {module for modules in owners.values() for module in modules}
    return {
        name: next(iter(modules))
        for name, modules in owners.items()
        if len(modules) == 1 and name not in real
    }


def needles(aliases: Iterable[str]) -> tuple[bytes, ...]:
    """The byte strings to look for: an alias containing another occurs only where that one
    does, so only the shorter is tested (all names of one file end in one of them).

    Example:
        >>> needles(["__graph", "__src__graph", "__lines"])
        (b'__graph', b'__lines')
    """
    found: list[bytes] = []
    for alias in sorted({alias.encode() for alias in aliases}, key=lambda name: (len(name), name)):
        if not any(needle in alias for needle in found):
            found.append(alias)
    return tuple(found)


class _TooDeep(ValueError):
    """Extension values nested past `_MAX_DEPTH`."""


class _Rename:
    """An ormsgpack ext hook that renames aliased modules and packs each value back."""

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        self.renamed = 0
        self._depth = 0

    def ext(self, code: int, data: bytes) -> ormsgpack.Ext:
        if code not in _WALKED:
            return ormsgpack.Ext(code, data)
        if self._depth >= _MAX_DEPTH:
            raise _TooDeep(code)
        before, self._depth = self.renamed, self._depth + 1
        try:
            inner = ormsgpack.unpackb(data, ext_hook=self.ext, option=_OPTIONS)
        finally:
            self._depth -= 1
        if code in _NAMES_A_MODULE and isinstance(inner, list) and len(inner) >= 2:
            module = inner[0]
            if isinstance(module, str) and module in self.aliases:
                inner[0] = self.aliases[module]
                self.renamed += 1
        if self.renamed == before:
            return ormsgpack.Ext(code, data)  # untouched: the stored bytes, exactly
        return ormsgpack.Ext(code, ormsgpack.packb(inner, option=_OPTIONS))


def rewrite_modules(
    payload: bytes, aliases: Mapping[str, str], found: tuple[bytes, ...] | None = None
) -> bytes:
    """A msgpack checkpoint value with each aliased module name replaced by the real one.

    Nothing is imported or called: the value is only unpacked and packed again, so
    LangGraph's own strict decoder reads the result and its allow-list applies unchanged
    (a type the user's module does not allow stays refused). A payload in which no alias
    occurs as bytes is returned as it is, at the cost of a substring test; so is one that
    names no alias as a module, nests too deep, or is not valid msgpack. `found` is
    `needles(aliases)`, when the caller keeps it (a serializer reads many values).

    Example:
        >>> stored = ormsgpack.packb(ormsgpack.Ext(5, ormsgpack.packb(
        ...     ["__graph", "Line", {"sku": "ABC-123", "qty": 2}, "model_validate_json"])))
        >>> read = rewrite_modules(stored, {"__graph": "shop.graph"})
        >>> ormsgpack.unpackb(read, ext_hook=lambda code, data: ormsgpack.unpackb(data))
        ['shop.graph', 'Line', {'sku': 'ABC-123', 'qty': 2}, 'model_validate_json']
        >>> plain = ormsgpack.packb({"status": "new"})
        >>> rewrite_modules(plain, {"__graph": "shop.graph"}) is plain
        True
    """
    if not any(needle in payload for needle in (found or needles(aliases))):
        return payload
    rename = _Rename(aliases)
    try:
        value = ormsgpack.unpackb(payload, ext_hook=rename.ext, option=_OPTIONS)
        if not rename.renamed:
            return payload
        rewritten: bytes = ormsgpack.packb(value, option=_OPTIONS)
    except (ValueError, TypeError):  # too deep or malformed (ormsgpack wraps a hook's error)
        return payload
    return rewritten
