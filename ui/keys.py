"""Session-state keys, defined once: the fixed ones as names, the rest built by the functions
below (`{key}__table`, `opt_{name}`, `form_<path>`...); no other module spells a key template.

A widget's key is also its AppTest handle (`at.selectbox(key="scenario")`) and its
Playwright class (`.st-key-scenario`), so these values never change silently. The JSON
texts (PAYLOAD, TOOL_PAYLOAD, RETRY_SCRIPT) are plain values; their code editor's widget is
`keys.editor(key)` (`.st-key-payload_editor`; tests/app/_editor.py in AppTest).
"""

from __future__ import annotations

import re

__all__ = [
    "PAYLOAD",
    "PAYLOAD_TEXT",
    "PRESET_LOADED",
    "RETRY_CONFIDENCE_MAX",
    "RETRY_CONFIDENCE_MIN",
    "RETRY_MIN_CITATIONS",
    "RETRY_PRESET",
    "RETRY_RETRIES",
    "RETRY_SCRIPT",
    "RETRY_SUBMITTED",
    "SCENARIO",
    "SCHEMA_MODEL",
    "SCHEMA_OPTIONS",
    "SCHEMA_OPTIONS_MENU",
    "SCHEMA_TAB",
    "FORK_STEP_SLIDER",
    "LINK_ERROR",
    "FIRST_PAINT",
    "EDITOR_WIDE",
    "STEP_SLIDER",
    "TOOL_PAYLOAD",
    "TOOL_PRESET",
    "TRACE_FAULTS",
    "TRACE_GRAPH",
    "TRACE_MODE",
    "TRACE_REQUESTS",
    "TRACE_RUN_ANYWAY_REQUEST",
    "TRACE_LINK_WAITING",
    "THREADS_CONTAINS",
    "THREADS_CURRENT",
    "THREADS_CURSORS",
    "THREADS_MIGRATE_BASE",
    "THREADS_MIGRATE_JOB",
    "THREADS_MIGRATE_STEPS",
    "THREADS_MIGRATE_WRITTEN",
    "THREADS_OPEN_AT",
    "THREADS_PAGE",
    "THREADS_PAGE_JUMP",
    "THREADS_PAGE_SIZE",
    "THREADS_SOURCE",
    "THREADS_STATUS",
    "THREADS_STEP",
    "THREADS_STEP_OF",
    "THREADS_THREAD",
    "THREADS_AUDIT_INVALID",
    "THREADS_MIGRATE_BROKEN",
    "THREADS_MIGRATE_CHANGES",
    "THREADS_MIGRATE_STEP_COUNTS",
    "THREADS_MIGRATE_WRITTEN_TABLE",
    "THREADS_TABLE",
    "THREADS_TIMELINE",
    "THREADS_WRITES",
    "THREADS_READ",
    "THREADS_READ_CANCELLED",
    "THREADS_AUDIT",
    "THREADS_MIGRATE_PREVIEW",
    "each",
    "editor",
    "editor_sync",
    "field_key",
    "generation",
    "option",
    "part",
    "share",
    "step_button",
    "step_table",
    "table",
    "wait_cancel",
]

# The order payload: the Validate editor's text (set_payload_text writes it), and the text
# every page shares (PAYLOAD_TEXT). Neither is a widget key: both survive page switches.
PAYLOAD = "payload"
PAYLOAD_TEXT = "payload_text"
# The label and the text of the last preset loaded into the shared payload: the label is said
# under the preset pickers (ui.project.preset_picker, on Validate and Trace) while the payload
# is still that text.
PRESET_LOADED = "preset_loaded"
# Schema options a share link carries, applied by the options form on its next render.
SCHEMA_OPTIONS = "schema_options"
# The Validate page's "Schema options" popover: True while it is open (its widgets are sent).
SCHEMA_OPTIONS_MENU = "schema_options__menu"
# The error row a Validate link selects, (table key, row): applied to that table right before
# it is drawn in the run the link opened, then dropped (views/validate.py).
LINK_ERROR = "link_error"
# Set by app.py for the run in which the Validate page paints its editor first, on a cold
# server, before the sidebar (ui/validate/first_paint.py); the page drops it.
FIRST_PAINT = "first_paint"
# Whether Validate's editor had the wide column (nothing listed beside it) when the text was
# last JSON: kept while a half-typed text is not (ui/validate/result_room.py).
EDITOR_WIDE = "validate_editor_wide"

