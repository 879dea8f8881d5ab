"""`audit --shards N` takes its index from JOB_COMPLETION_INDEX; `--findings-exit 0`."""

from __future__ import annotations

import json

import pytest

from core.__main__ import main
from core.order import AgentState
from core.stores import audit_store, open_store, strict_serde
from core.stores.open import store_label
from core.stores.shard_flags import ShardFlagError, resolve_shard

from .conftest import superuser_warning

JOB = "JOB_COMPLETION_INDEX"


@pytest.fixture
def no_project(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no playground.toml here
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE", JOB):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("shard", "shards", "environ", "expected"),
    [
        (None, None, {}, (0, 1)),
        (None, None, {JOB: "2"}, (0, 1)),  # no --shards: the whole store (and a note)
        ((1, 4), None, {}, (1, 4)),
        ((1, 4), 4, {JOB: "1"}, (1, 4)),
        (None, 3, {JOB: "0"}, (0, 3)),
        (None, 3, {JOB: "2"}, (2, 3)),
        (None, 1, {JOB: "0"}, (0, 1)),
    ],
)
def test_the_shard_comes_from_the_flags_then_the_jobs_index(shard, shards, environ, expected):
    assert resolve_shard(shard, shards, environ) == expected


@pytest.mark.parametrize(
    ("shard", "shards", "environ", "message"),
    [
        (None, 3, {}, "--shards 3 needs this process's index: pass --shard i/3 instead, or run "
         "it in a Kubernetes Indexed Job, which sets JOB_COMPLETION_INDEX"),
        (None, 3, {JOB: "3"}, "JOB_COMPLETION_INDEX=3 is out of range for --shards 3 (0 to 2): "
         "give the Job `completions: 3`, the N of --shards"),
        (None, 3, {JOB: "-1"}, "JOB_COMPLETION_INDEX='-1' is not a shard index: Kubernetes sets "
         "it to 0, 1, ... in an Indexed Job; unset it here, or pass --shard i/N"),
        (None, 3, {JOB: ""}, "JOB_COMPLETION_INDEX='' is not a shard index: Kubernetes sets it "
         "to 0, 1, ... in an Indexed Job; unset it here, or pass --shard i/N"),
        ((1, 4), 3, {}, "--shard 1/4 and --shards 3 disagree: pass one of them"),
        ((1, 3), None, {JOB: "2"}, "--shard 1/3 but JOB_COMPLETION_INDEX=2: in an Indexed Job "
         "pass --shards 3 alone (each pod audits its own index), or unset JOB_COMPLETION_INDEX"),
        ((1, 3), None, {JOB: "١"}, "JOB_COMPLETION_INDEX='١' is not a shard index: Kubernetes "
         "sets it to 0, 1, ... in an Indexed Job; unset it here, or pass --shard i/N"),
    ],
)  # fmt: skip
def test_flags_that_name_no_shard_or_disagree_are_refused(shard, shards, environ, message):
    with pytest.raises(ShardFlagError) as refused:
        resolve_shard(shard, shards, environ)
    assert (refused.value.code, refused.value.message) == ("bad_shard", message)
    assert str(refused.value) == f"[bad_shard] {message}"


def _shard(spec: str, shard: tuple[int, int]) -> dict:
    with open_store(spec, strict_serde([AgentState])) as store:
        return audit_store(store, AgentState, history=True, shard=shard).to_json()


def test_shards_alone_audits_the_slice_of_the_jobs_index(
    no_project, demo_store, monkeypatch, capsys
):
    spec = demo_store[1]
    for index in range(3):
        monkeypatch.setenv(JOB, str(index))
        main(["audit", spec, "--history", "--json", "--shards", "3"])
        assert json.loads(capsys.readouterr().out) == _shard(spec, (index, 3))


@pytest.mark.parametrize(
    ("argv", "job", "said"),
    [
        (["--shards", "2"], None, "[bad_shard] --shards 2 needs this process's index"),
        (
            ["--shards", "2"],
            "2",
            "[bad_shard] JOB_COMPLETION_INDEX=2 is out of range for --shards 2",
        ),
        (["--shard", "0/2"], "1", "[bad_shard] --shard 0/2 but JOB_COMPLETION_INDEX=1"),
        (["--shards", "0"], None, "argument --shards: '0' is not a number of shards"),
        (["--findings-exit", "3"], None, "argument --findings-exit: invalid choice: 3"),
    ],
)
def test_a_shard_the_flags_cannot_name_is_a_usage_error(
    no_project, monkeypatch, capsys, argv, job, said
):
    if job is not None:
        monkeypatch.setenv(JOB, job)
    with pytest.raises(SystemExit) as caught:
        main(["audit", "x.sqlite", *argv])
    err = capsys.readouterr().err
    assert caught.value.code == 2
    assert err.startswith("usage: python -m core audit ") and f"error: {said}" in err


def test_the_jobs_index_without_shards_audits_the_whole_store_and_says_so(
    no_project, demo_store, monkeypatch, capsys
):
    monkeypatch.setenv(JOB, "1")
    assert main(["audit", demo_store[1], "--json", "--history"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == _shard(demo_store[1], (0, 1))
    kind, spec = demo_store
    assert captured.err == (
        "note: JOB_COMPLETION_INDEX is set but neither --shards nor --shard is: this process "
        "audits the whole store\n" + superuser_warning(kind, store_label(spec))
    )


def test_findings_exit_0_turns_findings_into_success_but_not_an_unusable_store(
    no_project, demo_store, tmp_path, capsys
):
    spec = demo_store[1]
    assert main(["audit", spec, "--json"]) == 1
    found = capsys.readouterr().out
    assert main(["audit", spec, "--json", "--findings-exit", "0"]) == 0
    assert capsys.readouterr().out == found
    assert main(["audit", spec, "--json", "--findings-exit", "1"]) == 1
    capsys.readouterr()
    missing = str(tmp_path / "missing.sqlite")
    assert main(["audit", missing, "--findings-exit", "0"]) == 2
    assert capsys.readouterr() == (
        "",
        f"[store_missing] {missing} does not exist; check the path.\n",
    )
