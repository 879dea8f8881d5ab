"""An audit in slices (for a progress bar), its counts by error type and field, its exports."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from typing import Any

from pydantic import BaseModel

from core.jsontext.paths import format_path
from core.stores.audit.audit import AuditResult, audit_store
from core.stores.backends.open import Store
from core.stores.backends.thread_ids import ThreadId, text_id

__all__ = [
    "audit_slice",
    "error_counts",
    "invalid_rows",
    "merge_audits",
    "to_csv",
    "unreadable_rows",
]


def audit_slice(
    store: Store, model: type[BaseModel], index: int, slices: int, *, history: bool = False
) -> AuditResult:
    """One of `slices` disjoint parts of the audit: `audit_store`'s shard `(index, slices)`.

    Run every index and `merge_audits` the parts: the same result as one whole audit,
    with a point between parts to show progress or stop.
    """
    return audit_store(store, model, history=history, shard=(index, slices))


def merge_audits(parts: list[AuditResult]) -> AuditResult:
    """The parts as one result, invalid states in thread order (as one whole audit lists them).

    Example:
        >>> merge_audits([AuditResult(2, 3), AuditResult(1, 1)]).to_json()
        {'threads': 3, 'checkpoints': 4, 'invalid': [], 'unreadable': []}
    """
    invalid = sorted((s for part in parts for s in part.invalid), key=lambda s: s.thread_id)
    unreadable = sorted(
        (row for part in parts for row in part.unreadable), key=lambda row: row.thread_id
    )
    return AuditResult(
        sum(part.threads for part in parts),
        sum(part.checkpoints for part in parts),
        invalid,
        unreadable,
    )


def _field(loc: list[Any]) -> str:
    return format_path(loc) if loc else "(the state)"


def error_counts(result: AuditResult) -> list[dict[str, Any]]:
    """How many errors of each type on each field, most frequent first.

    Example:
        >>> from core.stores.audit.audit import InvalidState
        >>> error = {"type": "missing", "loc": ["user_id"], "msg": "Field required"}
        >>> bad = InvalidState("t1", "c1", 1, "node", [error])
        >>> error_counts(AuditResult(1, 1, [bad, bad]))
        [{'type': 'missing', 'field': 'user_id', 'errors': 2, 'threads': 1}]
    """
    errors: Counter[tuple[str, str]] = Counter()
    threads: dict[tuple[str, str], set[ThreadId]] = {}
    for state in result.invalid:
        for error in state.errors:
            key = (str(error.get("type", "")), _field(list(error.get("loc", []))))
            errors[key] += 1
            threads.setdefault(key, set()).add(state.thread_id)
    return [
        {"type": kind, "field": field, "errors": count, "threads": len(threads[(kind, field)])}
        for (kind, field), count in sorted(errors.items(), key=lambda item: (-item[1], item[0]))
    ]


def invalid_rows(result: AuditResult) -> list[dict[str, Any]]:
    """One flat row per error of each invalid state (text columns, for a table or CSV)."""
    return [
        {
            "thread_id": text_id(state.thread_id),
            "checkpoint_id": state.checkpoint_id,
            "step": "" if state.step is None else str(state.step),
            "node": state.node or "",
            "type": str(error.get("type", "")),
            "field": _field(list(error.get("loc", []))),
            "msg": str(error.get("msg", "")),
            "input": json.dumps(error.get("input"), ensure_ascii=False, default=str)[:200],
        }
        for state in result.invalid
        for error in state.errors
    ]


def unreadable_rows(result: AuditResult) -> list[dict[str, Any]]:
    """One flat row per checkpoint that could not be read (text columns).

    Example:
        >>> from core.stores.decode.rows import Unreadable
        >>> row = Unreadable("t1", "c1", None, "row_undecodable", "the checkpoint is not ...")
        >>> unreadable_rows(AuditResult(1, 1, [], [row]))[0]["step"]
        ''
    """
    return [
        {
            "thread_id": text_id(row.thread_id),
            "checkpoint_id": row.checkpoint_id,
            "step": "" if row.step is None else str(row.step),
            "code": row.code,
            "message": row.message,
        }
        for row in result.unreadable
    ]


def to_csv(result: AuditResult) -> str:
    """`invalid_rows`, then the unreadable checkpoints (their code as the type, field
    "(unreadable)"), as CSV text with a header row."""
    out = io.StringIO()
    columns = ["thread_id", "checkpoint_id", "step", "node", "type", "field", "msg", "input"]
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(invalid_rows(result))
    writer.writerows(
        {**{k: row[k] for k in ("thread_id", "checkpoint_id", "step")}, "node": "",
         "type": row["code"], "field": "(unreadable)", "msg": row["message"], "input": ""}
        for row in unreadable_rows(result)
    )  # fmt: skip
    return out.getvalue()
