"""core.errors: one registry of error codes; every code core gives is in it and in the README."""

import ast
import re
from pathlib import Path

import pytest

from core.errors import CodedError, ErrorCode

ROOT = Path(__file__).parents[2]
# Bracketed words in core's strings that are not error codes: a retrieved chunk's source tag
# and a probe check's mark.
NOT_CODES = {"pg", "matches", "differs", "unclear"}
_BRACKETED = re.compile(r"^\[([a-z][a-z_.]*)\]")


def _codes_written_in_core() -> set[str]:
    """Every code core (and ui, views: the link warning) writes: `[code] ...` message starts, `code = "..."`, `code="..."`,
    and the first argument of a call to a class named *Error."""
    found: set[str] = set()
    for path in [p for part in ("core", "ui", "views") for p in (ROOT / part).rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                match = _BRACKETED.match(node.value)
                if match and match.group(1) not in NOT_CODES:
                    found.add(match.group(1))
            literal = None
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(getattr(t, "id", None) == "code" for t in targets):
                    literal = node.value
            elif isinstance(node, ast.keyword) and node.arg == "code":
                literal = node.value
            elif isinstance(node, ast.Call) and node.args:
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                # PydanticCustomError's first argument is a validation error type the
                # labs' demo models raise (color_format), not one of our codes.
                if name.endswith("Error") and name != "PydanticCustomError":
                    literal = node.args[0]
            if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                if re.fullmatch(r"[a-z][a-z_.]*", literal.value):
                    found.add(literal.value)
            elif isinstance(literal, ast.IfExp):
                found |= {
                    part.value
                    for part in (literal.body, literal.orelse)
                    if isinstance(part, ast.Constant) and isinstance(part.value, str)
                }
    return found


def _readme_codes() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Error codes\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z_.]+)` \|", section, flags=re.M)


def test_every_code_the_app_writes_is_registered():
    assert sorted(_codes_written_in_core() - set(ErrorCode)) == []


def test_every_registered_code_is_written_somewhere_in_the_app():
    # The retry lab's surrogate and number codes are built as f"retry_script_{kind}".
    built = {"retry_script_surrogate", "retry_script_number", "retry_script_shape"}
    source = "\n".join(  # core's errors, and the pages' messages built from ErrorCode
        p.read_text(encoding="utf-8")
        for part in ("core", "ui", "views")
        for p in (ROOT / part).rglob("*.py")
        if p != ROOT / "core" / "errors.py"  # the registry itself uses every code
    )
    names = set(re.findall(r"(?:ErrorCode|StoreCode|UnbrickCode)\.([A-Z_]+)", source))
    used = (
        _codes_written_in_core()
        | built
        | {ErrorCode[n] for n in names if n in ErrorCode.__members__}
    )
    used |= {code for code in ErrorCode if f'"{code}"' in source}
    from core.stores.errors import StoreCode
    from core.stores.unbrick import UnbrickCode

    used |= {str(c) for c in StoreCode} | {str(c) for c in UnbrickCode}
    assert sorted(set(ErrorCode) - used) == []


def test_every_code_is_documented_once_in_the_readme_in_registry_order():
    assert _readme_codes() == [str(code) for code in ErrorCode]


def test_member_names_are_the_codes_upper_cased():
    assert {code.name: str(code) for code in ErrorCode} == {
        str(code).upper().replace(".", "_"): str(code) for code in ErrorCode
    }


def test_a_coded_error_refuses_an_unregistered_code_and_reads_code_then_message():
    assert (str(CodedError("too_deep", "Flatten it.")), CodedError("empty", "x").code) == (
        "[too_deep] Flatten it.",
        ErrorCode.EMPTY,
    )
    with pytest.raises(ValueError, match="not a valid ErrorCode"):
        CodedError("made_up", "x")
