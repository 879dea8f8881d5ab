"""python -m core: exit codes 0/1/2 and the same error table as the page."""

import io
import json
import re

import pytest
from pydantic import ValidationError

from core.__main__ import main
from core.order import AgentState, build_order_graph
from core.order.presets import PRESETS, SEED_TEXT
from core.validate.report import validate_text


def _write(tmp_path, text):
    path = tmp_path / "payload.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_validate_prints_both_verdicts_and_the_error_table_and_exits_1(tmp_path, capsys):
    assert main(["validate", _write(tmp_path, PRESETS["bad_sku"].value)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "langgraph: raises before the first node: ValidationError: 1 error: items[0].sku "
        "(string_pattern_mismatch)",
        "your model alone: 1 error",
        "line:col  path          type                     message                                     input    ",
        "6:14      items[0].sku  string_pattern_mismatch  String should match pattern '^[A-Z0-9-]+$'  \"bad sku\"",
    ]


def test_validate_json_output_and_exit_0_for_a_valid_payload(tmp_path, capsys):
    assert main(["validate", "--json", _write(tmp_path, SEED_TEXT)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "ok": True,
        "errors": [],
        "langgraph": {
            "runs": True,
            "first_nodes": ["validate_order"],
            "error": None,
            "dropped": [],
            "errors": [],
        },
    }


def test_validate_says_langgraph_runs_a_payload_the_model_alone_rejects(tmp_path, capsys):
    text = PRESETS["untyped_message"].value
    assert main(["validate", _write(tmp_path, text)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "langgraph: runs (first node: validate_order)",
        "your model alone: 1 error",
        "line:col  path         type                 message                                                       input                                                       ",
    ]
    assert out[3].split()[:3] == ["12:5", "messages[0]", "validator_exception"]


def test_unreadable_input_exits_2_with_line_and_column(tmp_path, capsys):
    assert main(["validate", _write(tmp_path, '{"a": ')]) == 2
    assert capsys.readouterr().err == (
        "unreadable payload: line 1, column 7: Invalid JSON: Expecting value — the text ends "
        "before the JSON does: complete it or close the open { and [.\n"
    )
    assert main(["validate", str(tmp_path / "missing.json")]) == 2


def test_bytes_that_are_not_utf8_exit_2_from_stdin_as_from_a_file(tmp_path, monkeypatch, capsys):
    data = b'{"amount": 1, "logs": ["\xff"]}'
    path = tmp_path / "payload.json"
    path.write_bytes(data)
    assert main(["validate", str(path)]) == 2
    for command in ("validate", "trace"):
        monkeypatch.setattr(
            "sys.stdin",
            io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape"),
        )
        assert main([command, "-"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"cannot read {path}: 'utf-8' codec can't decode byte 0xff in position 24: invalid "
        "start byte",
        *["cannot read -: 'utf-8' codec can't decode byte 0xff in position 24: invalid start byte"]
        * 2,
    ]


def test_stdin_line_ends_are_read_as_a_files_are(tmp_path, monkeypatch, capsys):
    data = b'{\r"user_id": "x",\r\n"amount": -1\r}'
    path = tmp_path / "payload.json"
    path.write_bytes(data)
    assert main(["validate", str(path)]) == 1
    from_file = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["validate", "-"]) == 1
    assert capsys.readouterr().out == from_file
    assert [line.split()[:2] for line in from_file.splitlines()[3:]] == [
        ["2:12", "user_id"],
        ["3:11", "amount"],
    ]


def test_trace_prints_one_row_per_node_and_rejects_unknown_faults(tmp_path, capsys):
    path = _write(tmp_path, SEED_TEXT)
    assert main(["trace", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines[1:]] == [
        ["0", "__start__", "pending"],
        ["1", "validate_order", "validated"],
        ["2", "confirm", "confirmed"],
    ]
    assert main(["trace", path, "--fault", "nope"]) == 2
    assert "[unknown_fault] unknown fault id(s) 'nope'" in capsys.readouterr().err


def test_a_repeated_key_is_noted_on_stderr_and_listed_in_the_json_output(tmp_path, capsys):
    path = _write(tmp_path, '{"amount": 5,\n "amount": -1}')
    assert main(["validate", path]) == 1
    assert capsys.readouterr().err == (
        "note: repeated key, only the last value is validated: amount  at 1:2, 2:2\n"
    )
    assert main(["validate", "--json", path]) == 1
    assert json.loads(capsys.readouterr().out)["duplicate_keys"] == [
        {"path": "amount", "positions": [[1, 2], [2, 2]]}
    ]


def test_validate_json_gives_each_error_pydantics_fields_and_the_pages_line_and_col(
    tmp_path, capsys
):
    text = '{"user_id": "not-a-uuid",\n "amount": -1, "coupon": "X"}'
    with pytest.raises(ValidationError) as pydantic:
        AgentState.model_validate_json(text)
    assert main(["validate", "--json", _write(tmp_path, text)]) == 1
    positions = [
        {"line": 1, "col": 13},
        {"line": 2, "col": 12},
        {"line": 2, "col": 16},  # the unknown key itself
    ]
    with pytest.raises(ValidationError) as langgraph:  # LangGraph's own run, unknown key dropped
        build_order_graph().invoke(json.loads(text))
    assert json.loads(capsys.readouterr().out) == {
        "ok": False,
        "errors": [
            error | spot
            for error, spot in zip(json.loads(pydantic.value.json()), positions, strict=True)
        ],
        "langgraph": {
            "runs": False,
            "first_nodes": [],
            "error": "ValidationError: 2 errors: user_id (uuid_parsing), amount "
            "(greater_than_equal)",
            "dropped": ["coupon"],
            "errors": [
                error | spot
                for error, spot in zip(
                    json.loads(langgraph.value.json()), positions[:2], strict=True
                )
            ],
        },
    }
    rows = [row["line:col"] for row in validate_text(text).to_rows()]
    assert rows == [f"{p['line']}:{p['col']}" for p in positions]  # what the page shows


def _cells(out: str) -> list[dict[str, str]]:
    """The trace table's rows as {column: cell}, cut at the header's column starts."""
    header, *rows = out.splitlines()
    starts = [match.start() for match in re.finditer(r"\S+", header)]
    names = header.split()
    return [
        {
            name: row[start:end].strip()
            for name, start, end in zip(names, starts, [*starts[1:], None], strict=True)
        }
        for row in rows
    ]


def _checks(out: str) -> list[tuple[str, ...]]:
    table, _, after = out.partition("\nrun stopped: ")
    rows = [
        (row["step"], row["node"], row["status"], row["check"], row["blame"], row["error"])
        for row in _cells(table)
    ]
    return [*rows, *(("run stopped: " + after).splitlines() if after else [])]


def test_trace_exits_1_when_a_steps_state_violates_the_model_or_the_run_stops(tmp_path, capsys):
    path = _write(tmp_path, SEED_TEXT)
    start = ("0", "__start__", "pending", "✓", "", "")
    validated = ("1", "validate_order", "validated", "✓", "", "")

    assert main(["trace", path, "--fault", "bad_status_last"]) == 1
    assert _checks(capsys.readouterr().out) == [
        start,
        validated,
        ("2", "confirm", "shipped", "status: literal_error", "confirm", ""),
    ]  # the last node's bad write is returned unvalidated: only our check sees it

    assert main(["trace", path, "--fault", "negative_amount"]) == 1
    assert _checks(capsys.readouterr().out) == [
        start,
        (*validated[:3], "amount: greater_than_equal", "validate_order", ""),
        "run stopped: [input_invalid] step 2, node confirm (written by validate_order): "
        "ValidationError: 1 validation error for AgentState",
    ]

    assert main(["trace", path, "--fault", "node_exception"]) == 1
    assert _checks(capsys.readouterr().out) == [
        start,
        validated,
        (
            "2",
            "confirm",
            "validated",
            "not merged",
            "",
            "RuntimeError: payment service unavailable",
        ),
        "run stopped: [node_error] step 2, node confirm: RuntimeError: payment service unavailable",
    ]


def test_trace_exits_0_when_every_step_is_clean_and_2_when_the_input_is_unusable(tmp_path, capsys):
    assert main(["trace", _write(tmp_path, SEED_TEXT)]) == 0
    assert [row[3:5] for row in _checks(capsys.readouterr().out)] == [("✓", "")] * 3
    assert main(["trace", _write(tmp_path, '{"amount": 1,}')]) == 2
    assert capsys.readouterr().err == (
        "unreadable payload: line 1, column 13: Invalid JSON: a comma after the object's last "
        "member — JSON allows none before }; remove this comma.\n"
    )


def test_trace_json_places_the_gates_errors_in_the_text_as_validate_does(tmp_path, capsys):
    path = _write(tmp_path, '{"user_id": "x", "amount": 1,\n "zz": 1}')
    assert main(["validate", "--json", path]) == 1
    validated = json.loads(capsys.readouterr().out)["errors"]
    assert main(["trace", "--json", path]) == 1
    body = json.loads(capsys.readouterr().out)
    assert (body["steps"], body["error"], body["output"]) == ([], None, None)
    assert (
        [
            {k: e[k] for k in ("type", "loc", "msg", "input", "line", "col")}
            for e in body["gate_errors"]
        ]
        == [{k: e[k] for k in ("type", "loc", "msg", "input", "line", "col")} for e in validated]
        == [
            {
                "type": "uuid_parsing",
                "loc": ["user_id"],
                "msg": "Input should be a valid UUID, invalid character: found `x` at 0",
                "input": "x",
                "line": 1,
                "col": 13,
            },
            {
                "type": "extra_forbidden",
                "loc": ["zz"],
                "msg": "Extra inputs are not permitted",
                "input": 1,
                "line": 2,
                "col": 2,
            },
        ]
    )