# Trace: its settings' widgets, the selected row, and what a link asks of its fresh run.
TRACE_GRAPH = "trace_graph"
TRACE_MODE = "trace_mode"
TRACE_FAULTS = "trace_faults"
STEP_SLIDER = "step_slider"
# The forked branch's own stepper (ui/trace/fork.py sets it to the branch's first failure).
FORK_STEP_SLIDER = "fork_step_slider"
TRACE_RUN_ANYWAY_REQUEST = "trace_run_anyway_request"
# A share link's selected row, held until the visitor presses Run (a public server never
# runs a graph from a link by itself).
TRACE_LINK_WAITING = "trace_link_waiting"
TRACE_REQUESTS = {"fork": "trace_fork_request", "edit": "trace_edit_request"}

# Retry lab: the preset picker, the script editor, the run shown.
RETRY_PRESET = "retry_preset"
RETRY_SCRIPT = "retry_script"
RETRY_SUBMITTED = "retry_submitted"
# Its budget and constraint widgets, set by presets and links (ui.labs.retry_state).
RETRY_RETRIES = "retries"
RETRY_MIN_CITATIONS = "retry_min_citations"
RETRY_CONFIDENCE_MIN = "retry_confidence_min"
RETRY_CONFIDENCE_MAX = "retry_confidence_max"

# Tools lab: the scenario and preset pickers, its own editor, the schema shown.
SCENARIO = "scenario"
TOOL_PRESET = "tool_preset"
TOOL_PAYLOAD = "tool_payload"  # the order page's payload_text is untouched
SCHEMA_MODEL = "schema_model"
SCHEMA_TAB = "schema_tab"

# Threads: the store picker, the model the states are checked against, the list's filters and
# its pages (each page's first-thread cursor), the thread picked, the checkpoint shown and the
# thread it belongs to. A share link sets them all (ui/threads/share.py).
THREADS_SOURCE = "threads_source"
THREADS_CURRENT = "threads_current"
THREADS_CONTAINS = "threads_contains"
THREADS_STATUS = "threads_status"
THREADS_PAGE_SIZE = "threads_page_size"
THREADS_CURSORS = "threads_cursors"
# The page-number picker (it follows the cursors: set before it is drawn) and the page it was
# set to by the user, until the next run pages there.
THREADS_PAGE = "threads_page"
THREADS_PAGE_JUMP = "threads_page_jump"
THREADS_THREAD = "threads_thread"
THREADS_STEP = "threads_step"
THREADS_STEP_OF = "threads_step_of"
# A checkpoint_id the timeline opens on in its next run, then dropped: an unbrick write's new
# head (ui/threads/unbrick.py), so the stepper and panels show what was just written.
THREADS_OPEN_AT = "threads_open_at"

# Migrate (ui/threads/migrate/): the rows the plan table starts from (the proposal's or an
# upload's, with the generation that suffixes the table's key, STEPS, after each new start),
# the running preview of a large store, and what the last Apply wrote.
THREADS_MIGRATE_BASE = "threads_migrate_base"
THREADS_MIGRATE_STEPS = "threads_migrate_steps"
THREADS_MIGRATE_JOB = "threads_migrate_job"
THREADS_MIGRATE_WRITTEN = "threads_migrate_written"

# The server's heavy jobs on the Threads page (ui/heavy.py queues each for a slot): reading an
# uploaded store, the audit, the migration preview. READ_CANCELLED: the read's wait was
# cancelled (the page says so until the visitor starts it again).
THREADS_READ = "threads_read"
THREADS_READ_CANCELLED = "threads_read_cancelled"
THREADS_AUDIT = "threads_audit"
THREADS_MIGRATE_PREVIEW = "threads_migrate_preview"

# The Threads tables (ui/threads/columns.py lays each out by this key; `.st-key-<key>`).
THREADS_TABLE = "threads_table"
THREADS_TIMELINE = "threads_timeline"
THREADS_WRITES = "threads_writes"
THREADS_AUDIT_INVALID = "threads_audit_invalid"
THREADS_MIGRATE_STEP_COUNTS = "threads_migrate_step_counts"
THREADS_MIGRATE_BROKEN = "threads_migrate_broken"
THREADS_MIGRATE_CHANGES = "threads_migrate_changes"
# The same text as THREADS_MIGRATE_WRITTEN: the table selects nothing, so Streamlit keeps no
# state under its key and the two never meet.
THREADS_MIGRATE_WRITTEN_TABLE = THREADS_MIGRATE_WRITTEN


