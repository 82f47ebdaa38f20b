"""Session 2 walkthrough: watch the counter move the pick.

Run from the workspace root:

    PYTHONPATH=src python3 examples/lb/session_02_walkthrough.py

It stops with NotImplementedError until pick(), connection_opened() and
connection_closed() in src/lb/least_conn.py are written.
"""
from lb.least_conn import ConnCounts, connection_closed, connection_opened, pick

BACKENDS = ("s3", "s1", "s2")


def show(step: str, counts: ConnCounts) -> str:
    chosen = pick(counts, BACKENDS)
    active = ", ".join(f"{name}={counts.active[name]}" for name in sorted(counts.active)) or "(no entries)"
    print(f"{step:<34} active: {active:<22} pick -> {chosen}")
    return chosen


def main() -> None:
    counts = ConnCounts()
    print(f"backends = {BACKENDS}\n")

    # 1. Everything is at zero: a three-way tie, and the name decides, not the tuple order.
    assert show("start, all zero", counts) == "s1"

    # 2. Opening connections moves the pick away from the busy backend.
    connection_opened(counts, "s1")
    assert show("open s1", counts) == "s2"
    connection_opened(counts, "s2")
    assert show("open s2", counts) == "s3"
    connection_opened(counts, "s3")
    assert show("open s3 (tied again at 1)", counts) == "s1"

    # 3. Closing moves it back; a close at zero stays at zero.
    connection_closed(counts, "s2")
    assert show("close s2", counts) == "s2"
    connection_closed(counts, "s2")
    assert counts.active["s2"] == 0, "a count must never go below zero"
    show("close s2 again (floor at 0)", counts)

    # 4. pick() only reads: the same state gives the same answer, every time, in any order.
    before = dict(counts.active)
    first, second = pick(counts, BACKENDS), pick(counts, BACKENDS)
    assert first == second, "pick() must not change its own answer"
    assert counts.active == before, "pick() must not write to counts.active"
    twin = ConnCounts(active=dict(counts.active))
    assert pick(twin, tuple(reversed(BACKENDS))) == first, "the tuple order must not matter"

    # 5. No backends, nothing to pick.
    try:
        pick(counts, ())
    except ValueError:
        print("\npick(counts, ()) raised ValueError, as it should")
    else:
        raise AssertionError("pick() with no backends must raise ValueError")

    print("identical state gave identical picks: done")


if __name__ == "__main__":
    main()
