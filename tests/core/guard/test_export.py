"""`python -m core guard --export`: one module, importing only langgraph, langchain_core,
pydantic and the standard library, that behaves as core.guard outside this repository."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.__main__ import main
from core.guard.export import export_source
from core.guard.inline import ROOT

from .exported_plugin import UNDER_TEST_ENV

SCENARIO = Path(__file__).with_name("guard_scenario.py")
# the guard's own tests, run again on the exported module (exported_plugin.py swaps it in)
OWN_TESTS = [
    "test_issue_6491.py",
    "test_migrate_on_read.py",
    "test_migrate_plans.py",
    "test_saver.py",
    "test_conformance.py",
]
MESSAGE = (
    "[state_invalid] Thread 't-6491': the state at step 1 fails Tagged (tags[1]: Input should "
    "be a valid string [string_type]), written by tag. Nothing of it was stored: the thread's "
    "last valid checkpoint stays its head. Fix what tag returns, or write a valid value with "
    'update_state(config, values, as_node="tag"), then resume.'
)
SEEN = {
    "core_importable": False,
    "issue_6491": {
        "bare_history": "ValidationError",  # without the guard, the history raises
        "refused": ["InvalidStateError", "state_invalid", 1, ["tag"]],
        "errors": [
            {
                "type": "string_type",
                "loc": ["tags", 1],
                "msg": "Input should be a valid string",
                "input": None,
            }
        ],
        "message": MESSAGE,
        "history": [[0, {"tags": []}, ["tag"]], [-1, {}, ["__start__"]]],
        "fixed": {"tags": ["a", "b", "done"]},
    },
    "migrated_read": {
        "read": {"notes": ["shipped"], "status": "fulfilled"},
        "stored": {"notes": ["shipped"], "status": "shipped"},  # nothing rewritten on read
        "ran": {"notes": ["shipped", "again", "seen fulfilled"], "status": "fulfilled"},
        "history": [
            [4, {"notes": ["shipped", "again", "seen fulfilled"], "status": "fulfilled"}, []],
            [3, {"notes": ["shipped", "again"], "status": "fulfilled"}, ["step"]],
            [2, {"notes": ["shipped"], "status": "fulfilled"}, ["__start__"]],
            [1, {"notes": ["shipped"], "status": "fulfilled"}, []],
            [0, {"notes": []}, ["step"]],
            [-1, {"notes": []}, ["__start__"]],
        ],
    },
    "plan_read": {"read": {"notes": ["shipped"], "status": "fulfilled"}},
}


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    """`python -m core guard --export state_guard.py`, run in a directory of its own."""
    path = tmp_path / "vendored" / "state_guard.py"
    path.parent.mkdir()
    assert main(["guard", "--export", str(path)]) == 0
    return path


def _run_scenario(module: str, workdir: Path, *, isolated: bool) -> dict[str, Any]:
    """guard_scenario.py on `module` in a subprocess, its SQLite file in `workdir`."""
    script = workdir / SCENARIO.name
    shutil.copy(SCENARIO, script)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    flags = ["-I"]  # isolated: no PYTHONPATH, no user site, not even the script's directory
    if not isolated:
        env["PYTHONPATH"], flags = str(ROOT), []
    done = subprocess.run(
        [sys.executable, *flags, str(script), module, str(workdir)],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen: dict[str, Any] = json.loads(done.stdout)
    return seen


def test_the_export_imports_only_langgraph_langchain_core_pydantic_and_the_standard_library(
    exported: Path,
) -> None:
    imported = set()
    for node in ast.walk(ast.parse(exported.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0
            imported.add((node.module or "").split(".")[0])
    allowed = {"langchain_core", "langgraph", "pydantic", "pydantic_core"}
    assert imported - set(sys.stdlib_module_names) == allowed


def test_the_exported_module_outside_the_repo_refuses_6491_and_migrates_on_read_as_core_guard(
    exported: Path, tmp_path: Path
) -> None:
    seen = _run_scenario("state_guard", exported.parent, isolated=True)
    assert seen == SEEN
    here = tmp_path / "in_repo"
    here.mkdir()
    assert _run_scenario("core.guard", here, isolated=False) == {**SEEN, "core_importable": True}


def test_check_says_whether_an_exported_module_is_current(
    exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["guard", "--check", str(exported)]) == 0
    exported.write_text(export_source().replace("MAX_NAMED = 3", "MAX_NAMED = 4"))
    assert main(["guard", "--check", str(exported)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{exported} is current",
        f"{exported} differs from what `python -m core guard --export {exported}` writes now: "
        "export it again",
    ]


def test_the_exported_module_holds_core_guards_own_statements_as_written() -> None:
    source = export_source()
    for name in ("saver", "gate", "ledger", "verdict", "refusal", "check", "on_read"):
        own = (ROOT / "core" / "guard" / f"{name}.py").read_text(encoding="utf-8")
        body = ast.parse(own).body
        classes = [n for n in body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
        for node in classes:
            text = ast.get_source_segment(own, node)
            assert text is not None and text in source, f"{name}.{node.name}"


def test_the_guards_own_tests_pass_on_the_exported_module(exported: Path) -> None:
    here = Path(__file__).parent
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-vv", "-p", "no:randomly"),
            *("-p", "tests.core.guard.exported_plugin"),
            *(str(here / name) for name in OWN_TESTS),
        ],
        cwd=ROOT,
        env={**os.environ, UNDER_TEST_ENV: str(exported)},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    outcomes = re.findall(r"^(tests/[^:]+)::.* (PASSED|FAILED|ERROR|SKIPPED)", done.stdout, re.M)
    files = sorted({file.rsplit("/", 1)[-1] for file, _ in outcomes})
    assert (done.returncode, files) == (0, sorted(OWN_TESTS)), done.stdout[-3000:]
    assert {outcome for _, outcome in outcomes} == {"PASSED"}
