"""Session-state keys that more than one module writes or reads, defined once.

A widget's key is also its AppTest handle (`at.selectbox(key="scenario")`) and its
Playwright class (`.st-key-scenario`), so these values never change silently. The JSON
texts (PAYLOAD, TOOL_PAYLOAD, RETRY_SCRIPT) are plain values; their code editor's widget is
`ui.editor.payload.editor_key(key)` (`.st-key-payload_editor`; tests/app/_editor.py in AppTest).
"""

from __future__ import annotations

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
    "SCHEMA_TAB",
    "FORK_STEP_SLIDER",
    "LINK_ERROR",
    "STEP_SLIDER",
    "TOOL_PAYLOAD",
    "TOOL_PRESET",
    "TRACE_FAULTS",
    "TRACE_GRAPH",
    "TRACE_MODE",
    "TRACE_REQUESTS",
    "TRACE_RUN_ANYWAY_REQUEST",
    "THREADS_CONTAINS",
    "THREADS_CURRENT",
    "THREADS_CURSORS",
    "THREADS_MIGRATE_BASE",
    "THREADS_MIGRATE_JOB",
    "THREADS_MIGRATE_STEPS",
    "THREADS_MIGRATE_WRITTEN",
    "THREADS_OPEN_AT",
    "THREADS_PAGE_SIZE",
    "THREADS_SOURCE",
    "THREADS_STATUS",
    "THREADS_STEP",
    "THREADS_STEP_OF",
    "THREADS_THREAD",
]

# The order payload: the Validate editor's text (set_payload_text writes it), and the text
# every page shares (PAYLOAD_TEXT). Neither is a widget key: both survive page switches.
PAYLOAD = "payload"
PAYLOAD_TEXT = "payload_text"
# The label of the last preset loaded into the shared payload, said under the preset pickers
# (ui.project.preset_picker, on Validate and Trace).
PRESET_LOADED = "preset_loaded"
# Schema options a share link carries, applied by the options form on its next render.
SCHEMA_OPTIONS = "schema_options"
# The error row a Validate link selects, (table key, row): applied to that table right before
# it is drawn in the run the link opened, then dropped (views/validate.py).
LINK_ERROR = "link_error"

# Trace: its settings' widgets, the selected row, and what a link asks of its fresh run.
TRACE_GRAPH = "trace_graph"
TRACE_MODE = "trace_mode"
TRACE_FAULTS = "trace_faults"
STEP_SLIDER = "step_slider"
# The forked branch's own stepper (ui/trace/fork.py sets it to the branch's first failure).
FORK_STEP_SLIDER = "fork_step_slider"
TRACE_RUN_ANYWAY_REQUEST = "trace_run_anyway_request"
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
THREADS_THREAD = "threads_thread"
THREADS_STEP = "threads_step"
THREADS_STEP_OF = "threads_step_of"
# A checkpoint_id the timeline opens on in its next run, then dropped: an unbrick write's new
# head (ui/threads/unbrick.py), so the stepper and panels show what was just written.
THREADS_OPEN_AT = "threads_open_at"

# Migrate (ui/threads/migrate*.py): the rows the plan table starts from (the proposal's or an
# upload's, with the generation that suffixes the table's key, STEPS, after each new start),
# the running preview of a large store, and what the last Apply wrote.
THREADS_MIGRATE_BASE = "threads_migrate_base"
THREADS_MIGRATE_STEPS = "threads_migrate_steps"
THREADS_MIGRATE_JOB = "threads_migrate_job"
THREADS_MIGRATE_WRITTEN = "threads_migrate_written"
