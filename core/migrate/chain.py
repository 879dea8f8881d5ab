"""A chain of plans: one plan file, or a folder of plans ordered by their `id` and `after`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.migrate.plan import Plan, PlanError, Step, parse_plan

__all__ = ["MAX_PLANS", "Chain", "Link", "load_chain"]

MAX_PLANS = 200  # plans in one folder: more is not a chain anyone reads


@dataclass(frozen=True)
class Link:
    """One plan of a chain: its id ("" for a lone plan without one), the plan, the model
    it migrates from (None when the plan names none) and the file it was read from."""

    id: str
    plan: Plan
    model: type[BaseModel] | None
    file: str


@dataclass(frozen=True)
class Chain:
    """Plans in the order they apply; `stop`: how many of them apply (`--to` stops early)."""

    links: tuple[Link, ...]
    stop: int

    @classmethod
    def of(cls, plan: Plan, model: type[BaseModel] | None = None) -> Chain:
        """A chain of one plan (read from no file)."""
        return cls((Link(plan.id or "", plan, model, ""),), 1)

    @property
    def ids(self) -> list[str]:
        """Every plan's id, in chain order (those after `--to`'s too)."""
        return [link.id for link in self.links]

    @property
    def head(self) -> str:
        """The id of the last plan that applies: what a migrated thread's fork records."""
        return self.links[self.stop - 1].id if self.stop else ""

    @property
    def models(self) -> list[type[BaseModel]]:
        """The models the plans migrate from, each once: the serializer reads them all."""
        found = [link.model for link in self.links if link.model is not None]
        return list(dict.fromkeys(found))

    def to(self, plan_id: str | None) -> Chain:
        """The chain stopping after the plan `plan_id` (None: at its last).

        Raises `PlanError` (plan_chain) when no plan of the chain has that id."""
        if plan_id is None:
            return Chain(self.links, len(self.links))
        if plan_id not in self.ids:
            raise PlanError(
                ErrorCode.PLAN_CHAIN,
                f"--to {plan_id!r}: no plan of the chain has that id; the chain is "
                f"{' -> '.join(self.ids)}.",
            )
        return Chain(self.links, self.ids.index(plan_id) + 1)

    def steps(self) -> list[tuple[str, Step]]:
        """Each step that applies, with its plan's id, in chain order."""
        return [(link.id, step) for link in self.links[: self.stop] for step in link.plan.steps]

    def plan(self, start: int = 0) -> Plan:
        """One plan of the steps of the chain's plans from the `start`-th to the stop."""
        steps = [step for link in self.links[start : self.stop] for step in link.plan.steps]
        return Plan.model_construct(steps=steps)  # each step was validated as its plan was read

    def offset(self, start: int) -> int:
        """Where the `start`-th plan's first step is among `steps()`."""
        return sum(len(link.plan.steps) for link in self.links[:start])

    def migrate(self, state: dict[str, Any], record: str | None = None) -> dict[str, Any]:
        """`state` through every plan it still needs: after the plan `record` names, else
        from the newest plan whose model accepts it (the guard's migration on read).

        Example:
            >>> plan = parse_plan('[[step]]\\npath = "a"\\naction = "rename"\\nto = "b"\\n')
            >>> Chain.of(plan).migrate({"a": 1})
            {'b': 1}
        """
        from core.migrate.apply import apply_plan
        from core.stores.state import state_errors

        start = self.start_of(record, lambda model: not state_errors(state, model))
        migrated: dict[str, Any] = apply_plan(self.plan(start), state).state
        return migrated

    def start_of(self, record: str | None, accepts: Any) -> int:
        """The index of the first plan a state still needs.

        After the plan its thread's newest `migration` record names; with no record (or
        one of a plan not in the chain), from the newest plan whose model `accepts(model)`
        the state, else from the first.
        """
        if record and record in self.ids:
            return self.ids.index(record) + 1
        for index in range(len(self.links) - 1, -1, -1):
            model = self.links[index].model
            if model is not None and accepts(model):
                return index
        return 0


