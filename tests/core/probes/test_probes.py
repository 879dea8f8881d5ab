"""Behaviour lab probes: registry contract, fresh-process speed, and today's pinned verdicts."""

import inspect
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import core.probes as probes
from core.probes import (
    VERDICTS,
    Check,
    Probe,
    ProbeResult,
    UnknownProbeError,
    probe_source,
    registry,
    results_to_json,
    results_to_markdown,
    run_probe,
)
from core.probes._model import (
    ARTICLE_OUTPUT,
    ARTICLE_STATE,
    ARTICLE_TOOLS,
    describe,
    evidence_of,
    verdict_of,
)
from core.probes.timing import time_state_kinds

ROOT = Path(__file__).resolve().parents[3]
ALL_IDS = list(registry())
FAST_IDS = [p.id for p in registry().values() if not p.on_demand]

# What the probes observe today on pydantic 2.14.4 / pydantic-core 2.50.5 / langgraph 1.2.24 /
# langchain-core 1.8.3 / pydantic-ai-slim 2.68.0. An upgrade that changes one of these behaviours fails the test named
# after the probe: re-read its evidence, then update the pin (docs/architecture.md, "The
# Behaviour lab's pins").
PINNED_VERDICTS = {
    "gate_blocks_invalid_input": "partly",
    "extra_forbid_rejects_unknown_keys": "partly",
    "only_first_input_validated": "differs",
    "invalid_write_reaches_final_state": "partly",
    "errors_do_not_name_node": "partly",
    "invoke_returns_dict": "holds",
    "validator_rewrite_not_written_back": "holds",
    "no_reducer_overwrites_list": "partly",
    "overwrite_bypasses_reducer": "partly",
    "mutable_default_is_shared": "differs",
    "model_config_applies_to_nested": "differs",
    "v1_config_class_errors": "differs",
    "secretstr_masked_but_checkpointed": "holds",
    "add_messages_dedupes_by_id": "holds",
    "basemessage_loses_subclass": "partly",
    "dict_any_accepts_wrong_inner_types": "holds",
    "custom_class_needs_core_schema": "partly",
    "union_picks_member_silently": "holds",
    "literal_field_auto_discriminates": "differs",
    "discriminator_error_as_printed": "differs",
    "self_reference_needs_model_rebuild": "differs",
    "circular_reference_dump_is_guarded": "partly",
    "model_str_shows_class_name": "partly",
    "json_schema_takes_indent": "differs",
    "field_validator_has_validatorinfo": "partly",
    "after_validator_checks_field_combination": "holds",
    "discriminator_on_list_of_union": "differs",
    "core_schema_serializer_takes_json_serialize": "partly",
    "output_is_hidden_final_result_tool": "holds",
    "output_retries_default_one": "holds",
    "output_retries_raised_per_run": "holds",
    "output_feedback_retry_prompt": "partly",
}


def test_every_fast_probe_has_a_pinned_verdict():
    assert sorted(PINNED_VERDICTS) == sorted(FAST_IDS)
    assert [p.id for p in registry().values() if p.on_demand] == ["basemodel_state_is_slower"]


@pytest.mark.parametrize("probe_id", ALL_IDS)
def test_probe_contract(probe_id):
    probe = registry()[probe_id]
    result = run_probe(probe_id)
    assert re.fullmatch(r"[a-z0-9_]+", probe_id)
    articles = "|".join(map(re.escape, (ARTICLE_STATE, ARTICLE_TOOLS, ARTICLE_OUTPUT)))
    assert re.match(rf"({articles}) § \S", probe.source)
    assert not re.search(r"[\u4e00-\u9fff]", probe.source), "section references read in English"
    assert (result.article, result.section) == (probe.article, probe.section)
    assert f"{probe.article} § {probe.section}" == probe.source and probe.section
    assert (result.id, result.claim, result.source) == (probe.id, probe.claim, probe.source)
    assert result.checks, "a probe must observe at least one check"
    assert all(isinstance(c, Check) and c.expected and c.observed for c in result.checks)
    # The verdict and evidence are computed from the checks, never written by the probe.
    assert result.verdict == verdict_of(result.checks)
    assert result.verdict in VERDICTS
    assert result.evidence == evidence_of(result.checks)
    assert sorted(result.versions) == sorted(["python", *probe.packages])
    assert all(isinstance(v, str) and v for v in result.versions.values())
    # The lab shows the code that ran: ours, in English, never an article's snippet.
    source = probe_source(probe_id)
    assert source.startswith("def probe")
    assert not re.search(r"[\u3000-\u9fff\uff00-\uffef]", source)


