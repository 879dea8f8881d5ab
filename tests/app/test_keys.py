"""Every session key and widget key is spelled in ui/keys.py: the app's code only names them.

The rule, read from the code with `ast` (ui/, views/ and app.py; ui/keys.py itself excepted):
where a key goes, no string is spelled. A key goes

- in a keyword argument `key=`, `slider=` or `<something>_key=` of any call (a widget, or a
  helper that hands it to one), and in the default of a parameter so named;
- in `st.session_state` (or a name bound to it): `[...]`, `.get(...)`, `.pop(...)`,
  `.setdefault(...)`, `... in`, and `st.session_state.<name>`;
- in a CSS selector on a widget's class, `st-key-<key>`, inside any string.

There a string literal, an f-string or `+` on strings is a key spelled outside the registry;
so is a name this module binds to one, a dict of them, or a helper here that returns one.
What comes from `keys` passes (`keys.TRACE_GRAPH`, `keys.part(key, "gate")`: the template is
the registry's, the part a name), except a spelled base key given to one of its templates
(`keys.part("trace", ...)`). A parameter passes: whoever calls with it is checked there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "ui" / "keys.py"
SOURCES = sorted(
    path
    for path in [ROOT / "app.py", *(ROOT / "views").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]
    if path != KEYS
)
_SESSION_METHODS = {"get", "pop", "setdefault"}
# What st.session_state has besides keys: reading one of these is no key.
_SESSION_API = {"get", "pop", "setdefault", "keys", "items", "values", "clear", "update", "to_dict"}
_CSS_KEY = re.compile(r"st-key-[A-Za-z0-9_-]+")


def _key_parameters() -> dict[str, set[int]]:
    """keys.py's templates -> the positions of their arguments that are keys themselves
    (`part(key, name)`: `key`; `option(name)`: none)."""
    tree = ast.parse(KEYS.read_text(encoding="utf-8"))
    return {
        node.name: {
            n for n, arg in enumerate(node.args.args) if arg.arg in {"key", "base", "job", "slider"}
        }
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }


TEMPLATES = _key_parameters()


def _is_key_keyword(name: str | None) -> bool:
    return name is not None and (name in {"key", "slider"} or name.endswith("_key"))


class _Module:
    """One source file: what each scope binds its names to, its functions, its session aliases."""

    def __init__(self, path: Path) -> None:
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.scope_of: dict[int, ast.AST] = {}  # a node -> the function (or module) it is in
        self.outer: dict[int, ast.AST] = {}  # a function -> the scope it is defined in
        self.params: dict[int, set[str]] = {}
        self.bound: dict[tuple[int, str], list[ast.expr]] = {}
        self.functions: dict[str, list[ast.FunctionDef]] = {}
        self.sessions = {"session_state"}  # `ss = st.session_state` makes `ss` one too
        self._visit(self.tree, self.tree)

    def _visit(self, node: ast.AST, scope: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            self.scope_of[id(child)] = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                arguments = child.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                self.params[id(child)] = {arg.arg for arg in every}
                self.outer[id(child)] = scope
                if isinstance(child, ast.FunctionDef):
                    self.functions.setdefault(child.name, []).append(child)
                self._visit(child, child)
                continue
            if isinstance(child, ast.Assign | ast.AnnAssign) and child.value is not None:
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for target, value in _pairs(targets, child.value):
                    self.bound.setdefault((id(scope), target.id), []).append(value)
                    if _is_session(value, self.sessions):
                        self.sessions.add(target.id)
            elif isinstance(child, ast.For) and isinstance(child.target, ast.Name):
                self.bound.setdefault((id(scope), child.target.id), []).append(child.iter)
            self._visit(child, scope)

    def _values(self, name: str, scope: ast.AST) -> list[ast.expr]:
        """What `name` is bound to where it is read: its own scope's bindings, else nothing if
        it is that function's parameter, else the enclosing scope's."""
        while True:
            if (id(scope), name) in self.bound:
                return self.bound[id(scope), name]
            if name in self.params.get(id(scope), set()) or scope is self.tree:
                return []
            scope = self.outer[id(scope)]

    def spelled(
        self, expr: ast.expr, scope: ast.AST, seen: frozenset[str] = frozenset()
    ) -> Iterator[str]:
        """Each key spelled in `expr` (or in what it names in this module), described."""
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            yield repr(expr.value)
        elif isinstance(expr, ast.JoinedStr):
            yield f"f-string {ast.unparse(expr)}"
        elif isinstance(expr, ast.BinOp):
            yield from self.spelled(expr.left, scope, seen)
            yield from self.spelled(expr.right, scope, seen)
        elif isinstance(expr, ast.IfExp):
            yield from self.spelled(expr.body, scope, seen)
            yield from self.spelled(expr.orelse, scope, seen)
        elif isinstance(expr, ast.Dict):
            for value in expr.values:
                yield from self.spelled(value, scope, seen)
        elif isinstance(expr, ast.Tuple | ast.List | ast.Set):
            for element in expr.elts:
                yield from self.spelled(element, scope, seen)
        elif isinstance(expr, ast.Subscript):
            yield from self.spelled(expr.value, scope, seen)
        elif isinstance(expr, ast.Name) and expr.id not in seen:
            for value in self._values(expr.id, scope):
                for found in self.spelled(value, self.scope_of[id(value)], seen | {expr.id}):
                    yield f"{expr.id} = {found}"
        elif isinstance(expr, ast.Call):
            yield from self._called(expr, scope, seen)

    def _called(self, call: ast.Call, scope: ast.AST, seen: frozenset[str]) -> Iterator[str]:
        func = call.func
        if isinstance(func, ast.Attribute) and _is_keys(func.value):
            for n in TEMPLATES.get(func.attr, set()):
                if n < len(call.args):
                    yield from self.spelled(call.args[n], scope, seen)
        elif isinstance(func, ast.Name) and func.id not in seen:
            for function in self.functions.get(func.id, []):
                for node in ast.walk(function):
                    if isinstance(node, ast.Return) and node.value is not None:
                        returned = self.spelled(node.value, function, seen | {func.id})
                        for found in returned:
                            yield f"{func.id}() returns {found}"

    def places(self) -> Iterator[tuple[int, ast.expr]]:
        """Every expression in a key's place, with its line (its scope: `scope_of`)."""
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                for keyword in node.keywords:
                    if _is_key_keyword(keyword.arg):
                        yield node.lineno, keyword.value
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and func.attr in _SESSION_METHODS
                    and _is_session(func.value, self.sessions)
                    and node.args
                ):
                    yield node.lineno, node.args[0]
            elif isinstance(node, ast.Subscript) and _is_session(node.value, self.sessions):
                yield node.lineno, node.slice
            elif isinstance(node, ast.Compare):
                for op, right in zip(node.ops, node.comparators, strict=True):
                    if isinstance(op, ast.In | ast.NotIn) and _is_session(right, self.sessions):
                        yield node.lineno, node.left
            elif (
                isinstance(node, ast.Attribute)
                and node.attr not in _SESSION_API
                and _is_session(node.value, self.sessions)
            ):
                attribute = ast.Constant(node.attr)
                self.scope_of[id(attribute)] = self.tree
                yield node.lineno, attribute
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args
                positional = [*arguments.posonlyargs, *arguments.args]
                pairs = [
                    *zip(
                        positional[len(positional) - len(arguments.defaults) :],
                        arguments.defaults,
                        strict=True,
                    ),
                    *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
                ]
                for arg, default in pairs:
                    if default is not None and _is_key_keyword(arg.arg):
                        yield node.lineno, default

    def css_keys(self) -> Iterator[tuple[int, str]]:
        """`st-key-<key>` spelled in a string (a docstring is prose, not a selector)."""
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(self.tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(self.tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                for match in _CSS_KEY.finditer(node.value):
                    yield node.lineno, match.group()


def _pairs(targets: list[ast.expr], value: ast.expr) -> Iterator[tuple[ast.Name, ast.expr]]:
    """Each name an assignment binds, with its value (`a, b = x, y` binds a to x, b to y)."""
    for target in targets:
        if isinstance(target, ast.Name):
            yield target, value
        elif (
            isinstance(target, ast.Tuple)
            and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)
        ):
            for element, given in zip(target.elts, value.elts, strict=True):
                yield from _pairs([element], given)


def _is_keys(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Name) and expr.id == "keys"


def _is_session(expr: ast.expr, sessions: set[str]) -> bool:
    if isinstance(expr, ast.Attribute):
        return expr.attr == "session_state"
    return isinstance(expr, ast.Name) and expr.id in sessions - {"session_state"}


def spelled_keys(path: Path, root: Path = ROOT) -> list[str]:
    """Every key `path` spells instead of naming it from ui/keys.py: `file:line: what`."""
    module = _Module(path)
    where = path.relative_to(root).as_posix()
    found = [
        f"{where}:{line}: {spelled}"
        for line, expr in module.places()
        for spelled in module.spelled(expr, module.scope_of[id(expr)])
    ]
    found += [f"{where}:{line}: CSS {selector}" for line, selector in module.css_keys()]
    return sorted(set(found), key=lambda text: (text.split(":")[0], int(text.split(":")[1]), text))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_spells_a_session_or_widget_key(path):
    assert spelled_keys(path) == []


def test_the_rule_finds_every_way_a_key_was_spelled(tmp_path):
    """The rule itself, on one file holding each kind of spelled key it must find and each
    kind of named key it must pass."""
    source = tmp_path / "page.py"
    source.write_text(
        "import streamlit as st\n"
        "from ui import keys\n"
        "ss = st.session_state\n"
        "TEXT = 'fork_text'\n"
        "NAMED = keys.TRACE_GRAPH\n"
        "def _replaced(key):\n"
        "    return f'{key}__replaced'\n"
        "def draw(key, provider, slider: str = 'step_slider'):\n"
        "    st.button('Run', key='run')\n"
        "    st.button('In', key='sign_in' if provider is None else f'sign_in_{provider}')\n"
        "    st.session_state['trace_result'] = 1\n"
        "    st.session_state.get(TEXT)\n"
        "    ss.pop(_replaced(key), None)\n"
        "    'probe_timing' in st.session_state\n"
        "    st.session_state.doc\n"
        "    st.dataframe([], key=keys.part('trace', 'gate'))\n"
        "    st.markdown('<style>.st-key-threads_upload {}</style>')\n"
        "    st.button('Ok', key=keys.TRACE_GRAPH)\n"
        "    st.dataframe([], key=keys.part(key, 'gate'), on_select=sorted)\n"
        "    st.session_state[NAMED] = st.session_state.get(keys.option('strict'))\n"
        "    st.session_state.setdefault(key, keys.TRACE_REQUESTS['fork'])\n"
        "    sorted([], key=lambda x: x)\n"
        "    name, tables = key, st.session_state\n"
        "    tables.setdefault('form-tables', {})\n"
        "def forget():\n"
        "    for key in ('trace_fork', keys.FORK_STEP_SLIDER):\n"
        "        st.session_state.pop(key, None)\n",
        encoding="utf-8",
    )
    assert spelled_keys(source, tmp_path) == [
        "page.py:8: 'step_slider'",
        "page.py:9: 'run'",
        "page.py:10: 'sign_in'",
        "page.py:10: f-string f'sign_in_{provider}'",
        "page.py:11: 'trace_result'",
        "page.py:12: TEXT = 'fork_text'",
        "page.py:13: _replaced() returns f-string f'{key}__replaced'",
        "page.py:14: 'probe_timing'",
        "page.py:15: 'doc'",
        "page.py:16: 'trace'",
        "page.py:17: CSS st-key-threads_upload",
        "page.py:24: 'form-tables'",
        "page.py:27: key = 'trace_fork'",
    ]


def test_no_two_names_in_the_registry_share_a_key():
    """One key, one name: the one alias is a table whose key is a stored value's, on purpose
    (the table keeps no state, so the two never meet)."""
    from ui import keys

    names: dict[str, list[str]] = {}
    for name in keys.__all__:
        value = getattr(keys, name)
        if isinstance(value, str):
            names.setdefault(value, []).append(name)
    assert {value: found for value, found in names.items() if len(found) > 1} == {
        "threads_migrate_written": ["THREADS_MIGRATE_WRITTEN", "THREADS_MIGRATE_WRITTEN_TABLE"]
    }


def test_the_validate_error_table_is_the_table_its_links_name():
    from core.links.validate import TABLES
    from ui import keys

    assert TABLES[0] == keys.ERRORS
