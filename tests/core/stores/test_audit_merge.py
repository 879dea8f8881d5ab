"""`audit-merge`: shards' --json parts summed into the whole audit's report, or one coded line."""

from __future__ import annotations

import json

import pytest

from core.__main__ import main
from core.order import SEED_PAYLOAD, build_order_graph

from .conftest import writer


@pytest.fixture
def no_project(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no playground.toml here; the parts are written here
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("JOB_COMPLETION_INDEX", raising=False)


def _parts(spec: str, shards: int, capsys, *flags: str) -> list[str]:
    names = []
    for index in range(shards):
        main(["audit", spec, "--json", *flags, "--shard", f"{index}/{shards}"])
        names.append(f"part-{index}.json")
        with open(names[-1], "w", encoding="utf-8") as part:
            part.write(capsys.readouterr().out)
    return names


@pytest.mark.parametrize("flags", [[], ["--history"]], ids=["latest", "history"])
def test_merged_parts_print_exactly_the_whole_audit(no_project, demo_store, capsys, flags):
    spec = demo_store[1]
    for as_json in (["--json"], []):
        assert main(["audit", spec, *flags, *as_json]) == 1
        whole = capsys.readouterr().out
        for shards in (2, 3, 5):
            parts = _parts(spec, shards, capsys, *flags)
            assert main(["audit-merge", *parts, *as_json]) == 1
            assert capsys.readouterr() == (whole, "")


def test_merged_clean_parts_exit_0(no_project, tmp_path, capsys):
    spec = str(tmp_path / "clean.sqlite")
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("a", "b", "c"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    parts = _parts(spec, 2, capsys)
    assert main(["audit-merge", *parts]) == 0
    assert capsys.readouterr() == (
        "3 threads, 3 checkpoints audited: 0 invalid, 0 unreadable\n",
        "",
    )


def _invalid(thread: str, checkpoint: str) -> dict:
    error = {"type": "missing", "loc": ["user_id"], "msg": "Field required", "input": {}}
    return {"thread_id": thread, "checkpoint_id": checkpoint, "step": 1, "node": "n",
            "errors": [error]}  # fmt: skip


def _unreadable(thread: str, checkpoint: str) -> dict:
    return {"thread_id": thread, "checkpoint_id": checkpoint, "step": None,
            "code": "row_undecodable", "message": "not msgpack"}  # fmt: skip


def _write(name: str, body: object) -> str:
    with open(name, "w", encoding="utf-8") as part:
        part.write(body if isinstance(body, str) else json.dumps(body))
    return name


def test_rows_are_merged_in_thread_order_each_threads_own_order_kept(no_project, capsys):
    first = _write("part-0.json", {
        "threads": 4, "checkpoints": 9,
        "invalid": [_invalid("b", "c2"), _invalid("b", "c1"), _invalid("d", "c9")],
        "unreadable": [_unreadable("d", "c8")],
    })  # fmt: skip
    second = _write("part-1.json", {
        "threads": 3, "checkpoints": 5,
        "invalid": [_invalid("a", "c5"), _invalid("c", "c7")],
        "unreadable": [_unreadable("", "c0"), _unreadable("c", "c6")],
    })  # fmt: skip
    assert main(["audit-merge", first, second, "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {
        "threads": 7,
        "checkpoints": 14,
        "invalid": [_invalid("a", "c5"), _invalid("b", "c2"), _invalid("b", "c1"),
                    _invalid("c", "c7"), _invalid("d", "c9")],
        "unreadable": [_unreadable("", "c0"), _unreadable("c", "c6"), _unreadable("d", "c8")],
    }  # fmt: skip


_PART = {"threads": 2, "checkpoints": 2, "invalid": [], "unreadable": []}
_HOW = "write it with `python -m core audit ... --json` and merge the file as it was printed."


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("", "part-1.json is empty: its shard printed no report (an audit that cannot read "
         "the store exits 2 and prints only to stderr); see that shard's log and run it again."),
        ("\n  \n", "part-1.json is empty: its shard printed no report (an audit that cannot "
         "read the store exits 2 and prints only to stderr); see that shard's log and run it "
         "again."),
        ('{"threads": 2, "checkp', "part-1.json is not an audit's --json output (Invalid JSON: "
         f"EOF while parsing a string at line 1 column 22); {_HOW}"),
        ({**_PART, "threads": "2"}, "part-1.json is not an audit's --json output (threads: "
         f"Input should be a valid integer); {_HOW}"),
        ({**_PART, "threads": True}, "part-1.json is not an audit's --json output (threads: "
         f"Input should be a valid integer); {_HOW}"),
        ({**_PART, "checkpoints": -1}, "part-1.json is not an audit's --json output "
         f"(checkpoints: Input should be greater than or equal to 0); {_HOW}"),
        ({**_PART, "shard": "0/2"}, "part-1.json is not an audit's --json output (shard: "
         f"Extra inputs are not permitted); {_HOW}"),
        ({k: v for k, v in _PART.items() if k != "invalid"}, "part-1.json is not an audit's "
         f"--json output (invalid: Field required); {_HOW}"),
        ({**_PART, "invalid": [{**_invalid("a", "c"), "step": "1"}]}, "part-1.json is not an "
         f"audit's --json output (invalid[0].step: Input should be a valid integer); {_HOW}"),
        ({**_PART, "unreadable": [_unreadable("a", str(n)) for n in range(3)]}, "part-1.json "
         "is not an audit's --json output (Value error, it lists more invalid and unreadable "
         f"rows than checkpoints); {_HOW}"),
        ([], "part-1.json is not an audit's --json output (Input should be an object); "
         f"{_HOW}"),
    ],
)  # fmt: skip
def test_a_part_that_is_not_an_audits_json_is_named_with_a_code(no_project, capsys, body, said):
    good = _write("part-0.json", _PART)
    assert main(["audit-merge", good, _write("part-1.json", body), "--json"]) == 2
    assert capsys.readouterr() == ("", f"[audit_part_malformed] {said}\n")


def test_a_missing_part_is_named(no_project, capsys):
    good = _write("part-0.json", _PART)
    assert main(["audit-merge", good, "part-1.json"]) == 2
    assert capsys.readouterr() == (
        "",
        "[audit_part_unreadable] part-1.json cannot be read (No such file or directory); "
        "check the path and that the shard's audit wrote it.\n",
    )


def test_parts_that_are_not_the_shards_of_one_audit_are_refused(no_project, capsys):
    first = _write("part-0.json", {**_PART, "invalid": [_invalid("a", "c1")]})
    again = _write("part-1.json", {**_PART, "unreadable": [_unreadable("a", "c2")]})
    assert main(["audit-merge", first, "./part-0.json"]) == 2
    assert capsys.readouterr() == (
        "",
        "[audit_parts_overlap] ./part-0.json is given twice (also as part-0.json); give each "
        "part once.\n",
    )
    assert main(["audit-merge", first, again]) == 2
    assert capsys.readouterr() == (
        "",
        "[audit_parts_overlap] part-0.json and part-1.json both list thread 'a': parts must be "
        "the shards of one audit, each index of one --shards N once.\n",
    )
