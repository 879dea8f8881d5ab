"""Decode bombs in a real SQLite store: each one an unreadable row, refused before it is built.

A bomb is a few bytes a Python object: a msgpack array of empty maps (one byte each stored,
a dict each decoded), hidden inside an extension value's payload, as JSON, or encrypted.
Stores are written by LangGraph's own SqliteSaver and one row is then damaged; memory is
measured with tracemalloc in this process, and as the peak RSS of `python -m core audit`.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tracemalloc
from contextlib import closing
from pathlib import Path
from typing import Any

import ormsgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores.budget import json_decoded_size, msgpack_decoded_size
from core.stores.pages import read_checkpoints
from core.stores.rows import RowProblem, Unreadable, decode_value
from core.stores.serde import AES_KEY_ENV

from .conftest import writer

ROOT = Path(__file__).resolve().parents[3]
MB = 1024 * 1024
SERDE = [AgentState]
KEY = "k3y-of-32-bytes-for-the-aes-test"
OVER_64 = (
    "would take more than 64.0 MB once decoded (counted on what it declares; the budget is 4x "
    "the 16.0 MB limit), so it was not decoded; raise the limit (--max-value-mb) to read it."
)


def _bomb(maps: int) -> bytes:
    """A msgpack array of `maps` empty maps: a byte each stored, a dict each decoded."""
    return b"\xdd" + maps.to_bytes(4, "big") + b"\x80" * maps


@pytest.fixture
def spec(tmp_path) -> str:
    """A SQLite store with two seed runs, "clean" and "victim", by LangGraph's SqliteSaver."""
    path = str(tmp_path / "bombed.sqlite")
    with writer("sqlite", path) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("clean", "victim"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    return path


def _latest(spec: str) -> tuple[str, dict[str, Any]]:
    """The victim's latest checkpoint: its id and the checkpoint as the saver reads it."""
    with writer("sqlite", spec) as saver:
        saved = saver.get_tuple({"configurable": {"thread_id": "victim", "checkpoint_ns": ""}})
    assert saved is not None
    return saved.config["configurable"]["checkpoint_id"], saved.checkpoint


def _damage(spec: str, column: str, value: Any, type_: str | None = None) -> str:
    """Set one column (and the type) of the victim's latest checkpoint row; its id."""
    checkpoint_id, _ = _latest(spec)
    with closing(sqlite3.connect(spec)) as conn, conn:
        conn.execute(f"UPDATE checkpoints SET {column} = ? WHERE checkpoint_id = ?",
                     (value, checkpoint_id))  # fmt: skip
        if type_ is not None:
            conn.execute("UPDATE checkpoints SET type = ? WHERE checkpoint_id = ?",
                         (type_, checkpoint_id))  # fmt: skip
    return checkpoint_id


def _audit(spec: str, env: dict[str, str] | None = None) -> tuple[list[dict[str, Any]], int]:
    """The audit's unreadable rows, and the peak of what Python allocated while it ran."""
    tracemalloc.start()
    try:
        with open_store(spec, strict_serde(SERDE, env)) as store:
            result = audit_store(store, AgentState)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return [row.to_json() for row in result.unreadable], peak


def _victim(checkpoint_id: str, step: int | None, what: str = "the checkpoint") -> dict[str, Any]:
    return {"thread_id": "victim", "checkpoint_id": checkpoint_id, "step": step,
            "code": "row_too_large", "message": f"{what} {OVER_64}"}  # fmt: skip


def test_an_array_of_empty_maps_is_refused_before_a_map_is_built(spec):
    checkpoint_id = _damage(spec, "checkpoint", _bomb(2 * MB))  # 2 MB: 128 MB as dicts
    rows, peak = _audit(spec)
    assert rows == [_victim(checkpoint_id, 2)]
    assert peak < 16 * MB  # the stored bytes and their copies, not a dict per byte


def test_a_bomb_inside_a_models_payload_is_refused(spec):
    # a LineItem as LangGraph stores it (EXT_PYDANTIC_V2: module, name, fields, method),
    # its fields an array of 2M empty maps: the ext hook would unpack them all
    payload = (
        b"\x94" + ormsgpack.packb("core.order") + ormsgpack.packb("LineItem")
        + _bomb(2 * MB) + ormsgpack.packb("model_validate_json")
    )  # fmt: skip
    _, checkpoint = _latest(spec)
    checkpoint["channel_values"]["items"] = [ormsgpack.Ext(5, payload)]
    type_, stored = strict_serde(SERDE).dumps_typed(checkpoint)
    checkpoint_id = _damage(spec, "checkpoint", stored, type_)
    rows, peak = _audit(spec)
    assert rows == [_victim(checkpoint_id, 2)]
    assert peak < 16 * MB


def test_a_json_checkpoint_of_empty_objects_is_refused(spec):
    bomb = b"[" + b"{}," * (2 * MB) + b"{}]"  # JsonPlusSerializer's "json" type
    checkpoint_id = _damage(spec, "checkpoint", bomb, "json")
    rows, peak = _audit(spec)
    assert rows == [_victim(checkpoint_id, 2)]
    assert peak < 32 * MB


def test_json_metadata_of_empty_objects_is_refused(spec):
    bomb = b'{"step": 2, "x": [' + b"{}," * (2 * MB) + b"{}]}"
    checkpoint_id = _damage(spec, "metadata", bomb)
    rows, peak = _audit(spec)
    assert rows == [_victim(checkpoint_id, None, "its metadata")]
    assert peak < 32 * MB


def test_an_encrypted_bomb_is_refused_once_decrypted(spec):
    serde = strict_serde(SERDE, {AES_KEY_ENV: KEY})
    assert serde.encrypted is not None
    cipher, encrypted = serde.encrypted.cipher.encrypt(_bomb(2 * MB))
    checkpoint_id = _damage(spec, "checkpoint", encrypted, f"msgpack+{cipher}")
    rows, peak = _audit(spec, {AES_KEY_ENV: KEY})
    assert rows == [_victim(checkpoint_id, 2)]
    assert peak < 32 * MB


def test_the_budget_follows_the_value_limit(spec):
    checkpoint_id = _damage(spec, "checkpoint", _bomb(100_000))  # 6.4 MB as dicts
    outcomes = []
    for limit in (1 * MB, 2 * MB):  # budgets of 4 MB and 8 MB
        with open_store(spec, strict_serde(SERDE), max_value_bytes=limit) as store:
            row = audit_store(store, AgentState).unreadable[0]
        outcomes.append((row.checkpoint_id, row.code, row.message))
    assert outcomes == [
        (checkpoint_id, "row_too_large", "the checkpoint would take more than 4.0 MB once "
         "decoded (counted on what it declares; the budget is 4x the 1.0 MB limit), so it "
         "was not decoded; raise the limit (--max-value-mb) to read it."),
        (checkpoint_id, "row_not_a_checkpoint",
         "the checkpoint decodes to a list, not LangGraph's checkpoint object."),
    ]  # fmt: skip


def test_a_bomb_cut_short_is_counted_for_the_maps_it_holds():
    # declares 2M maps, holds 1.5M: the decoder would build those before it failed
    cut = _bomb(2 * MB)[: 5 + 1_500_000]
    assert msgpack_decoded_size(cut) == 64 + 1_500_000 * 64
    with pytest.raises(RowProblem) as raised:
        decode_value(strict_serde([]), "msgpack", cut, len(cut), 16 * MB, "the checkpoint")
    assert (raised.value.code, raised.value.message) == (
        "row_too_large",
        f"the checkpoint {OVER_64}",
    )


def test_the_estimates_count_every_value_and_string_inside_extension_values():
    value = {"sku": "ABC-1", "qty": [1, 2], "model": ormsgpack.Ext(5, ormsgpack.packb(
        ["core.order", "LineItem", {"sku": "ABC-2"}, "model_validate_json"]))}  # fmt: skip
    # the map, its 3 keys, "ABC-1", the list, 1, 2, the model, its payload's list, the 4
    # items of that and the 2 in its fields: 16 values; their characters: the keys, "ABC-1",
    # the payload's strings, the fields'
    assert msgpack_decoded_size(ormsgpack.packb(value)) == 16 * 64 + (3 + 3 + 5) + 5 + (
        10 + 8 + 19) + (3 + 5)  # fmt: skip
    text = json.dumps({"sku": "ABC-1", "qty": [1, {}], "note": "[{,:}]"}, indent=2)
    assert json_decoded_size(text) == 9 * 64 + 3 + 5 + 3 + 4 + 6


class _Ext:
    """An extension value as the reference count sees it."""

    def __init__(self, code: int, data: bytes) -> None:
        self.payload = ormsgpack.unpackb(data, ext_hook=_Ext, option=ormsgpack.OPT_NON_STR_KEYS)


def _counted(value: Any) -> int:
    """The estimate by its definition, over the decoded value."""
    if isinstance(value, dict):
        return 64 + sum(_counted(key) + _counted(item) for key, item in value.items())
    if isinstance(value, list):
        return 64 + sum(_counted(item) for item in value)
    if isinstance(value, _Ext):
        return 64 + _counted(value.payload)
    if isinstance(value, str | bytes):
        return 64 + len(value.encode() if isinstance(value, str) else value)
    return 64


_SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | (
    st.text(max_size=40) | st.binary(max_size=300))  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=20)
        | st.dictionaries(st.text(max_size=8), inner, max_size=8)
        | st.tuples(st.integers(0, 127), inner).map(
            lambda ext: ormsgpack.Ext(ext[0], ormsgpack.packb(ext[1]))
        )
    ),
    max_leaves=60,
)


