"""core.heavy: N jobs hold a slot, the rest queue in arrival order; cancel, timeouts, the setting."""

from __future__ import annotations

import threading

import pytest

from core.errors import ErrorCode
from core.heavy import HEAVY_JOBS_ENV, GateState, HeavyGate, HeavyJobs, heavy_jobs

JOIN_SECONDS = 10  # a thread that has not finished by then is stuck: the test fails


def _finished(*threads: threading.Thread) -> list[bool]:
    for thread in threads:
        thread.join(JOIN_SECONDS)
    return [not thread.is_alive() for thread in threads]


def test_n_jobs_hold_a_slot_at_once_and_the_next_one_waits_first_in_line():
    gate = HeavyGate(2)
    tickets = [gate.enter() for _ in range(4)]
    assert gate.state() == GateState(slots=2, running=(1, 2), waiting=(3, 4))
    assert [gate.ahead(t) for t in tickets] == [0, 0, 1, 2]
    assert [gate.acquire(t, timeout=0) for t in tickets] == [True, True, False, False]


def test_a_queued_job_times_out_still_in_its_place():
    gate = HeavyGate(1)
    holder, waiter = gate.enter(), gate.enter()
    assert gate.acquire(waiter, timeout=0.01) is False
    assert (gate.state(), gate.ahead(waiter)) == (GateState(1, (holder,), (waiter,)), 1)


def test_a_job_waiting_in_another_thread_runs_once_the_slot_is_freed():
    gate = HeavyGate(1)
    holder, waiter = gate.enter(), gate.enter()
    got: list[tuple[int, bool]] = []
    thread = threading.Thread(target=lambda: got.append((waiter, gate.acquire(waiter))))
    thread.start()
    gate.leave(holder)  # the slot passes to the waiter here, under the lock
    assert gate.state() == GateState(1, (waiter,), ())
    assert (_finished(thread), got) == ([True], [(waiter, True)])


def test_cancel_leaves_the_queue_and_the_jobs_behind_move_up():
    gate = HeavyGate(1)
    holder, first, second, third = (gate.enter() for _ in range(4))
    gate.leave(second)
    assert gate.state() == GateState(1, (holder,), (first, third))
    assert [gate.ahead(first), gate.ahead(third)] == [1, 2]
    gate.leave(second)  # leaving twice is harmless
    assert gate.state() == GateState(1, (holder,), (first, third))
    with pytest.raises(ValueError, match="ticket 3 is not in the gate"):
        gate.ahead(second)
    with pytest.raises(ValueError, match="ticket 3 is not in the gate"):
        gate.acquire(second, timeout=0)


def test_freed_slots_go_to_the_waiting_jobs_in_arrival_order():
    gate = HeavyGate(2)
    tickets = [gate.enter() for _ in range(5)]
    seen = [gate.state()]
    for ticket in (tickets[1], tickets[0], tickets[3]):
        gate.leave(ticket)
        seen.append(gate.state())
    assert seen == [
        GateState(2, (1, 2), (3, 4, 5)),
        GateState(2, (1, 3), (4, 5)),
        GateState(2, (3, 4), (5,)),
        GateState(2, (3, 5), ()),
    ]


def test_threads_queued_behind_one_job_run_one_after_another_in_arrival_order():
    gate = HeavyGate(1)
    holder = gate.enter()
    order: list[int] = []

    def job(ticket: int) -> None:
        assert gate.acquire(ticket)
        order.append(ticket)  # in its slot: no other job appends at the same time
        gate.leave(ticket)

    # tickets are taken here, in this order; the threads may start waiting in any order
    threads = [threading.Thread(target=job, args=(gate.enter(),)) for _ in range(4)]
    for thread in reversed(threads):
        thread.start()
    gate.leave(holder)
    assert (_finished(*threads), order) == ([True] * 4, [2, 3, 4, 5])
    assert gate.state() == GateState(1, (), ())


def test_n_jobs_in_their_slots_run_at_the_same_time_while_the_next_one_waits():
    gate = HeavyGate(2)
    both_in = threading.Barrier(3)  # passes only while both jobs hold their slots at once
    first, second, third = gate.enter(), gate.enter(), gate.enter()

    def job(ticket: int) -> None:
        assert gate.acquire(ticket)
        both_in.wait(JOIN_SECONDS)
        both_in.wait(JOIN_SECONDS)  # held until the test has looked at the gate
        gate.leave(ticket)

    threads = [threading.Thread(target=job, args=(t,)) for t in (first, second)]
    for thread in threads:
        thread.start()
    both_in.wait(JOIN_SECONDS)
    assert (gate.state(), gate.acquire(third, timeout=0)) == (GateState(2, (1, 2), (3,)), False)
    both_in.wait(JOIN_SECONDS)
    assert _finished(*threads) == [True, True]
    assert gate.state() == GateState(2, (third,), ())


def test_many_threads_through_one_gate_never_hold_more_than_its_slots():
    gate = HeavyGate(2)
    start = threading.Barrier(12)
    held: list[int] = []

    def job() -> None:
        start.wait(JOIN_SECONDS)  # all enter together: the gate, not the start order, decides
        ticket = gate.enter()
        try:
            assert gate.acquire(ticket)
            held.append(len(gate.state().running))
        finally:
            gate.leave(ticket)

    threads = [threading.Thread(target=job) for _ in range(12)]
    for thread in threads:
        thread.start()
    assert _finished(*threads) == [True] * 12
    assert (len(held), max(held) <= 2, gate.state()) == (12, True, GateState(2, (), ()))


def test_a_gate_needs_a_slot():
    with pytest.raises(ValueError, match="a gate needs at least one slot, not 0"):
        HeavyGate(0)


@pytest.mark.parametrize(
    ("environ", "cpus", "slots"),
    [
        ({}, 2, 2),
        ({HEAVY_JOBS_ENV: ""}, 8, 8),
        ({HEAVY_JOBS_ENV: "  "}, 2, 2),
        ({HEAVY_JOBS_ENV: "1"}, 2, 1),
        ({HEAVY_JOBS_ENV: " 16 "}, 2, 16),
        ({}, None, 1),  # os.cpu_count() could not tell
    ],
)
def test_the_setting_or_else_the_cpu_count_gives_the_slots(environ, cpus, slots):
    assert heavy_jobs(environ, cpus) == HeavyJobs(slots)


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", "+3", "١", "3 jobs"])
def test_a_setting_that_is_not_a_positive_integer_is_refused_with_its_code_and_the_default(value):
    jobs = heavy_jobs({HEAVY_JOBS_ENV: value}, 2)
    assert (jobs.slots, jobs.refused.code, str(jobs.refused)) == (
        2,
        ErrorCode.HEAVY_JOBS,
        f"[heavy_jobs] PLAYGROUND_HEAVY_JOBS={value!r} is not a positive integer; 2 (the CPU "
        "count) is used. Set it to a whole number of 1 or more, or unset it.",
    )


def test_a_long_refused_setting_is_shown_clipped():
    jobs = heavy_jobs({HEAVY_JOBS_ENV: "x" * 500}, 4)
    assert str(jobs.refused) == (
        f"[heavy_jobs] PLAYGROUND_HEAVY_JOBS={'x' * 39 + '…'!r} is not a positive integer; 4 "
        "(the CPU count) is used. Set it to a whole number of 1 or more, or unset it."
    )
