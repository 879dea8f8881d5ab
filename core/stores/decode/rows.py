"""One stored row to a value or a coded outcome: what cannot be decoded is named, never raised."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from langgraph.checkpoint.serde.base import SerializerProtocol
from pydantic import BaseModel, ConfigDict, ValidationError

from core.errors import ErrorCode
from core.jsontext.paths import format_path
from core.stores.backends.thread_ids import text_id
from core.stores.decode.budget import (
    BUDGET_PER_LIMIT,
    OverBudget,
    check_decoded_size,
    decode_budget,
)
from core.stores.decode.serde import EncryptionRefused, SharedValues, StrictSerializer
from core.stores.errors import StoreCode, StoreError
from core.words import article

__all__ = [
    "RowProblem",
    "UnreadValue",
    "Unreadable",
    "check_checkpoint",
    "decode_json_checkpoint",
    "decode_metadata",
    "decode_value",
    "encrypted_store",
    "megabytes",
    "step_of",
]


@dataclass(frozen=True)
class Unreadable:
    """A stored checkpoint that cannot be read, with a stable code and what to do.

    The thread is still counted and the rest of the store is read on.
    """

    # as stored: text, or a crafted SQLite file's BLOB or number (a `ThreadId`: typed str
    # where other packages read it; print it with `printable_id`)
    thread_id: str
    checkpoint_id: str
    step: int | None
    code: str  # an ErrorCode: row_too_large, row_undecodable, ...
    message: str

    def to_json(self) -> dict[str, Any]:
        """The `unreadable` rows of the audit's `--json` (a thread id that is not text as
        `printable_id` prints it)."""
        return {**asdict(self), "thread_id": text_id(self.thread_id)}


@dataclass(frozen=True)
class UnreadValue:
    """Stands where a stored write's value could not be read (the rest of the row was)."""

    code: str
    message: str

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class RowProblem(Exception):
    """Why one stored value cannot be read (raised and caught inside the readers)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


_ENCRYPTION = frozenset({ErrorCode.STORE_ENCRYPTED, ErrorCode.STORE_WRONG_KEY})


def encrypted_store(rows: list[Unreadable], read: int, label: str) -> StoreError | None:
    """The store-level error when every one of the `read` checkpoints was unreadable for
    want of the right key: the store is encrypted as a whole (a single encrypted row among
    readable ones stays that row's outcome).

    Example:
        >>> row = Unreadable("t", "c", 1, "store_encrypted", "the checkpoint: it is encrypted")
        >>> str(encrypted_store([row], 1, "runs.sqlite"))
        '[store_encrypted] runs.sqlite: it is encrypted'
        >>> encrypted_store([row], 2, "runs.sqlite") is None
        True
    """
    if not rows or len(rows) != read or any(row.code not in _ENCRYPTION for row in rows):
        return None
    said = rows[0].message.split(": ", 1)[-1]
    return StoreError(StoreCode(rows[0].code), f"{label}: {said}")


def megabytes(size: int) -> str:
    """A byte count as the messages say it.

    Example:
        >>> megabytes(200 * 1024 * 1024), megabytes(1536)
        ('200.0 MB', '0.0 MB')
    """
    return f"{size / (1024 * 1024):.1f} MB"


def decode_value(
    serde: SerializerProtocol,
    type_: Any,
    blob: Any,
    size: int | None,
    limit: int,
    what: str,
    shared: SharedValues | None = None,
) -> Any:
    """One stored value through `serde`, or a `RowProblem`: pickled (never loaded), too
    large (`size` over `limit`: the reader left it unread; or declaring more than
    `decode_budget(limit)` once decoded: not decoded), missing (NULL), undecodable or nested
    too deep.

    `what` names the value in the message ("the checkpoint", "channel items"). With `shared`
    (a reader's `SharedValues`), a strict serde decodes through `loads_shared`.

    Example:
        >>> from core.stores.decode.serde import strict_serde
        >>> try:
        ...     decode_value(strict_serde([]), "msgpack", b"\\xc1", 1, 100, "the checkpoint")
        ... except RowProblem as problem:
        ...     print(problem.code, "-", problem.message)
        row_undecodable - the checkpoint is not valid msgpack (ValueError: invalid type Reserved).
    """
    if size is not None and size > limit:
        raise RowProblem(
            ErrorCode.ROW_TOO_LARGE,
            f"{what} is {megabytes(size)}, over the {megabytes(limit)} limit, so it was not "
            "read; raise the limit (--max-value-mb) to read it.",
        )
    if type_ is None or blob is None:
        raise RowProblem(ErrorCode.ROW_MISSING_VALUE, f"{what} is stored as NULL.")
    try:
        type_ = type_.decode() if isinstance(type_, bytes) else str(type_)
        type_.encode("utf-8")  # a crafted TEXT read with its bad bytes as lone surrogates
    except UnicodeError:
        raise RowProblem(
            ErrorCode.ROW_NOT_A_CHECKPOINT,
            f"{what} is stored under a type name that is not UTF-8 text "
            f"({ascii(type_)[:40]}), so no serializer reads it.",
        ) from None
    if type_ == "pickle":  # LangGraph's pickle_fallback: never loaded, whatever the serde
        raise _pickled(what)
    blob = bytes(blob) if isinstance(blob, memoryview | bytearray) else blob
    budget = decode_budget(limit)
    try:
        if isinstance(serde, StrictSerializer):  # bounded inside: an encrypted value too
            if shared is not None:
                return serde.loads_shared((type_, blob), shared, budget)
            return serde.loads_typed((type_, blob), budget)
        check_decoded_size(type_, blob, budget)
        return serde.loads_typed((type_, blob))
    except OverBudget:
        raise _over_budget(what, limit) from None
    except EncryptionRefused as error:  # no key, or one that does not decrypt this value
        raise RowProblem(ErrorCode(error.code), f"{what}: {error.message}") from None
    except RecursionError:
        raise _too_deep(what) from None
    except Exception as exc:  # noqa: BLE001 - whatever a damaged value makes the decoder raise
        if "recursion" in str(exc).lower():
            raise _too_deep(what) from None
        said = " ".join(str(exc).split())[:120]
        raise RowProblem(
            ErrorCode.ROW_UNDECODABLE,
            f"{what} is not valid {type_[:20]} ({type(exc).__name__}: {said}).",
        ) from None


def _pickled(what: str) -> RowProblem:
    return RowProblem(
        ErrorCode.ROW_PICKLED,
        f"{what} was written with pickle (LangGraph's serializer with pickle_fallback=True "
        "stores a value msgpack cannot hold that way), and the playground never unpickles: "
        "unpickling runs whatever code the bytes name. To read it, load it with the writer's "
        "own serializer (JsonPlusSerializer(pickle_fallback=True).loads_typed) in your own "
        "code, at your own risk and only if you trust every writer of this store.",
    )


def _over_budget(what: str, limit: int) -> RowProblem:
    budget = decode_budget(limit)
    times = f"{BUDGET_PER_LIMIT}x" if budget == BUDGET_PER_LIMIT * limit else "the least for"
    return RowProblem(
        ErrorCode.ROW_TOO_LARGE,
        f"{what} would take more than {megabytes(budget)} once decoded (counted on what it "
        f"declares; the budget is {times} the {megabytes(limit)} limit), so it was not "
        "decoded; raise the limit (--max-value-mb) to read it.",
    )


def _too_deep(what: str) -> RowProblem:
    return RowProblem(
        ErrorCode.ROW_TOO_DEEP, f"{what} is nested deeper than the decoder follows; not read."
    )


def decode_metadata(raw: Any, size: int | None, limit: int) -> dict[str, Any]:
    """A checkpoint's metadata (JSON text or bytes) as an object, or a `RowProblem`.

    Example:
        >>> decode_metadata(b'{"step": 1}', 11, 100)
        {'step': 1}
    """
    if raw is None and (size is None or size <= limit):
        return {}  # as the savers read it
    metadata: dict[str, Any] = _json_object(
        raw, size, limit, "its metadata", ErrorCode.ROW_BAD_METADATA
    )  # an object: _json_object refuses anything else for metadata
    return metadata


def decode_json_checkpoint(raw: Any, size: int | None, limit: int) -> dict[str, Any]:
    """A checkpoint stored as JSON text (PostgresSaver's column), or a `RowProblem`."""
    if raw is None and (size is None or size <= limit):
        raise RowProblem(ErrorCode.ROW_MISSING_VALUE, "the checkpoint is stored as NULL.")
    value = _json_object(raw, size, limit, "the checkpoint", ErrorCode.ROW_NOT_A_CHECKPOINT)
    return check_checkpoint(value)


def _json_object(raw: Any, size: int | None, limit: int, what: str, bad: ErrorCode) -> Any:
    if size is not None and size > limit:
        raise RowProblem(
            ErrorCode.ROW_TOO_LARGE,
            f"{what} is {megabytes(size)}, over the {megabytes(limit)} limit, so it was not "
            "read; raise the limit (--max-value-mb) to read it.",
        )
    try:
        check_decoded_size("json", raw, decode_budget(limit))
        value = json.loads(raw)
    except OverBudget:
        raise _over_budget(what, limit) from None
    except RecursionError:
        raise _too_deep(what) from None
    except (TypeError, ValueError) as exc:
        raise RowProblem(bad, f"{what} is not JSON ({type(exc).__name__}).") from None
    if not isinstance(value, dict) and bad is ErrorCode.ROW_BAD_METADATA:
        raise RowProblem(bad, f"{what} is a JSON {type(value).__name__}, not an object.")
    return value  # the checkpoint's shape is check_checkpoint's to judge


class _Checkpoint(BaseModel):
    """The parts of LangGraph's checkpoint object the readers rely on (more may be there)."""

    model_config = ConfigDict(extra="allow")

    channel_values: dict[str, Any] | None = None
    channel_versions: dict[str, str | int | float]
    versions_seen: dict[str, dict[str, str | int | float]] = {}
    ts: str = ""


def check_checkpoint(value: Any) -> dict[str, Any]:
    """`value` when it has the shape of LangGraph's checkpoint object, else a `RowProblem`.

    Example:
        >>> try:
        ...     check_checkpoint([1, 2])
        ... except RowProblem as problem:
        ...     print(problem.code, "-", problem.message)
        row_not_a_checkpoint - the checkpoint decodes to a list, not LangGraph's checkpoint object.
    """
    if not isinstance(value, dict):
        raise RowProblem(
            ErrorCode.ROW_NOT_A_CHECKPOINT,
            f"the checkpoint decodes to {article(type(value).__name__)}, not LangGraph's "
            "checkpoint object.",
        )
    if _looks_whole(value):  # what LangGraph's savers write: no model needed to say so
        return value
    try:
        _Checkpoint.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = format_path(first["loc"]) if first["loc"] else ""
        raise RowProblem(
            ErrorCode.ROW_NOT_A_CHECKPOINT,
            f"the checkpoint is not LangGraph's checkpoint object ({where}: {first['msg']}).",
        ) from None
    except RecursionError:
        raise _too_deep("the checkpoint") from None
    return value


def _looks_whole(value: dict[str, Any]) -> bool:
    """The common case, checked fast: the containers `_Checkpoint` requires are there
    (what is inside them is read defensively where it is used: versions of any type compare
    in `pending_nodes`); anything else goes through the model for its message."""
    values = value.get("channel_values")
    return (
        (values is None or isinstance(values, dict))
        and isinstance(value.get("channel_versions"), dict)
        and isinstance(value.get("versions_seen", {}), dict)
        and isinstance(value.get("ts", ""), str)
    )


def step_of(metadata: Any) -> int | None:
    """The `step` a checkpoint's metadata records, when it is a whole number.

    Example:
        >>> step_of({"step": 2}), step_of({"step": "2"}), step_of(None)
        (2, None, None)
    """
    step = metadata.get("step") if isinstance(metadata, dict) else None
    return step if isinstance(step, int) and not isinstance(step, bool) else None
