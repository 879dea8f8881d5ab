"""The README's two set-up commands, as a user copies them: the app's, then the tests'.

Printed one a line (each is one line in the README), for .ci/run to run word for word.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SECTION = "## Set up on a fresh machine"


def commands(readme: str) -> list[str]:
    """The bash blocks of the set-up section, in order; exactly two, each one line.

    Example:
        >>> commands("## Set up on a fresh machine\\n```bash\\nrun app\\n```\\n"
        ...          "```bash\\nrun tests\\n```\\n## Next\\n```bash\\nother\\n```\\n")
        ['run app', 'run tests']
    """
    section = readme.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = [b.strip() for b in re.findall(r"```bash\n(.*?)```", section, re.DOTALL)]
    if len(blocks) != 2 or any("\n" in b for b in blocks):
        raise SystemExit(f"README: '{SECTION}' must hold two one-line bash blocks: {blocks}")
    return blocks


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    sys.stdout.write("\n".join(commands((root / "README.md").read_text(encoding="utf-8"))) + "\n")