@pytest.mark.parametrize("probe_id", FAST_IDS)
def test_verdict_is_still_what_it_was_on_the_pinned_versions(probe_id):
    result = run_probe(probe_id)
    assert result.verdict == PINNED_VERDICTS[probe_id], (
        f"probe {probe_id!r} changed: pinned {PINNED_VERDICTS[probe_id]!r}, "
        f"observed {result.verdict!r} on {result.versions}\n{result.evidence}"
    )


_FRESH_PROCESS_SCRIPT = textwrap.dedent(
    """
    import json, multiprocessing, socket, sys, time
    # Imports are paid once here (libraries and probe modules); no probe has run yet, so each
    # forked child starts from a process in which no probe ever ran.
    from core.probes import registry, run_probe
    registry()

    def refuse(*args, **kwargs):
        raise OSError("network access attempted by a probe")

    def child(probe_id, queue):
        socket.socket.connect = refuse
        socket.create_connection = refuse
        started = time.perf_counter()
        result = run_probe(probe_id)
        queue.put((result.verdict, result.evidence, time.perf_counter() - started))

    ctx = multiprocessing.get_context("fork")
    report = {}
    for probe_id in json.loads(sys.argv[1]):
        queue = ctx.Queue()
        proc = ctx.Process(target=child, args=(probe_id, queue))
        proc.start()
        report[probe_id] = queue.get(timeout=30)
        proc.join()
    print(json.dumps(report))
    """
)


