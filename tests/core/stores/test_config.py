"""The server's store setting: flag, then playground.toml, then PLAYGROUND_STORE."""

from __future__ import annotations

import pytest

from core.stores.config import ServerStore, server_store
from core.stores.errors import StoreCode, StoreError

DSN = "postgresql://app:s3cret@db.internal:5432/shop"


def test_the_flag_wins_then_the_file_then_the_environment(tmp_path):
    (tmp_path / "playground.toml").write_text(
        f'[playground]\nmodel = "core.order:AgentState"\nstore = "{DSN}"\n'
    )
    env = {"PLAYGROUND_STORE": "env.sqlite"}
    assert [
        server_store(["--model", "m:M", "--store", "flag.sqlite"], env, tmp_path),
        server_store([], env, tmp_path),
        server_store([], env, tmp_path / "elsewhere"),
        server_store([], {"PLAYGROUND_STORE": "  "}, tmp_path / "elsewhere"),
    ] == [
        ServerStore("flag.sqlite", "flag"),
        ServerStore(DSN, "playground.toml"),
        ServerStore("env.sqlite", "environment"),
        None,
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f'[playground]\nstore = "{DSN}', "cannot be read as TOML; fix the [playground] table."),
        ("[playground]\nstore = 5\n", 'write store = "runs/checkpoints.sqlite" (a file, a'),
    ],
    ids=["not toml", "not a string"],
)
def test_a_bad_store_setting_is_a_coded_error_that_never_quotes_the_dsn(tmp_path, text, message):
    (tmp_path / "playground.toml").write_text(text)
    with pytest.raises(StoreError) as refused:
        server_store([], {}, tmp_path)
    assert refused.value.code == StoreCode.BAD_SPEC
    assert message in refused.value.message and "s3cret" not in str(refused.value)
