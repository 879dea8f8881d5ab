"""Hypothesis strategies for migration tests: plans, and states shaped after their paths."""

import json

from hypothesis import strategies as st

from core.migrate.plan import COERCIONS, Plan, Step, split_path

names = st.sampled_from(["a", "b", "items", "sku", "qty"])
paths = st.lists(st.tuples(names, st.booleans()), min_size=1, max_size=3).map(
    lambda parts: ".".join(name + ("[*]" if every else "") for name, every in parts)
)
# values a map's `from` and a state share often, so maps and coerces find something to do
common = st.sampled_from([None, True, False, 0, 1, 1.0, 3, "3", "2.5", "true", "1e3", "x", ""])
scalars = common | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(names, children, max_size=3),
    max_leaves=10,
)
steps = st.one_of(
    st.builds(Step, path=paths, action=st.just("default"), value=json_values),
    st.builds(Step, path=paths, action=st.just("drop")),
    st.builds(Step, path=paths, action=st.just("map"), from_=common, to=json_values),
    st.builds(Step, path=paths, action=st.just("rename"), to=names),
    st.builds(Step, path=paths, action=st.just("coerce"), to=st.sampled_from(COERCIONS)),
)
plans = st.lists(steps, min_size=1, max_size=5).map(lambda s: Plan(steps=s))


@st.composite
def shaped(draw, parts, leaves):
    """A JSON value laid out along `parts` (a split path), with noise: a field missing now
    and then, other fields beside it, other values beside a list's objects."""
    if not parts:  # the value a step acts on
        return draw(st.one_of(leaves, common, scalars, json_values))
    if parts[0] == "[*]":
        elements = st.one_of(shaped(parts[1:], leaves), scalars)
        return draw(st.lists(elements, min_size=1, max_size=3))
    node = draw(st.dictionaries(names, json_values, max_size=2))
    if not (draw(st.booleans()) and draw(st.booleans())):
        node[parts[0]] = draw(shaped(parts[1:], leaves))
    return node


@st.composite
def states_for(draw, plan):
    """A state (an object) shaped after the paths of the plan's steps, holding the values
    its maps look for."""
    wanted = [step.from_ for step in plan.steps if step.action == "map"]
    leaves = st.sampled_from(wanted) if wanted else common
    state = draw(st.dictionaries(names, json_values, max_size=2))
    for step in plan.steps:
        laid_out = draw(shaped(split_path(step.path), leaves))
        if isinstance(laid_out, dict):
            state.update(laid_out)
    return state


@st.composite
def plans_and_states(draw):
    plan = draw(plans)
    return plan, draw(states_for(plan))


def exact(value):
    """JSON text: tells 1 from 1.0 and from true, which == does not."""
    return json.dumps(value, sort_keys=True)
