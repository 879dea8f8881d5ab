"""Import isolation, one fresh process per case: what a module or page must never pull in
(pages stay fast to open, and the labs' heavy dependencies load only where they are used)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "core.probes loads neither LangGraph nor Streamlit": (
        "import sys, core.probes; print('langgraph' in sys.modules, 'streamlit' in sys.modules)",
        ["False", "False"],
    ),
    "core.retry's LangGraph engine runs without importing PydanticAI": (
        "import sys, core.retry, core.retry.pydantic_ai_engine\n"
        "core.retry.run_script([{'text': 'x'}], engine='langgraph')\n"
        "print('pydantic_ai' in sys.modules)\n",
        ["False"],
    ),
    "the tool-parameter registry does not import PydanticAI": (
        "import sys, core.tools, core.tools.provider_schema, core.tools.roundtrip, "
        "core.tools.schema_lint; print('pydantic_ai' in sys.modules)",
        ["False"],
    ),
    "the Validate page and core.retry run without importing PydanticAI": (
        "import sys\n"
        "from streamlit.testing.v1 import AppTest\n"
        "import core.retry\n"
        f"at = AppTest.from_file({str(ROOT / 'views' / 'validate.py')!r}, default_timeout=60)\n"
        "at.run()\n"
        "print(bool(at.exception), 'pydantic_ai' in sys.modules)\n",
        ["False", "False"],
    ),
}


@pytest.mark.parametrize(("code", "printed"), CASES.values(), ids=list(CASES))
def test_a_fresh_process_imports_only_what_it_needs(code: str, printed: list[str]):
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )

    assert done.stdout.split() == printed
