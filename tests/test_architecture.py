"""The map is true: docs/architecture.md names what exists, the import contracts cover the
whole app, and tests reach LangGraph's private parts only through core.lg_compat.

Read from the files (`ast`, `tomllib`), nothing imported: the map is checked as it is written.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "architecture.md"
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"
]["contracts"]
PAGE_PACKAGES = ("ui.validate", "ui.trace", "ui.threads", "ui.labs")
_FILE = re.compile(r"\.(toml|py|md|json|csv|sqlite)")  # `playground.toml`: a file, not a name

# Tests that import a private part of LangGraph directly today, each with what it takes. Their
# files are not this change's to edit: each should take it from core.lg_compat (with a check
# in tests/core/test_lg_compat.py), then leave this list, which the test below keeps exact.
NOT_YET_THROUGH_LG_COMPAT: list[str] = []


# --- the map ---------------------------------------------------------------------------------
def _prose(text: str) -> str:
    """The map without its fenced blocks (the layer sketch is a drawing, not a list of names)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def _quoted(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", _prose(text))


def _module_file(dotted: str) -> Path | None:
    """The file of a module or package named `core.x.y`, None when there is none."""
    path = ROOT.joinpath(*dotted.split("."))
    for found in (path.with_suffix(".py"), path / "__init__.py"):
        if found.is_file():
            return found
    return None


def _top_names(file: Path) -> set[str]:
    """What a module defines at its top level (a map may name any of these), and what a
    package's `__init__` imports: its public names (a plain module's imports are not its)."""
    names = set()
    for node in ast.parse(file.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom | ast.Import) and file.name == "__init__.py":
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def missing_dotted(name: str) -> str | None:
    """Why `core.x.y.name` names nothing (None when it does): the longest prefix must be a
    module, and what follows it one of that module's own top-level names."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        file = _module_file(".".join(parts[:cut]))
        if file is None:
            continue
        rest = parts[cut:]
        if rest and rest[0] not in _top_names(file):
            return f"{'.'.join(parts[:cut])} has no {rest[0]}"
        return None
    return "no such module"


def _package_names(package: str) -> set[str]:
    """The modules of a package and every top-level name any of them defines."""
    folder = ROOT.joinpath(*package.split("."))
    files = sorted(folder.glob("*.py"))
    return (
        {f.stem for f in files}
        | {p.name for p in folder.iterdir() if p.is_dir()}
        | {name for file in files for name in _top_names(file)}
    )


def map_mistakes(text: str) -> list[str]:
    """Every name or path the map gives that the code does not have."""
    found = []
    for quoted in _quoted(text):
        if re.fullmatch(r"(core|ui|views)(\.[A-Za-z_][A-Za-z0-9_]*)+", quoted):
            why = missing_dotted(quoted)
            if why is not None:
                found.append(f"{quoted}: {why}")
        elif re.fullmatch(r"(app\.py|pyproject\.toml|README\.md|[a-z.]+/[\w./-]*)", quoted):
            path = quoted.split("<", 1)[0]
            if "<" not in quoted and not (ROOT / path).exists():
                found.append(f"{quoted}: no such file or folder")
    # A package's row names its modules (or what they define) without the package's prefix.
    for row in re.findall(r"^\| `(core\.\w+)` \| (.+) \|$", _prose(text), flags=re.M):
        package, job = row
        known = _package_names(package)
        for quoted, rest in re.findall(r"`([a-z_][a-z0-9_]*)((?:\.\w+)*)`", job):
            if quoted not in known and not _FILE.fullmatch(rest):
                found.append(f"{package} row: {quoted}: no such module or name in {package}")
    return found


def unmapped(text: str) -> list[str]:
    """Every package under core/ and ui/, and every module at the top of either, the map
    does not name (dotted, or as its path)."""
    quoted = set(_quoted(text))
    absent = []
    for top in ("core", "ui"):
        children = [p for p in (ROOT / top).iterdir() if p.name != "__pycache__"]
        packages = [p for p in (ROOT / top).rglob("*") if (p / "__init__.py").is_file()]
        modules = [p for p in children if p.suffix == ".py" and p.name != "__init__.py"]
        for path in sorted({*packages, *modules}):
            relative = path.relative_to(ROOT)
            dotted = ".".join(relative.with_suffix("").parts)
            spelled = {dotted, f"{relative.as_posix()}/" if path.is_dir() else relative.as_posix()}
            if not spelled & quoted:
                absent.append(dotted)
    return absent


def test_every_module_and_path_the_map_names_exists():
    assert map_mistakes(MAP.read_text(encoding="utf-8")) == []


def test_every_package_and_top_module_of_core_and_ui_has_its_line_in_the_map():
    assert unmapped(MAP.read_text(encoding="utf-8")) == []


def test_the_map_check_finds_what_an_old_map_named(tmp_path):
    """The two checks on a map as it read before the ui and core moves (#40)."""
    old = (
        "| `core.stores` | one thread's timeline (`timeline`), the `blame_all` walk |\n"
        "- `core.payload`, `core.report`: stable public paths.\n"
        "- `core.validate.report.validate_text` and `ui/trace/verdict.py`; "
        "`ui.trace.stepping.step_controls`.\n"
    )
    assert map_mistakes(old) == [
        "core.payload: core has no payload",
        "core.report: core has no report",
        "ui/trace/verdict.py: no such file or folder",
        "ui.trace.stepping.step_controls: ui.trace.stepping has no step_controls",
        "core.stores row: blame_all: no such module or name in core.stores",
    ]
    assert {"core.lg_compat", "ui.threads.migrate", "ui.stepper"} <= set(unmapped(old))


# --- the contracts ---------------------------------------------------------------------------
def _layered(container: str) -> dict[str, object]:
    (contract,) = [c for c in CONTRACTS if c.get("containers") == [container]]
    return contract


def _layer_names(contract: dict[str, object]) -> set[str]:
    layers = contract["layers"]
    assert isinstance(layers, list)
    return {name.strip() for layer in layers for name in re.split(r"[|:]", layer)}


def _children(package: str) -> set[str]:
    folder = ROOT / package
    modules = {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"}
    return modules | {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}


def test_no_layer_of_any_contract_is_optional():
    """An optional layer, `(stores)`, is skipped when missing: a renamed package would
    silently leave the check."""
    layers = [layer for c in CONTRACTS if c["type"] == "layers" for layer in c["layers"]]
    assert [layer for layer in layers if "(" in layer] == []


def test_the_core_and_ui_contracts_place_every_package_and_module_at_their_top():
    for container in ("core", "ui"):
        contract = _layered(container)
        assert contract.get("exhaustive") is True, container
        assert _layer_names(contract) == _children(container), container


def test_each_page_package_is_its_own_pages_and_no_other_packages():
    assert _layered("ui")["layers"][0] == " | ".join(p.split(".")[1] for p in PAGE_PACKAGES)
    protected = {
        module: contract["allowed_importers"]
        for contract in CONTRACTS
        if contract["type"] == "protected"
        for module in contract["protected_modules"]
    }
    assert protected == {
        "ui.validate": ["views.validate"],
        "ui.trace": ["views.trace"],
        "ui.threads": ["views.threads"],
        "ui.labs": ["views.behaviour", "views.tools", "views.retry"],
    }


def _imported(file: Path) -> Iterator[tuple[int, str, list[str]]]:
    """Each import in `file`: its line, the module, the names taken from it."""
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module, [alias.name for alias in node.names]


def test_app_py_imports_only_ui_streamlit_and_the_standard_library():
    """import-linter builds its graph from packages only (grimp refuses a single file at the
    root: NotATopLevelModule), so app.py's one rule is read here: the shell over ui."""
    tops = {module.split(".")[0] for _, module, _ in _imported(ROOT / "app.py")}
    assert tops - set(sys.stdlib_module_names) - {"__future__"} == {"ui", "streamlit"}


# --- LangGraph's private parts ---------------------------------------------------------------
def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_langgraph_imports(file: Path, root: Path = ROOT) -> list[str]:
    """Each private module or name of LangGraph `file` imports: `path:line: what`."""
    where = file.relative_to(root).as_posix()
    found = []
    for line, module, names in _imported(file):
        if module.split(".")[0] != "langgraph":
            continue
        if any(_private(part) for part in module.split(".")):
            found.append(f"{where}:{line}: {module}")
        found += [f"{where}:{line}: {module}.{name}" for name in names if _private(name)]
    return found


def test_tests_reach_langgraphs_private_parts_only_through_lg_compat():
    """tests/core/test_lg_compat.py checks core.lg_compat against LangGraph's internals: it
    alone names them. Any other test takes them from core.lg_compat."""
    found = [
        hit
        for file in sorted((ROOT / "tests").rglob("*.py"))
        if file != ROOT / "tests" / "core" / "test_lg_compat.py"
        for hit in private_langgraph_imports(file)
    ]
    assert found == NOT_YET_THROUGH_LG_COMPAT


def test_the_private_import_check_finds_each_form(tmp_path):
    test = tmp_path / "test_x.py"
    test.write_text(
        "import langgraph._internal._serde\n"
        "from langgraph.pregel._algo import task_path_str\n"
        "from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer, _msgpack_enc\n"
        "from langgraph.graph import StateGraph\n"
        "from langgraph_api.graph import _graph_from_spec\n"
        "from core.lg_compat import build_serde_allowlist\n",
        encoding="utf-8",
    )
    assert private_langgraph_imports(test, tmp_path) == [
        "test_x.py:1: langgraph._internal._serde",
        "test_x.py:2: langgraph.pregel._algo",
        "test_x.py:3: langgraph.checkpoint.serde.jsonplus._msgpack_enc",
    ]
