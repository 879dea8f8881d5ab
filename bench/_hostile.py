"""The hostile visitor of bench/load.py: a real SQLite checkpoint store holding a decode bomb,
uploaded, opened and audited every few seconds."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
import time
from collections import Counter
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._visitors import (
    OPEN_TIMEOUT_MS,
    VIEWPORT,
    broken,
    closed,
    open_page,
    runs,
    said,
    settled,
)
from bench.audit import build_store
from tests.e2e._browser import RUN_COUNTER_SCRIPT

__all__ = ["BOMB_MAPS", "HostileTally", "decode_bomb", "hostile_session", "write_bomb_stores"]

BOMB_MAPS = 8_000_000  # one byte each on disk (8 MB), a Python dict each once decoded
BOMB_THREADS = 10
PAUSE_S = 3.0  # between the end of one upload-and-audit and the next upload
TIMEOUT_MS = 180_000  # per upload or audit: a server decoding bombs may take long
MAX_CYCLES = 200  # bounded even if the light sessions never finish
_UPLOAD_INPUT = ".st-key-threads_upload input[type='file']"
# Settled: the upload's label is shown with its thread list, or the page said it cannot read
# it; the audit ended, however it ended.
READ = """(name) => {
  const text = document.querySelector("[data-testid='stMain']")?.textContent ?? "";
  return text.includes(`uploaded file ${name}`)
    && (text.includes("threads shown of") || text.includes("This store cannot be read"));
}"""
AUDIT_ENDED = """() => {
  const text = document.querySelector("[data-testid='stMain']")?.textContent ?? "";
  return (text.includes("threads checked") && !text.includes("threads checked so far"))
    || text.includes("The store cannot be read") || text.includes("Audit cancelled");
}"""
CODES_SHOWN = """() => [...document.querySelectorAll("[data-testid='stCode']")]
  .map((code) => code.textContent).join("\\n")"""
_CODE = re.compile(r"\[(row_[a-z_]+)\]")


def decode_bomb(maps: int) -> bytes:
    """A msgpack array32 of `maps` empty maps: `0xdd`, the count big-endian, `0x80` each.

    Example:
        >>> decode_bomb(3).hex()
        'dd00000003808080'
    """
    return b"\xdd" + maps.to_bytes(4, "big") + b"\x80" * maps


def write_bomb_stores(directory: Path, maps: int = BOMB_MAPS) -> tuple[Path, Path]:
    """A real store of BOMB_THREADS threads (bench/audit.py's build: seed-graph runs through
    LangGraph's SqliteSaver) whose first thread's latest checkpoint, the one the page lists
    and opens first, holds the bomb instead; two copies under two names, uploaded in turn so
    each upload is a new file to the page."""
    first = directory / "bomb-1.sqlite"
    build_store("sqlite", str(first), BOMB_THREADS, BOMB_THREADS * 6)
    with closing(sqlite3.connect(first)) as conn, conn:
        conn.execute(
            "UPDATE checkpoints SET checkpoint = ? WHERE rowid = (SELECT rowid FROM checkpoints "
            "WHERE thread_id = (SELECT min(thread_id) FROM checkpoints) AND checkpoint_ns = '' "
            "ORDER BY checkpoint_id DESC LIMIT 1)",
            (decode_bomb(maps),),
        )
    second = directory / "bomb-2.sqlite"
    shutil.copyfile(first, second)
    return first, second


@dataclass
class HostileTally:
    """What the hostile session did and saw (its own times: not part of the light figures)."""

    reads: list[float] = field(default_factory=list)  # upload -> the page settled on it
    audits: list[float] = field(default_factory=list)  # Run audit -> the audit ended
    codes: Counter[str] = field(default_factory=Counter)  # row codes shown, once per cycle
    failures: list[str] = field(default_factory=list)


async def _cycle(page: Any, path: Path, tally: HostileTally) -> None:
    before, start = await runs(page), time.perf_counter()
    await page.locator(_UPLOAD_INPUT).set_input_files(path, timeout=TIMEOUT_MS)
    await settled(page, READ, path.name, TIMEOUT_MS, before)
    tally.reads.append(time.perf_counter() - start)
    tally.codes.update(set(_CODE.findall(await page.evaluate(CODES_SHOWN))))
    audit = page.locator(".st-key-threads_audit_run").get_by_role("button")
    if not await audit.count():  # the page could not read the store: no audit to run
        tally.codes["store unreadable"] += 1
        return
    before, start = await runs(page), time.perf_counter()
    await audit.click(timeout=TIMEOUT_MS)
    await settled(page, AUDIT_ENDED, None, TIMEOUT_MS, before)
    tally.audits.append(time.perf_counter() - start)
    if await broken(page):
        tally.failures.append(f"{path.name}: exception or traceback")


async def hostile_session(
    browser: Any,
    url: str,
    bombs: tuple[Path, Path],
    tally: HostileTally,
    ready: asyncio.Barrier,
    door: asyncio.Semaphore,
    stop: asyncio.Event,
) -> None:
    """Open the Threads page's uploader; once everyone is ready, upload a bomb, wait for the
    page, run its audit, wait PAUSE_S, again, until `stop` is set (or MAX_CYCLES)."""
    context = await browser.new_context(viewport=VIEWPORT)
    opened = False
    try:
        await context.add_init_script(RUN_COUNTER_SCRIPT)
        page = await context.new_page()
        async with door:
            await asyncio.wait_for(open_page(page, url, "upload"), OPEN_TIMEOUT_MS / 1000)
        opened = True
        await ready.wait()
        for n in range(MAX_CYCLES):
            if stop.is_set():
                break
            try:
                await _cycle(page, bombs[n % 2], tally)
            except Exception as exc:  # noqa: BLE001 -- counted; the visitor keeps coming
                tally.failures.append(f"cycle {n}: {said(exc)}")
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PAUSE_S)
    except Exception as exc:  # noqa: BLE001 -- it never opened: the light run goes on alone
        tally.failures.append(f"open: {said(exc)}")
        if not opened:
            await ready.wait()
    finally:
        await closed(context)
