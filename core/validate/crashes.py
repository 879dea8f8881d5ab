"""Pin an exception other than ValidationError to the smallest part of a payload that raises it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.validate.field_errors import payload_path

__all__ = ["MAX_CRASHES", "Crash", "Pinned", "in_payload_order", "pin_crashes", "without"]

MAX_CRASHES = 20  # parts pinned per payload; past that the rest is one crash at the root
Loc = tuple[str | int, ...]
Raises = Callable[[Any], BaseException | None]


@dataclass(frozen=True)
class Crash:
    """One part of the payload that makes validation raise, and what it raised."""

    loc: Loc  # in the original value
    exc: BaseException
    input: Any


@dataclass
class Pinned:
    """The crashes found in a value, and the value with each crashing part taken out."""

    crashes: list[Crash]
    rest: Any
    removed: list[Loc] = field(default_factory=list)  # each in the value as it was then

    def original(self, path: Loc) -> Loc:
        """A payload path in `rest` -> the same place in the original value.

        Example:
            >>> Pinned([], [], removed=[(0,), (2,)]).original((2, "a"))
            (4, 'a')
        """
        place = list(path)
        for gone in reversed(self.removed):  # undo the last removal first
            depth = len(gone) - 1
            index = gone[-1]
            if (
                isinstance(index, int)
                and len(place) > depth
                and tuple(place[:depth]) == gone[:-1]
                and isinstance(at := place[depth], int)
                and at >= index
            ):
                place[depth] = at + 1
        return tuple(place)

    def restore(self, loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
        """A Pydantic `loc` from validating `rest` -> the same loc in the original value: the
        list indices after a removed item move back up; union tags stay as they are."""
        positions, node = [], self.rest
        for at, segment in enumerate(loc):
            if isinstance(node, dict) and segment in node:
                node = node[segment]
            elif isinstance(node, list) and isinstance(segment, int) and segment < len(node):
                node = node[segment]
            else:
                continue
            positions.append(at)
        moved = self.original(tuple(loc[at] for at in positions))
        out = list(loc)
        for at, segment in zip(positions, moved, strict=True):
            out[at] = segment
        return tuple(out)


def pin_crashes(value: Any, raises: Raises) -> Pinned:
    """Each smallest part of `value` that makes `raises` return an exception, and `value`
    with each such part taken out, so the caller can validate the rest.

    `raises(v)` runs the validation (Pydantic alone, or LangGraph's entry) and returns the
    exception that is not a ValidationError, or None. A part is the smallest dict entry or
    list item without which (and everything after it) the exception goes away; a validator
    that raises on the object itself is pinned to that object, `()` for the root. Parts are
    taken out, not set to None: a discriminator raises on None as well.

    Example:
        >>> def raises(v):
        ...     bad = [m for m in v.get("messages", []) if "type" not in m]
        ...     return TypeError("no type") if bad else None
        >>> pinned = pin_crashes({"messages": [{"content": "x"}, {"type": "ai"}]}, raises)
        >>> [(c.loc, str(c.exc), c.input) for c in pinned.crashes], pinned.rest
        ([(('messages', 0), 'no type', {'content': 'x'})], {'messages': [{'type': 'ai'}]})
    """
    pinned = Pinned([], value)
    exc = raises(value)
    while exc is not None:
        if len(pinned.crashes) == MAX_CRASHES:
            pinned.crashes.append(Crash((), exc, None))
            break
        loc, exc = _smallest(pinned.rest, (), exc, raises)
        where = pinned.original(loc)
        pinned.crashes.append(Crash(where, exc, _get(value, where)))
        if not loc:  # the whole value raises: nothing smaller to set aside
            break
        pinned.rest = _replace(pinned.rest, loc[:-1], _drop(_get(pinned.rest, loc[:-1]), loc[-1]))
        pinned.removed.append(loc)
        exc = raises(pinned.rest)
    return pinned


def without(loc: Loc, holes: list[Loc]) -> bool:
    """Whether a payload path lies outside every hole (errors inside one are the hole's own).

    Example:
        >>> without(("messages", 1, "content"), [("messages", 1)]), without(("amount",), [()])
        (False, False)
    """
    return not any(loc[: len(hole)] == hole for hole in holes)


def in_payload_order(rows: list[dict[str, Any]], value: Any) -> list[dict[str, Any]]:
    """Raw error rows sorted by where their place comes in `value` (a pinned crash among the
    field errors around it; rows at one place keep their order).

    Example:
        >>> rows = [{"loc": ("c",), "type": "missing"}, {"loc": ("b",)}, {"loc": ("a", 0)}]
        >>> [r["loc"] for r in in_payload_order(rows, {"a": [1, {"tag": 2}], "b": 3})]
        [('a', 0), ('b',), ('c',)]
    """

    def place(row: dict[str, Any]) -> list[int]:
        spot, node = [], value
        for segment in payload_path(tuple(row["loc"]), value):
            spot.append(list(node).index(segment) if isinstance(node, dict) else int(segment))
            node = node[segment]
        if row.get("type") == "missing" and isinstance(node, dict):
            spot.append(len(node))  # a key not in the text: after its object's keys
        return spot

    return sorted(rows, key=place)


def _smallest(root: Any, loc: Loc, exc: BaseException, raises: Raises) -> tuple[Loc, BaseException]:
    """Descend from `loc` into the first child whose presence makes `root` raise."""
    while True:
        node = _get(root, loc)
        count = len(node) if isinstance(node, dict | list) else 0
        if not count:
            return loc, exc
        if raises(_replace(root, loc, _keep(node, 0))) is not None:
            return loc, exc  # the node raises with none of its children (exc names them)
        # Keeping the first i children, does it raise? No at 0, yes at `count`: find the
        # first i where it does; child i-1 is then needed for the exception.
        low, high, found = 0, count, exc
        while high - low > 1:
            middle = (low + high) // 2
            hit = raises(_replace(root, loc, _keep(node, middle)))
            if hit is None:
                low = middle
            else:
                high, found = middle, hit
        root = _replace(root, loc, _keep(node, high))
        key = list(node)[high - 1] if isinstance(node, dict) else high - 1
        loc, exc = (*loc, key), found


def _keep(node: dict[Any, Any] | list[Any], count: int) -> dict[Any, Any] | list[Any]:
    if isinstance(node, dict):
        return dict(list(node.items())[:count])
    return node[:count]


def _drop(node: dict[Any, Any] | list[Any], key: str | int) -> dict[Any, Any] | list[Any]:
    if isinstance(node, dict):
        return {k: v for k, v in node.items() if k != key}
    return node[:key] + node[key + 1 :]  # type: ignore[operator,index]  # a list's key is an int


def _get(value: Any, loc: Loc) -> Any:
    for key in loc:
        value = value[key]
    return value


def _replace(value: Any, loc: Loc, new: Any) -> Any:
    """A copy of `value` with the part at `loc` set to `new` (only the path is copied)."""
    if not loc:
        return new
    head, rest = loc[0], loc[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _replace(value[head], rest, new)  # type: ignore[index]
    return copy