def _run_in_fresh_processes(probe_ids: list[str]) -> dict[str, list]:
    done = subprocess.run(
        [sys.executable, "-c", _FRESH_PROCESS_SCRIPT, json.dumps(probe_ids)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_each_probe_runs_offline_in_a_fresh_process():
    # How long each takes is bench/probe_timing.py's to print: timings are not verdicts.
    report = _run_in_fresh_processes(FAST_IDS)
    failed = [pid for pid, (_, evidence, _) in report.items() if "[probe_failed]" in evidence]
    verdicts = {pid: verdict for pid, (verdict, _, _) in report.items()}
    assert (failed, verdicts) == ([], PINNED_VERDICTS)


def test_timing_measures_four_state_kinds_in_interleaved_rounds():
    times = time_state_kinds(budget=0.05)
    assert sorted(times) == ["basemodel", "dataclass", "typeddict", "typeddict+input_schema"]
    assert len({len(rounds) for rounds in times.values()}) == 1
    assert len(times["basemodel"]) >= 5
    assert all(0 < t < 0.1 for rounds in times.values() for t in rounds)


def test_timing_probe_reports_ratios_against_typeddict_and_dataclass():
    result = run_probe("basemodel_state_is_slower")
    assert [c.expected for c in result.checks] == [
        "BaseModel state is at least 3% slower than typeddict state",
        "BaseModel state is at least 3% slower than dataclass state",
    ]
    for check, other in zip(result.checks, ["typeddict", "dataclass"], strict=True):
        assert re.match(
            rf"(slower|not slower|inconclusive): basemodel/{other} per round: median ",
            check.observed,
        )
        assert "typeddict+input_schema/typeddict per round: median" in check.observed
        assert check.matches is {"slower": True, "not slower": False}.get(
            check.observed.split(":")[0]
        )
    assert result.seconds < 2.0


def test_verdict_is_computed_from_checks():
    yes, no, unclear = Check("a", "a", True), Check("b", "c", False), Check("d", "?", None)
    cases = ([yes], [no], [yes, no], [unclear], [yes, unclear], [no, unclear], [yes, no, unclear])
    assert [verdict_of(c) for c in cases] == [
        "holds",
        "differs",
        "partly",
        "inconclusive",  # a timing inside its noise band decides nothing
        "inconclusive",
        "differs",  # an undecided check does not hide a contradiction
        "partly",
    ]
    with pytest.raises(ValueError, match=r"\[no_checks\]"):
        verdict_of([])


def test_evidence_lists_every_check_in_words_with_paths_as_the_app_writes_them():
    # Issue 41, item 10: the downloads carried "[matches]" and Pydantic's dotted "items.0.sku"
    observed = "1 validation error for Order\nitems.0.sku\n  Field required [type=missing]"
    checks = [Check("dict", "dict", True), Check("raises", observed, False)]
    assert evidence_of(checks).splitlines() == [
        "1. As claimed",
        "   predicted: dict",
        "   observed:  dict",
        "",
        "2. Differs",
        "   predicted: raises",
        "   observed:  1 validation error for Order",
        "              items[0].sku",
        "                Field required [type=missing]",
    ]


def test_a_crashing_probe_is_reported_not_raised(monkeypatch):
    def boom() -> list[Check]:
        raise AttributeError("module 'langgraph.types' has no attribute 'Overwrite'")

    crashing = Probe("crashing", "c", f"{ARTICLE_STATE} § 1", boom, packages=())
    monkeypatch.setattr(probes, "registry", lambda: {"crashing": crashing})
    result = run_probe("crashing")
    assert (result.verdict, result.checks, result.evidence.splitlines()) == (
        "differs",
        (),
        [
            "[probe_failed] the probe itself raised; fix the probe.",
            "AttributeError: module 'langgraph.types' has no attribute 'Overwrite'",
        ],
    )


def test_unknown_probe_id_names_the_known_ones():
    with pytest.raises(
        UnknownProbeError, match=r"\[unknown_probe\] no probe 'nope'; choose one of gate_"
    ):
        run_probe("nope")


def test_an_article_example_is_probed_by_our_own_code_and_cited_by_section():
    probe = registry()["json_schema_takes_indent"]
    assert (probe.article, probe.section) == (ARTICLE_TOOLS, "Trap 6: json_schema_extra")
    assert probe_source(probe.id) == inspect.getsource(probe.run).rstrip("\n")
    assert [c.observed for c in run_probe(probe.id).checks] == [
        "TypeError: BaseModel.model_json_schema() got an unexpected keyword argument 'indent'"
    ]


def test_describe_names_the_exception_and_its_notes():
    exc = ValueError("bad")
    exc.add_note("while reading x")
    assert describe(exc) == "ValueError: bad\nnote: while reading x"


_RESULT = ProbeResult(
    id="p",
    claim="a | b",
    source=f"{ARTICLE_TOOLS} § 1",
    verdict="partly",
    evidence="line 1\nline 2",
    versions={"python": "3.11.7", "pydantic": "2.14.4"},
    seconds=0.5,
)


def test_markdown_export_is_one_escaped_row_per_result():
    assert results_to_markdown([_RESULT]).splitlines() == [
        "| id | verdict | claim | source | evidence | versions |",
        "|---|---|---|---|---|---|",
        f"| p | partly | a \\| b | {ARTICLE_TOOLS} § 1 | line 1<br>line 2 "
        "| python 3.11.7, pydantic 2.14.4 |",
    ]


def test_json_export_holds_the_public_fields():
    assert json.loads(results_to_json([_RESULT])) == [
        {
            "id": "p",
            "verdict": "partly",
            "claim": "a | b",
            "source": f"{ARTICLE_TOOLS} § 1",
            "evidence": "line 1\nline 2",
            "versions": {"python": "3.11.7", "pydantic": "2.14.4"},
        }
    ]
