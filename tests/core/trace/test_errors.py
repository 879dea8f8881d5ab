"""core.trace.errors: an exception classified and blamed on the steps that wrote its fields.

tests/core/trace/test_run.py checks the same on real runs; these pin each branch on its own.
"""

from langgraph.errors import EmptyInputError, GraphRecursionError, InvalidUpdateError
from pydantic import BaseModel, ValidationError

from core.trace.errors import TraceError, trace_error
from core.trace.steps import Step, TraceTimeout

STEPS = [
    Step(0, "__start__", changed=["items", "status"]),
    Step(1, "a", changed=["status"]),
    Step(1, "b", changed=["status", "logs"]),
    Step(2, "c", changed=["logs"]),
]

READER = "Before task with name 'd' and path '('__pregel_pull', 'd')'"


class State(BaseModel):
    logs: list[str] = []


def _noted(exc: Exception, note: str) -> Exception:
    exc.add_note(note)
    return exc


def test_a_concurrent_update_blames_the_latest_writers_of_its_key():
    exc = InvalidUpdateError("At key 'status': Can receive only one value per step.")
    assert trace_error(exc, STEPS, 2) == TraceError(
        "concurrent_update",
        2,
        "",
        "a, b",
        "InvalidUpdateError",
        "At key 'status': Can receive only one value per step.",
    )


def test_an_invalid_input_names_the_reader_and_blames_the_fields_last_writer():
    try:
        State.model_validate({"logs": "not a list"})
    except ValidationError as exc:
        caught = exc
    error = trace_error(_noted(caught, READER), STEPS, 3)
    assert error == TraceError("input_invalid", 3, "d", "c", "ValidationError", str(caught))
    assert str(error) == (
        "[input_invalid] step 3, node d (written by c): ValidationError: "
        "1 validation error for State"
    )


def test_an_invalid_input_without_fields_names_only_the_reader():
    error = trace_error(_noted(ValueError("bad"), READER), STEPS, 3)
    assert error == TraceError("input_invalid", 3, "d", "d", "ValueError", "bad")
    assert str(error) == "[input_invalid] step 3, node d: ValueError: bad"


def test_an_error_inside_a_node_is_that_node_s():
    exc = _noted(RuntimeError("boom\nmore"), "During task with name 'c' and id '1'")
    error = trace_error(exc, STEPS, 2)
    assert error == TraceError("node_error", 2, "c", "c", "RuntimeError", "boom\nmore")
    assert str(error) == "[node_error] step 2, node c: RuntimeError: boom"


def test_limits_and_unnamed_errors_have_their_own_codes():
    assert [
        trace_error(exc, STEPS, 4) for exc in (TraceTimeout("over 10 s"), GraphRecursionError("25"))
    ] == [
        TraceError("trace_timeout", 4, "", "", "TraceTimeout", "over 10 s"),
        TraceError("recursion_limit", 4, "", "", "GraphRecursionError", "25"),
    ]
    assert trace_error(KeyError("x"), STEPS, 4) == TraceError(
        "graph_error", 4, "", "", "KeyError", "'x'"
    )


def _langgraph(message: str, code: str) -> InvalidUpdateError:
    """The error as LangGraph words it: its troubleshooting link ends with the error code."""
    link = f"https://docs.langchain.com/oss/python/langgraph/errors/{code}"
    return InvalidUpdateError(f"{message}\nFor troubleshooting, visit: {link}")


NOT_A_DICT = "INVALID_GRAPH_NODE_RETURN_VALUE"
START = "During task with name '__start__'"


def test_langgraph_refusing_a_non_object_input_is_not_called_a_concurrent_update():
    error = trace_error(_noted(_langgraph("Expected dict, got [1]", NOT_A_DICT), START), STEPS, 0)
    assert (error.code, error.step, error.node, error.writers, error.type, error.headline) == (
        "input_not_object",
        0,
        "__start__",
        "__start__",
        "InvalidUpdateError",
        "Expected dict, got [1]",
    )


def test_a_null_input_is_a_missing_object_too():
    error = trace_error(EmptyInputError("Received no input for __start__"), [], 0)
    assert (error.code, error.node, error.type) == ("input_not_object", "", "EmptyInputError")


def test_a_node_returning_a_non_dict_is_an_invalid_update_named_on_the_node():
    exc = _noted(_langgraph("Expected dict, got [1]", NOT_A_DICT), "During task with name 'c'")
    error = trace_error(exc, STEPS, 2)
    assert (error.code, error.step, error.node, error.writers) == ("invalid_update", 2, "c", "c")


def test_two_overwrites_in_one_step_are_a_concurrent_update_like_two_plain_writes():
    exc = _langgraph(
        "Can receive only one Overwrite value per super-step.", "INVALID_CONCURRENT_GRAPH_UPDATE"
    )
    assert trace_error(exc, STEPS, 2).code == "concurrent_update"


def test_a_payload_quoting_an_error_code_does_not_pick_the_class():
    exc = _langgraph(f"At key 'status': {NOT_A_DICT}", "INVALID_CONCURRENT_GRAPH_UPDATE")
    assert trace_error(exc, STEPS, 2).code == "concurrent_update"


def test_only_a_nodes_own_exception_gets_a_config_hint_never_a_quoted_payload():
    quoting = _noted(
        _langgraph("Expected dict, got ['configurable']", NOT_A_DICT),
        START,
    )
    reads_config = _noted(KeyError("configurable"), "During task with name 'c'")
    hints = [trace_error(exc, STEPS, 2).hint for exc in (quoting, reads_config)]
    assert hints == [
        None,
        'The graph reads config["configurable"]; the playground passes only a thread_id. '
        "Give the keys defaults in your node, or wrap the graph in a factory that binds them.",
    ]
