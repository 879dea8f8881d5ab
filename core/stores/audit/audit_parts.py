"""Shards' `audit --json` outputs read back through one strict model and summed into one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from core.errors import CodedError, ErrorCode
from core.jsontext.paths import format_path
from core.stores.audit.audit import AuditResult, InvalidState, Unreadable
from core.stores.audit.audit_summary import merge_audits
from core.stores.backends.thread_ids import text_id

__all__ = ["AuditPart", "AuditPartError", "merge_parts", "read_part"]


class _Row(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    thread_id: str
    checkpoint_id: str
    step: int | None


class _InvalidRow(_Row):
    node: str | None
    errors: list[dict[str, Any]]


class _UnreadableRow(_Row):
    code: str
    message: str


class AuditPart(BaseModel):
    """One `python -m core audit --json` output, as it is printed: nothing more or less."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    threads: int = Field(ge=0)
    checkpoints: int = Field(ge=0)
    invalid: list[_InvalidRow]
    unreadable: list[_UnreadableRow]

    @model_validator(mode="after")
    def _rows_are_checkpoints(self) -> AuditPart:
        if len(self.invalid) + len(self.unreadable) > self.checkpoints:
            raise ValueError("it lists more invalid and unreadable rows than checkpoints")
        return self

    def to_result(self) -> AuditResult:
        """The part as the `AuditResult` that printed it."""
        return AuditResult(
            self.threads,
            self.checkpoints,
            [InvalidState(**row.model_dump()) for row in self.invalid],
            [Unreadable(**row.model_dump()) for row in self.unreadable],
        )


class AuditPartError(CodedError):
    """A part that cannot be read or is not an audit's `--json` output; names the file.

    Example:
        >>> str(AuditPartError(ErrorCode.AUDIT_PART_UNREADABLE, "part-0.json: gone."))
        '[audit_part_unreadable] part-0.json: gone.'
    """


def read_part(path: str) -> AuditResult:
    """One part's `--json` output, parsed by `AuditPart`.

    Raises:
        AuditPartError: `audit_part_unreadable` (the file cannot be read) or
            `audit_part_malformed` (empty, not JSON, or not the audit's shape).

    Example:
        >>> import os, tempfile
        >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as part:
        ...     _ = part.write('{"threads": 2, "checkpoints": "5", "invalid": []}')
        >>> read_part(part.name)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        core.stores.audit.audit_parts.AuditPartError: [audit_part_malformed] ...
        >>> os.remove(part.name)
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise AuditPartError(
            ErrorCode.AUDIT_PART_UNREADABLE,
            f"{path} cannot be read ({exc.strerror or type(exc).__name__}); check the path "
            "and that the shard's audit wrote it.",
        ) from None
    if not data.strip():
        raise AuditPartError(
            ErrorCode.AUDIT_PART_MALFORMED,
            f"{path} is empty: its shard printed no report (an audit that cannot read the "
            "store exits 2 and prints only to stderr); see that shard's log and run it again.",
        )
    try:
        return AuditPart.model_validate_json(data).to_result()
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = format_path(error["loc"]) if error["loc"] else ""
        raise AuditPartError(
            ErrorCode.AUDIT_PART_MALFORMED,
            f"{path} is not an audit's --json output ({where + ': ' if where else ''}"
            f"{error['msg']}); write it with `python -m core audit ... --json` and merge the "
            "file as it was printed.",
        ) from None


def merge_parts(paths: list[str]) -> AuditResult:
    """The parts summed into one result, rows in thread order (`merge_audits`).

    Raises:
        AuditPartError: a part cannot be read or is malformed, a file is given twice, or two
            parts list the same thread (`audit_parts_overlap`: not shards of one audit).

    Example:
        >>> import json, os, tempfile
        >>> with tempfile.TemporaryDirectory() as out:
        ...     for index, threads in enumerate((3, 4)):
        ...         with open(os.path.join(out, f"part-{index}.json"), "w") as part:
        ...             json.dump(AuditResult(threads, 2 * threads).to_json(), part)
        ...     merged = merge_parts([os.path.join(out, f"part-{i}.json") for i in (0, 1)])
        >>> merged.to_json()
        {'threads': 7, 'checkpoints': 14, 'invalid': [], 'unreadable': []}
    """
    seen: dict[Path, str] = {}
    # (not text, id as printed) -> the part that lists it: a thread_id_not_text row's id is
    # printed (b'x'), which a text id may spell too; they are different threads
    owner: dict[tuple[bool, str], str] = {}
    parts = []
    for path in paths:
        key = Path(path).resolve()
        if key in seen:
            also = "" if seen[key] == path else f" (also as {seen[key]})"
            raise _overlap(f"{path} is given twice{also}; give each part once.")
        seen[key] = path
        part = read_part(path)
        listed = {(False, text_id(row.thread_id)) for row in part.invalid}
        listed |= {
            (row.code == ErrorCode.THREAD_ID_NOT_TEXT, text_id(row.thread_id))
            for row in part.unreadable
        }
        for not_text, thread_id in sorted(listed):
            if (other := owner.setdefault((not_text, thread_id), path)) != path:
                shown = f"{thread_id[:80]} (not text)" if not_text else repr(thread_id[:80])
                raise _overlap(
                    f"{other} and {path} both list thread {shown}: parts must be the "
                    "shards of one audit, each index of one --shards N once."
                )
        parts.append(part)
    return merge_audits(parts)


def _overlap(message: str) -> AuditPartError:
    """The parts are not the disjoint shards of one audit."""
    return AuditPartError(ErrorCode.AUDIT_PARTS_OVERLAP, message)