def load_chain(path: str | Path) -> Chain:
    """The chain at `path`: a plan file (a chain of one), or a folder whose `*.toml` plans
    each carry an `id`, every one but the first an `after` naming the plan it follows.

    Each plan's `model = "package.module:Class"` is imported (the model it migrates from).
    Raises `PlanError`: the TOML's own refusals at their line, and (code plan_chain) two
    plans with one id, an `after` naming no plan, two plans after one, no first plan, or a
    cycle; a plan in a folder without an id; a model that cannot be imported.

    Example:
        >>> import tempfile
        >>> folder = Path(tempfile.mkdtemp())
        >>> _ = (folder / "b.toml").write_text('id = "v3"\\nafter = "v2"\\n')
        >>> _ = (folder / "a.toml").write_text('id = "v2"\\n')
        >>> load_chain(folder).ids
        ['v2', 'v3']
        >>> _ = (folder / "c.toml").write_text('id = "v4"\\nafter = "v9"\\n')
        >>> try:  # doctest: +ELLIPSIS
        ...     load_chain(folder)
        ... except PlanError as error:
        ...     print(error)
        [plan_chain] ...: c.toml: after = 'v9': no plan has that id; the ids are v2, v3, v4.
    """
    path = Path(path)
    if not path.is_dir():
        plan = _read(path, str(path))
        return Chain((Link(plan.id or "", plan, _model(plan, path), str(path)),), 1)
    files = sorted(file for file in path.glob("*.toml") if file.is_file())
    if not files:
        raise PlanError(ErrorCode.PLAN_CHAIN, f"{path}: the folder holds no *.toml plan.")
    if len(files) > MAX_PLANS:
        raise PlanError(
            ErrorCode.PLAN_CHAIN, f"{path}: more than {MAX_PLANS} plans; merge the old ones."
        )
    plans = {file: _read(file, f"{path}: {file.name}") for file in files}
    try:
        return _chain(plans)
    except PlanError as error:
        raise PlanError(ErrorCode(error.code), f"{path}: {error.message}") from None


def _chain(plans: dict[Path, Plan]) -> Chain:
    by_id: dict[str, tuple[Path, Plan]] = {}
    for file, plan in plans.items():
        if not plan.id:
            raise PlanError(ErrorCode.PLAN_CHAIN, f'{file.name}: a plan in a chain needs an '
                            'id: write id = "..." above its first [[step]].')  # fmt: skip
        if plan.id in by_id:
            raise PlanError(ErrorCode.PLAN_CHAIN, f"{file.name}: id = {plan.id!r} is also "
                            f"{by_id[plan.id][0].name}'s; give each plan its own.")  # fmt: skip
        by_id[plan.id] = (file, plan)
    ordered = _ordered(by_id)
    links = tuple(Link(i, by_id[i][1], _model(by_id[i][1], by_id[i][0]), str(by_id[i][0]))
                  for i in ordered)  # fmt: skip
    return Chain(links, len(links))


def _ordered(by_id: Any) -> list[str]:
    """The ids from the first plan on, each followed by the plan naming it `after`."""
    ids = ", ".join(sorted(by_id))
    following: dict[str | None, str] = {}
    for plan_id, (file, plan) in sorted(by_id.items()):
        if plan.after is not None and plan.after not in by_id:
            raise PlanError(ErrorCode.PLAN_CHAIN, f"{file.name}: after = {plan.after!r}: no "
                            f"plan has that id; the ids are {ids}.")  # fmt: skip
        if plan.after in following:
            what = f"after = {plan.after!r}" if plan.after else "no `after`"
            raise PlanError(ErrorCode.PLAN_CHAIN, f"{file.name}: {what}, as the plan "
                            f"{following[plan.after]!r}: a chain has one plan after each, "
                            "and one first plan (no `after`).")  # fmt: skip
        following[plan.after] = plan_id
    if None not in following:
        raise PlanError(ErrorCode.PLAN_CHAIN, f"every plan names one it comes after ({ids}): "
                        "a cycle; the first plan has no `after`.")  # fmt: skip
    order: list[str] = []
    here: str | None = None
    while here in following:
        here = following[here]
        order.append(here)
    if len(order) < len(by_id):
        stuck = ", ".join(sorted(set(by_id) - set(order)))
        raise PlanError(ErrorCode.PLAN_CHAIN, f"the plans {stuck} follow one another in a "
                        "cycle: none of them comes after the first plan's chain.")  # fmt: skip
    return order


def _read(file: Path, named: str) -> Plan:
    """The plan in `file`; a refusal names it as `named` (the folder's path and its name)."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise PlanError(ErrorCode.PLAN_TOML, f"{named} cannot be read ({why}).") from None
    try:
        return parse_plan(text)
    except PlanError as error:
        raise PlanError(ErrorCode(error.code), f"{named}: {error.message}") from None


def _model(plan: Plan, file: Path) -> type[BaseModel] | None:
    if plan.model is None:
        return None
    from core.project.checks import load_model  # the user's code: imported only when named

    try:
        return load_model(plan.model)
    except CodedError as error:
        raise PlanError(ErrorCode.PLAN_CHAIN, f"{file.name}: model = {plan.model!r}: "
                        f"{error.message}") from None  # fmt: skip