def part(key: str, name: str) -> str:
    """The key of a widget or value that belongs to the one under `key`: `{key}__{name}`.

    Example:
        >>> part("payload", "format"), part("errors", "details")
        ('payload__format', 'errors__details')
    """
    return f"{key}__{name}"


def each(base: str, name: str) -> str:
    """One of a kind of widget drawn once per `name` (an engine, a provider): `{base}_{name}`.

    Example:
        >>> each("rewrites", "openai"), each("threads_state", "refused")
        ('rewrites_openai', 'threads_state_refused')
    """
    return f"{base}_{name}"


def editor(key: str) -> str:
    """The code editor's own widget for the text kept under `key` (`.st-key-<this>`).

    Example:
        >>> editor("payload")
        'payload_editor'
    """
    return each(key, "editor")


def editor_sync(key: str) -> str:
    """What ui.editor.json_editor keeps between runs about the editor under `key`."""
    return f"_json_editor_sync:{key}"


def wait_cancel(job: str) -> str:
    """The Cancel button beside a heavy job's place in the server's queue (ui/heavy.py).

    Example:
        >>> wait_cancel("threads_audit")
        'threads_audit_wait_cancel'
    """
    return each(job, "wait_cancel")


def generation(key: str, count: int) -> str:
    """A widget drawn afresh each time its rows start over: `key`, then `key-1`, `key-2`...

    Example:
        >>> generation("form_items", 0), generation("form_items", 2)
        ('form_items', 'form_items-2')
    """
    return f"{key}-{count}" if count else key


# Each stepper's buttons, by its slider's key (ui/stepper.py): the trace's own are `prev` and
# `next`, older than the other steppers.
_STEP_BUTTONS = {STEP_SLIDER: "", FORK_STEP_SLIDER: "fork_", THREADS_STEP: "threads_step_"}


def step_button(slider: str, which: str) -> str:
    """The `prev` or `next` button of the stepper whose slider is `slider`.

    Example:
        >>> step_button(STEP_SLIDER, "prev"), step_button(FORK_STEP_SLIDER, "next")
        ('prev', 'fork_next')
        >>> step_button(THREADS_STEP, "prev")
        'threads_step_prev'
    """
    return f"{_STEP_BUTTONS[slider]}{which}"


def table(key: str) -> str:
    """The dataframe of a table drawn under `key` (its selection is kept there).

    Example:
        >>> table("errors"), table("entry_errors")
        ('errors__table', 'entry_errors__table')
    """
    return part(key, "table")


def step_table(key: str, selected: int) -> str:
    """A trace's step table drawn with row `selected` selected: a key per selected row, since a
    selection's default applies only to a table drawn for the first time.

    Example:
        >>> step_table("trace", 2)
        'trace__table_2'
    """
    return f"{table(key)}_{selected}"


def option(name: str) -> str:
    """The widget of schema option `name` (a field of core.order.schema_options.SchemaOptions).

    Example:
        >>> option("strict"), option("amount_le")
        ('opt_strict', 'opt_amount_le')
    """
    return f"opt_{name}"


def share(page: str, what: str) -> str:
    """What ui.share keeps for `page`'s link: the token `applied`, whether it was just
    `opened`, the state it `held`.

    Example:
        >>> share("trace", "applied")
        'share__applied__trace'
    """
    return f"share__{what}__{page}"


_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8", "surrogatepass"))


def field_key(path: tuple[str, ...], kind: str = "field") -> str:
    """A stable widget key per form field path, distinct for every path and every `kind`.

    Each segment keeps letters, digits and `_`; any other character (the `-` separator
    included) becomes its UTF-8 bytes as `%XX`, so `("a__b",)`, `("a", "b")` and
    `("a-b",)` never share a key. A field's own widget (an input, a picker or a table) is
    `form_<path>`; anything else about it is `form-<kind>-<path>`, which no field key can
    spell (a field key has `_` where these have `-`). Tests and Playwright spell keys from paths.

    Example:
        >>> field_key(("items",)), field_key(("a", "b-c")), field_key(("a",), "errors")
        ('form_items', 'form_a-b%2Dc', 'form-errors-a')
    """
    escaped = "-".join(_KEY_UNSAFE.sub(_percent, segment) for segment in path)
    return f"form_{escaped}" if kind == "field" else f"form-{kind}-{escaped}"
