"""docs/kubernetes-audit.md stays true: its Job's command, run as each pod runs it, then its
merge step, print exactly the whole audit's JSON."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

from core.stores.open import store_label

from .conftest import superuser_warning

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "kubernetes-audit.md"
# what a reader replaces in the doc's commands: their model, their volume's mount
THEIRS = {"myshop.state:OrderState": "core.order:AgentState", "/out/": "{out}/"}


def _blocks(text: str, language: str) -> list[str]:
    found = re.findall(rf"^ *```{language}\n(.*?)^ *```$", text, flags=re.S | re.M)
    return [textwrap.dedent(block) for block in found]


def _jobs() -> dict[str, dict]:
    manifests = [yaml.safe_load(block) for block in _blocks(DOC.read_text("utf-8"), "yaml")]
    return {job["metadata"]["name"]: job for job in manifests}


def _script(job: dict, out: Path) -> str:
    container = job["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == ["sh", "-c"]
    (script,) = container["args"]
    for theirs, ours in THEIRS.items():
        script = script.replace(theirs, ours.format(out=out))
    return script


def _sh(script: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(["sh", "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip


def test_the_manifest_is_an_indexed_job_of_n_pods_reading_the_dsn_from_a_secret():
    audit = _jobs()["state-audit"]
    spec, pod = audit["spec"], audit["spec"]["template"]["spec"]
    script = pod["containers"][0]["args"][0]
    assert (spec["completionMode"], spec["completions"], spec["parallelism"]) == ("Indexed", 3, 3)
    assert f"--shards {spec['completions']} " in script and "--shard " not in script
    assert "--model myshop.state:OrderState " in script
    assert script.endswith(" --json --findings-exit 0 > /out/part-$JOB_COMPLETION_INDEX.json")
    assert pod["containers"][0]["env"] == [
        {"name": "PLAYGROUND_STORE",
         "valueFrom": {"secretKeyRef": {"name": "audit-store", "key": "dsn"}}},
    ]  # fmt: skip
    readme = (ROOT / "README.md").read_text("utf-8")
    assert _blocks(DOC.read_text("utf-8"), "sql") == _blocks(readme, "sql")  # one audit role


def test_the_docs_job_and_merge_print_the_whole_audit(demo_store, tmp_path):
    kind, spec = demo_store
    jobs, unset = _jobs(), ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "JOB_COMPLETION_INDEX")
    env = {k: v for k, v in os.environ.items() if k not in unset}  # the doc's command alone
    bin_dir = tmp_path / "bin"  # `python`, as the image has it: this interpreter
    bin_dir.mkdir()
    # A script, not a symlink: a venv's interpreter reached through a link elsewhere finds no
    # pyvenv.cfg beside it and loses the venv's packages.
    python = bin_dir / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()
    env |= {"PLAYGROUND_STORE": spec, "PYTHONPATH": str(ROOT),
            "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"}  # fmt: skip
    audit = _script(jobs["state-audit"], out)
    pods = [
        _sh(audit, {**env, "JOB_COMPLETION_INDEX": str(index)})
        for index in range(jobs["state-audit"]["spec"]["completions"])
    ]
    warned = superuser_warning(kind, store_label(spec))
    assert [(pod.communicate(), pod.returncode) for pod in pods] == [(("", warned), 0)] * 3
    merge = _sh(_script(jobs["state-audit-merge"], out), env)
    assert (merge.communicate(), merge.returncode) == (("", ""), 1)
    whole = subprocess.run(
        [sys.executable, "-m", "core", "audit", "--model", "core.order:AgentState", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert whole.returncode == 1
    assert (out / "audit.json").read_text("utf-8") == whole.stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "audit.json", "part-0.json", "part-1.json", "part-2.json",
    ]  # fmt: skip