@settings(max_examples=300, deadline=None)
@given(value=_VALUES, cut=st.floats(0, 1))
def test_the_msgpack_walk_counts_what_the_definition_counts(value, cut):
    packed = ormsgpack.packb(value)
    decoded = ormsgpack.unpackb(packed, ext_hook=_Ext, option=ormsgpack.OPT_NON_STR_KEYS)
    assert msgpack_decoded_size(packed) == _counted(decoded)
    # cut short, it is malformed: still counted, at most twice its bytes' worth
    assert msgpack_decoded_size(packed[: int(len(packed) * cut)]) <= 128 * len(packed) + 64


def test_large_legitimate_values_still_decode_whole(spec):
    _, checkpoint = _latest(spec)
    checkpoint["channel_values"]["logs"] = ["x" * (10 * MB)]
    checkpoint["channel_values"]["notes"] = [
        {"sku": f"ABC-{n}", "qty": n % 7} for n in range(100_000)
    ]
    _damage(spec, "checkpoint", strict_serde(SERDE).dumps_typed(checkpoint)[1])
    with open_store(spec, strict_serde(SERDE)) as store:
        (read,) = read_checkpoints(store, ["victim"], latest=True)
    assert not isinstance(read, Unreadable)
    assert read.checkpoint == checkpoint


