"""Read core's modules for the export: each top-level statement, the names it binds and uses,
and every import, so only what the guard reaches is kept."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ROOT", "Ext", "Parsed", "Unit", "parse_module"]

ROOT = Path(__file__).resolve().parents[2]  # the directory holding the core package

# ("from", module, name) for `from module import name`; ("import", dotted, "") for `import x.y`
Ext = tuple[str, str, str]


@dataclass
class Unit:
    """One top-level statement of a module: its source text, what it binds and what it uses
    (names in function signatures' annotations apart: `annotation_uses`)."""

    index: int
    text: str
    first_line: int
    binds: set[str]
    uses: set[str]
    annotation_uses: set[str]
    # imports of core inside a function: (first, last line within `text`, 0-based)
    lazy_imports: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Parsed:
    """A module read for the export."""

    name: str
    units: list[Unit] = field(default_factory=list)
    core_imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # local -> (mod, name)
    ext_imports: dict[str, Ext] = field(default_factory=dict)  # local -> what it imports

    def binders(self, name: str) -> list[Unit]:
        return [unit for unit in self.units if name in unit.binds]


class _Uses(ast.NodeVisitor):
    """The names a statement reads when it runs; a signature's annotations kept apart (with
    `from __future__ import annotations` they are never evaluated)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.annotations: set[str] = set()
        self.lazy_core: list[ast.ImportFrom] = []

    def visit_Name(self, node: ast.Name) -> None:
        self.names.add(node.id)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and (node.module or "").split(".")[0] == "core":
            self.lazy_core.append(node)

    def _annotation(self, node: ast.expr | None) -> None:
        if node is not None:
            for name in ast.walk(node):
                if isinstance(name, ast.Name):
                    self.annotations.add(name.id)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        args = node.args
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            self._annotation(arg.annotation if arg is not None else None)
        self._annotation(node.returns)
        for child in (*node.decorator_list, *args.defaults, *args.kw_defaults, *node.body):
            if child is not None:
                self.visit(child)

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function


def _binds(statement: ast.stmt) -> set[str]:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
        targets = [statement.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _is_type_checking(statement: ast.stmt) -> bool:
    test = statement.test if isinstance(statement, ast.If) else None
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def parse_module(name: str) -> Parsed:
    """`core.x.y` read from its file (a package's `__init__.py` for a package).

    Example:
        >>> parsed = parse_module("core.guard.refusal")
        >>> parsed.core_imports["CodedError"], sorted(u for u in parsed.units[-1].binds)
        (('core.errors', 'CodedError'), ['_refused'])
    """
    path = ROOT / Path(*name.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    parsed = Parsed(name)
    for index, statement in enumerate(ast.parse(source).body):
        if isinstance(statement, ast.ImportFrom) and statement.level == 0:
            module = statement.module or ""
            for alias in statement.names:
                local = alias.asname or alias.name
                if module.split(".")[0] == "core":
                    parsed.core_imports[local] = (module, alias.name)
                elif module != "__future__":
                    parsed.ext_imports[local] = ("from", module, alias.name)
            continue
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    module, _, attribute = alias.name.rpartition(".")
                    parsed.ext_imports[alias.asname] = ("from", module, attribute)
                else:
                    parsed.ext_imports[alias.name.split(".")[0]] = ("import", alias.name, "")
            continue
        docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        if _is_type_checking(statement):  # a package's lazy names (PEP 562) are named here
            for node in ast.walk(statement):
                if isinstance(node, ast.ImportFrom) and node.module and node.module[:5] == "core.":
                    for alias in node.names:
                        home = (node.module, alias.name)
                        parsed.core_imports.setdefault(alias.asname or alias.name, home)
            continue
        if docstring or "__all__" in _binds(statement):
            continue
        uses = _Uses()
        uses.visit(statement)
        first = min([statement.lineno, *(d.lineno for d in _decorators(statement))])
        text = "\n".join(lines[first - 1 : statement.end_lineno])
        unit = Unit(index, text, first, _binds(statement), uses.names, uses.annotations)
        for node in uses.lazy_core:  # resolved as the module's own imports: defined above
            for alias in node.names:
                local = alias.asname or alias.name
                parsed.core_imports.setdefault(local, (node.module or "", alias.name))
            end = node.end_lineno or node.lineno
            unit.lazy_imports.append((node.lineno - first, end - first))
        parsed.units.append(unit)
    return parsed


def _decorators(statement: ast.stmt) -> list[ast.expr]:
    return list(getattr(statement, "decorator_list", []))
