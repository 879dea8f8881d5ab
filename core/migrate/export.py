"""A plan exported as a self-contained Python module: `migrate(state)`, standard library only."""

from __future__ import annotations

import ast
import inspect
import textwrap

from core.migrate import rewrite as engine
from core.migrate.plan import Plan, Step, plan_toml
from core.migrate.source import WIDTH, python_source, string_pieces

__all__ = ["export_module"]

# The module's docstring; what fills {origin} and {model} is escaped, so it stays text.
_DOC = '''\
"""Migrate stored states to a new model: `migrate(state)` applies a migration plan.

{origin}

Use it where your own code reads stored state dicts (a script over a saver's checkpoints, a
data export), before validating them with the new model:

    from migrate_state import migrate  # this file, saved as migrate_state.py

    state = {model}.model_validate(migrate(stored_values))

It does not migrate threads as LangGraph reads them, even as the new model's
`model_validator(mode="before")`: LangGraph builds a graph's state only from the channels that
graph has, so a field the new model lacks (one renamed or dropped) never reaches the model.
Migrate stored threads with `python -m core migrate --apply`, or on read at the checkpointer
(`GuardedSaver(migrate=...)`). A model instance given, or one nested inside the state, is not
looked into: `model_dump()` it first if it needs migrating.

Each step is idempotent, so a state already migrated passes `migrate` unchanged: a default
fills a field only where it is missing, a drop removes only a field that is there, a map
replaces only the old value, a rename moves only a field still under its old name, a coerce
converts only what is not already of its type. A plan as a whole is not idempotent when a later
step takes away what an earlier one fills in (a default for `a`, then a rename of `a`): run
`migrate` twice on a migrated state to check.
"""
'''


def export_module(plan: Plan, *, model_name: str | None = None) -> str:
    """The source of a module defining `migrate(state: dict) -> dict`, which does to a state
    given as plain data what `apply_plan(plan, state).state` does. Values are written with
    `repr`, never run as code; the steps are the plan's, in order.

    Example:
        >>> from core.migrate.plan import Step
        >>> plan = Plan(steps=[Step(path="status", action="map", from_="shipped", to="done")])
        >>> source = export_module(plan, model_name="OrderV2")
        >>> print(source[source.index("def migrate"):source.index("# How each step")].strip())
        def migrate(state: dict[str, Any]) -> dict[str, Any]:
            \"\"\"The state after the plan's steps in order; the state given is not changed.\"\"\"
            state, _ = rewrite(state, "status", "map", from_="shipped", to="done")
            return state
        >>> namespace = {}
        >>> exec(compile(source, "migrate_state.py", "exec"), namespace)
        >>> namespace["migrate"]({"status": "shipped"})
        {'status': 'done'}
    """
    imports, code = _engine_parts()
    target = f"`{_text(model_name)}`" if model_name is not None else "the new model"
    origin = (
        f"Written by the State Validation Playground for {target} from the plan kept below as "
        "`PLAN` (TOML: the steps in order, what each does at which path). The module needs "
        "Python's standard library only. `migrate` takes the state as plain data (dicts, lists, "
        "JSON values) and returns it migrated, a copy where a step changed it; the state passed "
        "in is left as it was."
    )
    last = (model_name or "").replace(":", ".").rsplit(".", 1)[-1]
    doc = _DOC.format(
        origin=textwrap.fill(origin, WIDTH - 4, break_long_words=False, break_on_hyphens=False),
        model=last if last.isidentifier() else "NewModel",
    )
    toml = plan_toml(plan)
    plan_lines = [f"    {piece}" for piece in string_pieces(toml, WIDTH - 4)] if toml else []
    calls = [_call(step) for step in plan.steps]
    return "\n".join(
        [
            doc,
            "from __future__ import annotations",
            "",
            imports,
            "",
            '__all__ = ["PLAN", "migrate"]',
            "",
            "# The plan this module was written from, as TOML.",
            "PLAN = (\n" + "\n".join(plan_lines) + "\n)" if plan_lines else 'PLAN = ""',
            "",
            "",
            "def migrate(state: dict[str, Any]) -> dict[str, Any]:",
            '    """The state after the plan\'s steps in order; the state given is not changed."""',
            *calls,
            "    return state",
            "",
            "",
            "# How each step rewrites a state: core/migrate/rewrite.py of the State Validation",
            "# Playground, as it was when this module was written.",
            "",
            code,
        ]
    )


def _call(step: Step) -> str:
    """The line (or lines) of `migrate` that applies one step; a comment for a step left to
    answer (it changes nothing until answered, as in the preview)."""
    if not step.answered:
        return f"    # {step.action} {step.path}: its `{step.answer}` is still to answer (see PLAN)"
    table = step.as_toml()
    arguments = [("", table.pop("path")), ("", table.pop("action"))]
    arguments += [("from_=" if key == "from" else f"{key}=", value) for key, value in table.items()]
    flat = ", ".join(keyword + python_source(value) for keyword, value in arguments)
    line = f"    state, _ = rewrite(state, {flat})"
    if len(line) <= WIDTH and "\n" not in line:
        return line
    lines = [f"        {k}{python_source(v, 8, 8 + len(k))}," for k, v in arguments]
    return "\n".join(["    state, _ = rewrite(", "        state,", *lines, "    )"])


def _engine_parts() -> tuple[str, str]:
    """rewrite.py's imports (but `__future__`) and its code after them (no docstring, no
    `__all__`): the module carries it whole, so it migrates exactly as apply_plan does."""
    source = inspect.getsource(engine)
    lines = source.splitlines()
    imports: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            if not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
                imports.extend(lines[node.lineno - 1 : node.end_lineno])
        elif not _is_header(node):
            return "\n".join(imports), "\n".join(lines[node.lineno - 1 :]) + "\n"
    raise AssertionError("core/migrate/rewrite.py holds no code")  # pragma: no cover


def _is_header(node: ast.stmt) -> bool:
    """The module docstring or `__all__`."""
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    return isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
        "__all__"
    ]


def _text(name: str) -> str:
    """A name as docstring text: escaped so no quote, backslash or line break can end it."""
    return repr(name)[1:-1].replace('"', '\\"')