# `python -m core audit`, then its peak RSS since it started (VmHWM: a forked child's
# ru_maxrss would count the pages of this process it was forked from)
_AUDIT = (
    "import sys; from core.__main__ import main; code = main(sys.argv[1:]); "
    "print(open('/proc/self/status').read(), file=sys.stderr); sys.exit(code)"
)


def _cli_audit(path: str) -> tuple[dict[str, Any], int]:
    """The CLI audit of `path`: its JSON, and its peak RSS in bytes."""
    done = subprocess.run(
        [sys.executable, "-c", _AUDIT, "audit", path, "--model", "core.order:AgentState",
         "--json"], cwd=ROOT, capture_output=True, check=False,
    )  # fmt: skip
    status = dict(line.split(":", 1) for line in done.stderr.decode().splitlines() if ":" in line)
    return json.loads(done.stdout), int(status["VmHWM"].split()[0]) * 1024


def test_the_command_line_audit_of_an_8_mb_bomb_stays_within_the_budget(spec, tmp_path):
    clean = str(tmp_path / "clean.sqlite")
    with closing(sqlite3.connect(spec)) as source, closing(sqlite3.connect(clean)) as copy:
        source.backup(copy)
    checkpoint_id = _damage(spec, "checkpoint", _bomb(8 * MB))  # 512 MB as dicts
    (report, bombed), (_, baseline) = _cli_audit(spec), _cli_audit(clean)
    assert report["unreadable"] == [_victim(checkpoint_id, 2)]
    assert bombed - baseline < 64 * MB  # SQLite's copies of the 8 MB, not the dicts
