"""Every stable error code the playground gives, in one registry, and the one coded error.

Scripts, tests and the README match on these codes, never on messages. A code is added here
(with its README line under "Error codes": tests/core/test_errors.py checks both ways)
before any error can carry it: `CodedError` refuses a code this enum does not hold.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CodedError", "ErrorCode"]


class ErrorCode(StrEnum):
    """The registry. Member names are the codes upper-cased (dots as underscores)."""

    # Payload text (core.jsontext.payload.PayloadError)
    JSON_SYNTAX = "json_syntax"
    EMPTY = "empty"
    TOO_LARGE = "too_large"
    TOO_DEEP = "too_deep"
    NUMBER_TOO_LONG = "number_too_long"
    LONE_SURROGATE = "lone_surrogate"
    # Share links (core.share.ShareError; the pages' link warnings)
    SHARE_VERSION = "share_version"
    SHARE_TOO_LARGE = "share_too_large"
    SHARE_ENCODING = "share_encoding"
    SHARE_CORRUPT = "share_corrupt"
    SHARE_FIELD = "share_field"
    SHARE_PAGE = "share_page"
    SHARE_STEP = "share_step"
    SHARE_FORK = "share_fork"
    SHARE_EDIT = "share_edit"
    SHARE_NO_PROJECT = "share_no_project"
    SHARE_STORE = "share_store"
    SHARE_MODEL = "share_model"
    SHARE_THREAD = "share_thread"
    # The seed order (core.order)
    BAD_OPTION = "bad_option"
    UNKNOWN_FAULT = "unknown_fault"
    # Your model and graph (core.project.ProjectError; the CLI)
    BAD_SPEC = "bad_spec"
    BAD_CONFIG_FILE = "bad_config_file"
    MODULE_NOT_FOUND = "module_not_found"
    MODULE_IMPORT_FAILED = "module_import_failed"
    ATTRIBUTE_MISSING = "attribute_missing"
    NOT_A_MODEL = "not_a_model"
    NOT_A_GRAPH = "not_a_graph"
    GRAPH_FACTORY_FAILED = "graph_factory_failed"
    GRAPH_COMPILE_FAILED = "graph_compile_failed"
    STATE_NOT_PYDANTIC = "state_not_pydantic"
    GRAPH_CHECKPOINTER_REPLACED = "graph_checkpointer_replaced"
    GRAPH_NEEDS_CONTEXT = "graph_needs_context"
    GRAPH_READS_CONFIG = "graph_reads_config"
    GRAPH_INTERRUPTS = "graph_interrupts"
    NO_MODEL = "no_model"
    NO_GRAPH = "no_graph"
    FAULTS_SEED_ONLY = "faults_seed_only"
    # Examples and forks (core.validate.examples, core.trace.fork)
    NO_EXAMPLE = "no_example"
    FORK_STEP = "fork_step"
    # What stopped a traced run (core.trace.TraceError.code)
    NODE_ERROR = "node_error"
    INPUT_INVALID = "input_invalid"
    INPUT_NOT_OBJECT = "input_not_object"
    INVALID_UPDATE = "invalid_update"
    CONCURRENT_UPDATE = "concurrent_update"
    RECURSION_LIMIT = "recursion_limit"
    TRACE_TIMEOUT = "trace_timeout"
    GRAPH_ERROR = "graph_error"
    # Checkpoint stores (core.stores.StoreError / StoreCode; the Threads page's upload)
    NO_STORE = "no_store"
    BAD_STORE_SPEC = "bad_store_spec"
    STORE_MISSING = "store_missing"
    STORE_EMPTY = "store_empty"
    NOT_A_DATABASE = "not_a_database"
    NOT_A_CHECKPOINT_STORE = "not_a_checkpoint_store"
    STORE_UNREACHABLE = "store_unreachable"
    STORE_LOGIN_REFUSED = "store_login_refused"
    STORE_ENCRYPTED = "store_encrypted"
    STORE_WRONG_KEY = "store_wrong_key"
    STORE_UNREADABLE = "store_unreadable"
    UPLOAD_TOO_LARGE = "upload_too_large"
    STORE_NOT_TABLES = "store_not_tables"
    STORE_TIMEOUT = "store_timeout"
    STORE_ROLE_SUPERUSER = "store_role_superuser"
    STORE_ROLE_CAN_WRITE = "store_role_can_write"
    BAD_SHARD = "bad_shard"
    STORE_CORRUPT = "store_corrupt"
    # One stored row that cannot be read (core.stores.rows.Unreadable): the rest is read on
    ROW_TOO_LARGE = "row_too_large"
    ROW_UNDECODABLE = "row_undecodable"
    ROW_TOO_DEEP = "row_too_deep"
    ROW_MISSING_VALUE = "row_missing_value"
    ROW_NOT_A_CHECKPOINT = "row_not_a_checkpoint"
    ROW_BAD_METADATA = "row_bad_metadata"
    SERVER_HISTORY_REFUSED = "server_history_refused"
    ROW_PICKLED = "row_pickled"
    THREAD_ID_NOT_TEXT = "thread_id_not_text"
    # The parts of a sharded audit (core.stores.audit_parts.AuditPartError; audit-merge)
    AUDIT_PART_UNREADABLE = "audit_part_unreadable"
    AUDIT_PART_MALFORMED = "audit_part_malformed"
    AUDIT_PARTS_OVERLAP = "audit_parts_overlap"
    # Migration plans (core.migrate.plan.PlanError; python -m core migrate)
    PLAN_TOML = "plan_toml"
    PLAN_CHAIN = "plan_chain"
    PLAN_STEP = "plan_step"
    # Unbrick (core.stores.unbrick.UnbrickError / UnbrickCode)
    STORE_WRITES_DISABLED = "store_writes_disabled"
    UNBRICK_INVALID_EDIT = "unbrick_invalid_edit"
    UNBRICK_NOT_AN_OBJECT = "unbrick_not_an_object"
    UNBRICK_NOTHING_TO_WRITE = "unbrick_nothing_to_write"
    UNBRICK_NO_FORK_POINT = "unbrick_no_fork_point"
    STORE_WRITE_FAILED = "store_write_failed"
    # The server's settings, refused in its log (core.heavy: the default is used instead)
    HEAVY_JOBS = "heavy_jobs"
    # Public mode and sign-in (core.project.hosting; ui.access)
    PUBLIC_STORE_WITHOUT_SIGN_IN = "public_store_without_sign_in"
    MEMBERS_ONLY = "members_only"
    SIGN_IN_UNAVAILABLE = "sign_in_unavailable"
    # The retry lab (core.retry.RetryInputError)
    RETRY_ENGINE = "retry_engine"
    RETRY_BUDGET = "retry_budget"
    RETRY_CONSTRAINTS = "retry_constraints"
    RETRY_SCRIPT_SIZE = "retry_script_size"
    RETRY_SCRIPT_JSON = "retry_script_json"
    RETRY_SCRIPT_NUMBER = "retry_script_number"
    RETRY_SCRIPT_SURROGATE = "retry_script_surrogate"
    RETRY_SCRIPT_SHAPE = "retry_script_shape"
    # The probe registry (core.probes)
    UNKNOWN_PROBE = "unknown_probe"
    DUPLICATE_PROBE = "duplicate_probe"
    NO_CHECKS = "no_checks"
    PROBE_FAILED = "probe_failed"
    # The guarded saver (core.guard.GuardedSaver)
    STATE_INVALID = "state_invalid"
    GUARD_OPTION = "guard_option"


class CodedError(Exception):
    """An error with a registered `code` and a `message` that says what to do.

    The one way to make one: `SomeError(code, message)` (or a subclass that fixes its code).
    `code` is typed `ErrorCode`, so mypy refuses a code the registry does not hold; a caller
    mypy does not check gets a ValueError for one at run time. `str()` is `[code] message`.

    Example:
        >>> str(CodedError(ErrorCode.TOO_DEEP, "Flatten it."))
        '[too_deep] Flatten it.'
        >>> CodedError("made_up", "x")  # what an unchecked caller gets
        Traceback (most recent call last):
        ...
        ValueError: 'made_up' is not a valid ErrorCode
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        ErrorCode(code)  # raises ValueError for a code the registry does not hold
        # The code as given; a family's error (StoreError) sets its own enum's member here.
        self.code: str = code
        self.message = message
        super().__init__(f"[{code}] {message}")
