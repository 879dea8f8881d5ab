"""Encrypted stores (LangGraph's EncryptedSerializer, AES): read with the key, refused without.

The same suite on SQLite and Postgres. Oracle: LangGraph's own saver reading the store with
the same EncryptedSerializer.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import psycopg
import pytest
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer

from core.__main__ import main
from core.order import AgentState
from core.stores import StoreError, audit_store, open_store, strict_serde
from core.stores.demo import DEMO_THREADS, run_demo_threads
from core.stores.pages import read_checkpoints
from core.stores.serde import AES_KEY_ENV

from .conftest import PG_PASSWORD, new_store, superuser_warning, writer

KEY = "k3y-of-32-bytes-for-the-aes-test"  # LANGGRAPH_AES_KEY's convention: its text's bytes
THREADS = sorted(DEMO_THREADS)


def _aes(key: str = KEY) -> EncryptedSerializer:
    return EncryptedSerializer.from_pycryptodome_aes(key=key.encode())


def _root(thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def encrypted(request, tmp_path_factory) -> tuple[str, str, str]:
    """(kind, encrypted spec, plain spec): the demo threads written twice by the real saver,
    once through LangGraph's AES EncryptedSerializer, once with its default serializer."""
    kind = request.param
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    tmp = tmp_path_factory.mktemp("encrypted")
    specs = []
    for name, serde in (("encrypted", _aes()), ("plain", None)):
        spec = new_store(kind, f"{name}_demo", tmp, pg)
        with writer(kind, spec) as saver:
            if serde is not None:
                saver.serde = serde
            run_demo_threads(saver)
        specs.append(spec)
    return kind, specs[0], specs[1]


def _stored_types(kind: str, spec: str) -> set[str]:
    sql = {
        "sqlite": "SELECT type FROM checkpoints UNION SELECT type FROM writes",
        "postgres": "SELECT type FROM checkpoint_blobs WHERE type <> 'empty' "
        "UNION SELECT type FROM checkpoint_writes",
    }[kind]
    if kind == "sqlite":
        with closing(sqlite3.connect(spec)) as conn:
            return {row[0] for row in conn.execute(sql)}
    with psycopg.connect(spec) as conn:
        return {row[0] for row in conn.execute(sql)}


def test_with_the_key_an_encrypted_store_reads_as_langgraphs_own_saver_reads_it(encrypted):
    kind, spec, plain = encrypted
    assert _stored_types(kind, spec) == {"msgpack+aes", "null+aes"}  # every value encrypted
    with writer(kind, spec) as saver:  # the oracle: LangGraph's saver, the same serializer
        saver.serde = _aes()
        expected = [s._replace(pending_writes=None) for t in THREADS
                    for s in saver.list(_root(t))]  # fmt: skip
    with open_store(spec, strict_serde([AgentState], {AES_KEY_ENV: KEY})) as store:
        read = list(read_checkpoints(store, THREADS))
        audited = audit_store(store, AgentState, history=True)
        assert store.saver.serde.refusals == 0
    assert read == expected and len(read) == 39
    with open_store(plain, strict_serde([AgentState], {})) as store:
        unencrypted = audit_store(store, AgentState, history=True)

    def verdicts(result):
        return [(s.thread_id, s.step, s.node, s.errors) for s in result.invalid]

    assert (audited.threads, audited.checkpoints) == (unencrypted.threads, 39)
    assert verdicts(audited) == verdicts(unencrypted) != []


@pytest.mark.parametrize(
    ("env", "code", "what"),
    [
        (
            {},
            "store_encrypted",
            "it is encrypted (msgpack+aes, LangGraph's EncryptedSerializer) "
            "and no key is configured; set LANGGRAPH_AES_KEY in the server's environment to the "
            "key the application writes with",
        ),
        (
            {AES_KEY_ENV: "another-key-of-32-bytes-for-aes!"},
            "store_wrong_key",
            "it is encrypted and the key in LANGGRAPH_AES_KEY does not decrypt it (wrong key, or a "
            "damaged value); set it to the key the application writes with",
        ),
        (
            {AES_KEY_ENV: "too-short"},
            "store_wrong_key",
            "it is encrypted and LANGGRAPH_AES_KEY is 9 bytes long, not an AES key (16, 24 or 32 "
            "bytes); set it to the key the application writes with",
        ),
    ],
    ids=["no-key", "wrong-key", "malformed-key"],
)
def test_without_the_right_key_the_store_is_refused_with_a_coded_line(
    encrypted, env, code, what, monkeypatch, tmp_path, capsys
):
    kind, spec, _ = encrypted
    with pytest.raises(StoreError) as raised:
        with open_store(spec, strict_serde([AgentState], env)) as store:
            audit_store(store, AgentState)
    label = store.label
    assert (raised.value.code, raised.value.message) == (code, f"{label}: {what}")

    monkeypatch.chdir(tmp_path)  # no playground.toml
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE", AES_KEY_ENV):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["audit", spec, "--json"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", superuser_warning(kind, label) + f"[{code}] {label}: {what}\n")
    assert KEY not in err and "another-key" not in err and PG_PASSWORD not in err


def test_the_cli_audits_an_encrypted_store_with_the_key_from_the_environment(
    encrypted, monkeypatch, tmp_path, capsys
):
    kind, spec, _ = encrypted
    monkeypatch.chdir(tmp_path)
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(AES_KEY_ENV, KEY)
    with open_store(spec, strict_serde([AgentState], {AES_KEY_ENV: KEY})) as store:
        expected = audit_store(store, AgentState, history=True).to_json()
    assert main(["audit", spec, "--json", "--history"]) == 1
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected, default=str))


def test_an_unencrypted_store_reads_the_same_with_a_key_configured(encrypted):
    kind, _, plain = encrypted
    with open_store(plain, strict_serde([AgentState], {})) as store:
        without = list(read_checkpoints(store, THREADS))
    with open_store(plain, strict_serde([AgentState], {AES_KEY_ENV: KEY})) as store:
        assert list(read_checkpoints(store, THREADS)) == without


def test_inside_an_encrypted_value_the_allow_list_still_decides(tmp_path):
    """Decrypted values go through the strict serializer: pickle and a crafted constructor
    call are refused unread (LangGraph's default serializer would run the latter)."""
    import pickle

    from core.lg_compat import msgpack_encode as _msgpack_enc
    from core.stores import Refused

    from .test_serde import _crafted

    marker = tmp_path / "ran"
    cipher = _aes().cipher
    crafted = cipher.encrypt(_msgpack_enc({"messages": [_crafted(marker)]}))[1]
    pickled = cipher.encrypt(pickle.dumps({"a": 1}))[1]
    serde = strict_serde([AgentState], {AES_KEY_ENV: KEY})
    assert serde.loads_typed(("pickle+aes", pickled)) == Refused("pickle")
    assert serde.loads_typed(("msgpack+aes", crafted)) == {"messages": [Refused("os.system")]}
    assert (serde.refusals, marker.exists()) == (2, False)
