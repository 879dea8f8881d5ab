"""Session-state keys, defined once: the fixed ones as names, the rest built by the functions
below (`{key}__table`, `opt_{name}`, `form_<path>`...); no other module spells a key or a key
template (tests/app/test_keys.py reads ui/, views/ and app.py for one), and tests use these names.

A widget's key is also its AppTest handle (`at.selectbox(key="scenario")`) and its
Playwright class (`.st-key-scenario`), so these values never change silently. The JSON
texts (PAYLOAD, TOOL_PAYLOAD, RETRY_SCRIPT) are plain values; their code editor's widget is
`keys.editor(key)` (`.st-key-payload_editor`; tests/app/_editor.py in AppTest).
"""

from __future__ import annotations

import re

__all__ = [
    "BROKEN_EXAMPLE",
    "EDITOR_VIEW",
    "ENTRY_COMPARISON",
    "ENTRY_DIFF",
    "ERRORS",
    "EXPORT",
    "EXPORT_CSV",
    "EXPORT_JSON",
    "EXPORT_MD",
    "FIRST_PAINT",
    "FORK",
    "FORK_BRANCH",
    "FORK_DETAIL",
    "FORK_DIFF",
    "FORK_EDITS",
    "FORK_FOR",
    "FORK_ORIGINAL",
    "FORK_STEP",
    "FORK_STEP_SLIDER",
    "FORK_TEXT",
    "FORM_TABLES",
    "LENS",
    "LINK_ERROR",
    "LINT_FINDINGS",
    "OBSERVATIONS",
    "OUTPUT",
    "PAYLOAD",
    "PAYLOAD_TEXT",
    "PRESET",
    "PRESET_LOADED",
    "PROBE",
    "PROBE_RESULTS",
    "PROBE_TABLE",
    "PROBE_TABLE_DRAWN",
    "PROBE_TIMING",
    "PROBE_TIMING_REQUESTED",
    "PROBE_VERSIONS",
    "RERUN_PROBES",
    "RETRY_CONFIDENCE_MAX",
    "RETRY_CONFIDENCE_MIN",
    "RETRY_MIN_CITATIONS",
    "RETRY_PRESET",
    "RETRY_RETRIES",
    "RETRY_SCRIPT",
    "RETRY_SUBMITTED",
    "RETRY_TIMELINE",
    "RETRY_TRACE",
    "REWRITES",
    "REWRITES_SUMMARY",
    "RUN",
    "RUN_ANYWAY",
    "RUN_RETRY",
    "RUN_TIMING",
    "SCENARIO",
    "SCHEMA_DOWNLOAD",
    "SCHEMA_MODEL",
    "SCHEMA_OPTIONS",
    "SCHEMA_OPTIONS_MENU",
    "SCHEMA_SHOW",
    "SCHEMA_TAB",
    "SCHEMA_VIEW",
    "SHARE",
    "SIGN_IN",
    "SIGN_OUT",
    "SOURCE_FILTER",
    "STEP_PANELS",
    "STEP_SLIDER",
    "THREADS_AUDIT",
    "THREADS_AUDIT_CANCEL",
    "THREADS_AUDIT_COUNTS",
    "THREADS_AUDIT_CSV",
    "THREADS_AUDIT_HISTORY",
    "THREADS_AUDIT_INVALID",
    "THREADS_AUDIT_JOB",
    "THREADS_AUDIT_JSON",
    "THREADS_AUDIT_MODEL",
    "THREADS_AUDIT_RUN",
    "THREADS_AUDIT_UNREADABLE",
    "THREADS_BLAME",
    "THREADS_CONTAINS",
    "THREADS_CURRENT",
    "THREADS_CURSORS",
    "THREADS_ERRORS",
    "THREADS_GUARD",
    "THREADS_LINK_WANTED",
    "THREADS_MERGE",
    "THREADS_MIGRATE_AGAIN",
    "THREADS_MIGRATE_APPLY",
    "THREADS_MIGRATE_BASE",
    "THREADS_MIGRATE_BROKEN",
    "THREADS_MIGRATE_CANCEL",
    "THREADS_MIGRATE_CHAIN",
    "THREADS_MIGRATE_CHAIN_CLEAR",
    "THREADS_MIGRATE_CHAIN_ERROR",
    "THREADS_MIGRATE_CHAIN_TABLE",
    "THREADS_MIGRATE_CHAIN_TO",
    "THREADS_MIGRATE_CHAIN_UPLOAD",
    "THREADS_MIGRATE_CHANGES",
    "THREADS_MIGRATE_COUNTS",
    "THREADS_MIGRATE_DRY_RUN",
    "THREADS_MIGRATE_HISTORY",
    "THREADS_MIGRATE_JOB",
    "THREADS_MIGRATE_JSON",
    "THREADS_MIGRATE_LAST_PLAN",
    "THREADS_MIGRATE_MODULE",
    "THREADS_MIGRATE_PLANNED",
    "THREADS_MIGRATE_PLANNED_TABLE",
    "THREADS_MIGRATE_PREVIEW",
    "THREADS_MIGRATE_PROPOSE",
    "THREADS_MIGRATE_REFUSALS",
    "THREADS_MIGRATE_STANDING",
    "THREADS_MIGRATE_STALE",
    "THREADS_MIGRATE_STEPS",
    "THREADS_MIGRATE_STEP_COUNTS",
    "THREADS_MIGRATE_THREAD",
    "THREADS_MIGRATE_TOML",
    "THREADS_MIGRATE_UNREADABLE",
    "THREADS_MIGRATE_UPLOAD",
    "THREADS_MIGRATE_UPLOAD_ERROR",
    "THREADS_MIGRATE_WRITTEN",
    "THREADS_MIGRATE_WRITTEN_CSV",
    "THREADS_MIGRATE_WRITTEN_JSON",
    "THREADS_MIGRATE_WRITTEN_TABLE",
    "THREADS_NEXT",
    "THREADS_OPEN_AT",
    "THREADS_PAGE",
    "THREADS_PAGE_JUMP",
    "THREADS_PAGE_SIZE",
    "THREADS_PREV",
    "THREADS_READ",
    "THREADS_READ_AGAIN",
    "THREADS_READ_CANCELLED",
    "THREADS_SHARE",
    "THREADS_SOURCE",
    "THREADS_STATUS",
    "THREADS_STEP",
    "THREADS_STEP_OF",
    "THREADS_TAB",
    "THREADS_TABLE",
    "THREADS_THREAD",
    "THREADS_TIMELINE",
    "THREADS_UNBRICK_ERRORS",
    "THREADS_UNBRICK_OF",
    "THREADS_UNBRICK_PLAN",
    "THREADS_UNBRICK_PLANNED_TABLE",
    "THREADS_UNBRICK_TEXT",
    "THREADS_UNBRICK_VALIDATE",
    "THREADS_UNBRICK_WRITE",
    "THREADS_UNBRICK_WRITTEN",
    "THREADS_UNBRICK_WRITTEN_TABLE",
    "THREADS_UPLOAD",
    "THREADS_WRITES",
    "THREADS_WRITE_NEXT",
    "TOOL_ERRORS",
    "TOOL_PAYLOAD",
    "TOOL_PRESET",
    "TRACE",
    "TRACE_DETAIL",
    "TRACE_FAULTS",
    "TRACE_FORK",
    "TRACE_FORK_ERROR",
    "TRACE_FORK_SOURCE",
    "TRACE_GRAPH",
    "TRACE_GUARD",
    "TRACE_GUARD_PANEL",
    "TRACE_LINK_WAITING",
    "TRACE_MODE",
    "TRACE_PRESET",
    "TRACE_REQUESTS",
    "TRACE_RESULT",
    "TRACE_RUNS",
    "TRACE_RUN_ANYWAY_REQUEST",
    "TRIP_DIFFERENCES",
    "TRIP_STAGES",
    "VALIDATE_MODEL",
    "VALIDATE_VIEW",
    "VALIDATE_WORKBENCH",
    "VERDICT_FILTER",
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
# The Share link button (ui.share.share_button) and the exports, under the same key on each
# page that has them (Threads' own: THREADS_SHARE).
SHARE = "share"
EXPORT_JSON = "export_json"
EXPORT_CSV = "export_csv"
EXPORT_MD = "export_md"
# Sign in (one per provider, `each(SIGN_IN, provider)`, when several) and out (ui/access.py).
SIGN_IN = "sign_in"
SIGN_OUT = "sign_out"
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
# Validate: the model it checks against, the payload's editor (the JSON text or the form),
# the view below it, and whether the JSON Schema is shown (a share link sets them all).
VALIDATE_MODEL = "validate_model"
EDITOR_VIEW = "editor_view"
VALIDATE_VIEW = "validate_view"
SCHEMA_SHOW = "schema_show"
# LangGraph's entry verdict, kept with the (text, model, graph) it was computed for: a rerun
# that changes none of them does not run the graph again.
ENTRY_COMPARISON = "entry_comparison"
# Its widgets: the preset picker, the first-contact button, the one error table (also the
# name a link gives it: core.links.validate's tables), its exports, the views' tables.
PRESET = "preset"
BROKEN_EXAMPLE = "broken_example"
ERRORS = "errors"
EXPORT = "export"
LENS = "lens"
ENTRY_DIFF = "entry_diff"
SCHEMA_DOWNLOAD = "schema_download"
# The frame the page draws into on its first paint (ui/validate/first_paint.py), and the
# form's box of list tables (ui/validate/form_table.py).
VALIDATE_WORKBENCH = "validate_workbench"
FORM_TABLES = "form-tables"

# Trace: its settings' widgets, the selected row, and what a link asks of its fresh run.
TRACE_GRAPH = "trace_graph"
TRACE_MODE = "trace_mode"
TRACE_FAULTS = "trace_faults"
# The Guard switch: the run stores its checkpoints through core.guard's GuardedSaver.
TRACE_GUARD = "trace_guard"
STEP_SLIDER = "step_slider"
# The forked branch's own stepper (ui/trace/fork.py sets it to the branch's first failure).
FORK_STEP_SLIDER = "fork_step_slider"
TRACE_RUN_ANYWAY_REQUEST = "trace_run_anyway_request"
# A share link's selected row, held until the visitor presses Run (a public server never
# runs a graph from a link by itself).
TRACE_LINK_WAITING = "trace_link_waiting"
TRACE_REQUESTS = {"fork": "trace_fork_request", "edit": "trace_edit_request"}
# The run: its preset picker, Run and Run anyway, the session's run count (it ties an edited
# fork text to its run) and the last run's result, which every rerun draws again.
TRACE_PRESET = "trace_preset"
RUN = "run"
RUN_ANYWAY = "run_anyway"
TRACE_RUNS = "trace_runs"
TRACE_RESULT = "trace_result"
# Drawn from the result: the step table (`table(TRACE)`, `step_table(TRACE, row)`), the
# selected row's detail, its panels, and the output.
TRACE = "trace"
TRACE_DETAIL = "trace_detail"
# Where the guard stopped the run and the thread read back (ui/trace/guard.py).
TRACE_GUARD_PANEL = "trace_guard_panel"
STEP_PANELS = "step"
OUTPUT = "output"
# LangGraph's error in full, under the output (its whole text a download away when cut).
TRACE_ERROR = "trace_error"
# The fork (ui/trace/fork.py): the edited state's text (its code editor: `editor(FORK_TEXT)`),
# the (run, row) it is shown for, each row's kept edit, the Fork button; the last fork's
# branch, what it was forked from, and why it did not run.
FORK_TEXT = "fork_text"
FORK_FOR = "fork_for"
FORK_EDITS = "fork_edits"
FORK = "fork"
TRACE_FORK = "trace_fork"
TRACE_FORK_SOURCE = "trace_fork_source"
TRACE_FORK_ERROR = "trace_fork_error"
# The branch on screen: the edit's diff, the two runs' tables, the branch's row detail and
# panels.
FORK_DIFF = "fork_diff"
FORK_ORIGINAL = "fork_original"
FORK_BRANCH = "fork_branch"
FORK_DETAIL = "fork_detail"
FORK_STEP = "fork_step"

# Behaviour lab: the probes' results (the timing probe's apart, run when asked), the filters,
# the probe picked; its buttons and tables.
PROBE_RESULTS = "probe_results"
PROBE_TIMING = "probe_timing"
PROBE_TIMING_REQUESTED = "probe_timing_requested"
VERDICT_FILTER = "verdict_filter"
SOURCE_FILTER = "source_filter"
PROBE = "probe"
RERUN_PROBES = "rerun"
RUN_TIMING = "run_timing"
PROBE_TABLE = "probe_table"
PROBE_VERSIONS = "probe_versions"
# The probe table's rows as last drawn and the row ticked then: a row ticked since is a click.
PROBE_TABLE_DRAWN = "probe_table_drawn"

# Retry lab: the preset picker, the script editor, the run shown.
RETRY_PRESET = "retry_preset"
RETRY_SCRIPT = "retry_script"
RETRY_SUBMITTED = "retry_submitted"
# Its budget and constraint widgets, set by presets and links (ui.labs.retry_state).
RETRY_RETRIES = "retries"
RETRY_MIN_CITATIONS = "retry_min_citations"
RETRY_CONFIDENCE_MIN = "retry_confidence_min"
RETRY_CONFIDENCE_MAX = "retry_confidence_max"
# The Run button, each engine's attempts (`each(RETRY_TIMELINE, engine)`), LangGraph's trace.
RUN_RETRY = "run_retry"
RETRY_TIMELINE = "retry_timeline"
RETRY_TRACE = "retry_trace"

# Tools lab: the scenario and preset pickers, its own editor, the schema shown.
SCENARIO = "scenario"
TOOL_PRESET = "tool_preset"
TOOL_PAYLOAD = "tool_payload"  # the order page's payload_text is untouched
SCHEMA_MODEL = "schema_model"
SCHEMA_TAB = "schema_tab"
# Its tables and boxes: the round trip, the schema, its lint, what each provider receives
# (`each(REWRITES, provider)`), the tool call's errors, what the scenario observes.
TRIP_STAGES = "trip_stages"
TRIP_DIFFERENCES = "trip_differences"
SCHEMA_VIEW = "schema_view"
LINT_FINDINGS = "lint_findings"
REWRITES_SUMMARY = "rewrites_summary"
REWRITES = "rewrites"
TOOL_ERRORS = "tool_errors"
OBSERVATIONS = "observations"

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
# What the stepper was last drawn over: the thread, its checkpoint ids and their labels. The
# slider keeps its choice as a label, and a label names the count ("of 4"): when a write grows
# the timeline the kept label names no option, so the stepper is set anew (ui/threads/timeline.py).
THREADS_STEP_DRAWN = "threads_step_drawn"
# The store upload, the list's Previous / Next, a thread's boxes and tables, the Share link;
# the link opened (a ThreadsLink), held until its notes are said (ui/threads/share.py).
THREADS_UPLOAD = "threads_upload"
THREADS_PREV = "threads_prev"
THREADS_NEXT = "threads_next"
THREADS_BLAME = "threads_blame"
THREADS_ERRORS = "threads_errors"
THREADS_MERGE = "threads_merge"
THREADS_SHARE = "threads_share"
THREADS_LINK_WANTED = "threads_link_wanted"
THREADS_READ_AGAIN = "threads_read_again"
# The open thread's tool shown (Timeline, Audit, Migrate, Unbrick): st.tabs' own state, set
# by a share link before the tabs are drawn (ui/threads/share.py).
THREADS_TAB = "threads_tab"

# Audit (ui/threads/audit.py): the model it checks against, every checkpoint or the latest,
# Run; the running job's slices; Cancel; the results' tables and downloads.
THREADS_AUDIT_MODEL = "threads_audit_model"
THREADS_AUDIT_HISTORY = "threads_audit_history"
THREADS_AUDIT_RUN = "threads_audit_run"
THREADS_AUDIT_JOB = "threads_audit_job"
THREADS_AUDIT_CANCEL = "threads_audit_cancel"
THREADS_AUDIT_COUNTS = "threads_audit_counts"
THREADS_AUDIT_UNREADABLE = "threads_audit_unreadable"
THREADS_AUDIT_CSV = "threads_audit_csv"
THREADS_AUDIT_JSON = "threads_audit_json"

# Unbrick (ui/threads/unbrick.py): the edited state's text (its code editor:
# `editor(THREADS_UNBRICK_TEXT)`), the thread it holds, the dry run's (text, plan), what the
# last write wrote; its buttons and the edit's errors.
THREADS_UNBRICK_TEXT = "threads_unbrick_text"
THREADS_UNBRICK_OF = "threads_unbrick_of"
THREADS_UNBRICK_PLAN = "threads_unbrick_plan"
THREADS_UNBRICK_WRITTEN = "threads_unbrick_written"
THREADS_UNBRICK_VALIDATE = "threads_unbrick_validate"
THREADS_UNBRICK_WRITE = "threads_unbrick_write"
THREADS_UNBRICK_ERRORS = "threads_unbrick_errors"
# The table of what the last unbrick wrote (thread, from checkpoint, new checkpoint).
THREADS_UNBRICK_WRITTEN_TABLE = "threads_unbrick_written_table"
# The dry run's row: what the write will write (thread, from checkpoint, as node, fields).
THREADS_UNBRICK_PLANNED_TABLE = "threads_unbrick_planned_table"

# Migrate (ui/threads/migrate/): the rows the plan table starts from (the proposal's or an
# upload's, with the generation that suffixes the table's key, STEPS, after each new start),
# the running preview of a large store, and what the last Apply wrote.
THREADS_MIGRATE_BASE = "threads_migrate_base"
THREADS_MIGRATE_STEPS = "threads_migrate_steps"
THREADS_MIGRATE_JOB = "threads_migrate_job"
THREADS_MIGRATE_WRITTEN = "threads_migrate_written"
# Its widgets: the plan's upload (and why it was refused), its downloads, Propose, the
# refusals' box; the preview's history switch, counts, tables, download, Cancel and Again;
# the thread shown before and after; Apply and what it wrote, as downloads.
THREADS_MIGRATE_UPLOAD = "threads_migrate_upload"
THREADS_MIGRATE_UPLOAD_ERROR = "threads_migrate_upload_error"
THREADS_MIGRATE_TOML = "threads_migrate_toml"
THREADS_MIGRATE_MODULE = "threads_migrate_module"
THREADS_MIGRATE_PROPOSE = "threads_migrate_propose"
THREADS_MIGRATE_REFUSALS = "threads_migrate_refusals"
THREADS_MIGRATE_HISTORY = "threads_migrate_history"
THREADS_MIGRATE_COUNTS = "threads_migrate_counts"
THREADS_MIGRATE_UNREADABLE = "threads_migrate_unreadable"
THREADS_MIGRATE_JSON = "threads_migrate_json"
THREADS_MIGRATE_CANCEL = "threads_migrate_cancel"
THREADS_MIGRATE_AGAIN = "threads_migrate_again"
THREADS_MIGRATE_THREAD = "threads_migrate_thread"
THREADS_MIGRATE_APPLY = "threads_migrate_apply"
THREADS_MIGRATE_WRITTEN_CSV = "threads_migrate_written_csv"
THREADS_MIGRATE_WRITTEN_JSON = "threads_migrate_written_json"
# Apply's dry run: its button, the forks it found (with the plan and store they are for) and
# their table; the last complete plan (a half-typed row keeps its preview, marked stale) and
# the stale note's box.
THREADS_MIGRATE_DRY_RUN = "threads_migrate_dry_run"
THREADS_MIGRATE_PLANNED = "threads_migrate_planned"
THREADS_MIGRATE_PLANNED_TABLE = "threads_migrate_planned_table"
THREADS_MIGRATE_LAST_PLAN = "threads_migrate_last_plan"
THREADS_MIGRATE_STALE = "threads_migrate_stale"
# A chain of plans (several TOML files, each with id/after): their upload, the chain read
# from them (with the files), why it was refused, its table, where each thread stands, and
# the button back to the one plan of the table.
THREADS_MIGRATE_CHAIN_UPLOAD = "threads_migrate_chain_upload"
THREADS_MIGRATE_CHAIN = "threads_migrate_chain"
THREADS_MIGRATE_CHAIN_ERROR = "threads_migrate_chain_error"
THREADS_MIGRATE_CHAIN_TABLE = "threads_migrate_chain_table"
THREADS_MIGRATE_STANDING = "threads_migrate_standing"
THREADS_MIGRATE_CHAIN_CLEAR = "threads_migrate_chain_clear"
# The plan the chain stops after (as `migrate --to ID`).
THREADS_MIGRATE_CHAIN_TO = "threads_migrate_chain_to"
# After any write on the Threads page: what to do next (resume the thread), in its box.
THREADS_WRITE_NEXT = "threads_write_next"
# The guard's view of the open thread (ui/threads/guard_view.py): its box; its tables are
# `part(THREADS_GUARD, name)`.
THREADS_GUARD = "threads_guard"

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
