# lesson-companion: conn-counts
"""Least connections, kept as a counter.

Round robin walks a blind index: it never learns which backend is still busy. Least
connections keeps exactly one integer per backend instead -- how many requests are in
flight there right now -- and sends the next request to the backend with the smallest one.

This module holds that counter and the three operations on it:

    counts = ConnCounts()                     # every backend starts with no entry, i.e. 0
    chosen = pick(counts, ("s1", "s2"))       # reads the counts, never changes them
    connection_opened(counts, chosen)         # the caller routes a request there
    connection_closed(counts, chosen)         # ... and reports when it finishes

pick() only *reads*. Keeping the counts honest is the caller's job: call
connection_opened() once a request has really been routed, and connection_closed()
once it is over. If a close is lost (a request hangs, a backend dies unnoticed) the
count stays inflated; real balancers add timeouts and health checks for that, which
this module leaves out on purpose.

Run the walkthrough from the workspace root once the three functions are written:

    PYTHONPATH=src python3 examples/lb/session_02_walkthrough.py
"""
from dataclasses import dataclass, field


@dataclass
class ConnCounts:
    """In-flight connections per backend name.

    A backend with no entry counts as 0. `field(default_factory=dict)` gives every
    ConnCounts its own dict; a plain `= {}` default would be one dict shared by all.
    """

    active: dict[str, int] = field(default_factory=dict)


def pick(counts: ConnCounts, backends: tuple[str, ...]) -> str:
    """Return the backend with the fewest active connections.

    Rules:
    - empty `backends`: raise ValueError (there is nothing to pick);
    - a backend missing from counts.active has 0 connections;
    - the winner is the minimum by (count, name): a tie goes to the name that sorts
      first, whatever order `backends` lists them in;
    - pick() never changes counts.active.
    """
    raise NotImplementedError("pick() is not written yet")


def connection_opened(counts: ConnCounts, backend: str) -> None:
    """A request was routed to `backend`: add one to its count.

    A backend with no entry yet starts from 0, so the first open makes it 1.
    """
    raise NotImplementedError("connection_opened() is not written yet")


def connection_closed(counts: ConnCounts, backend: str) -> None:
    """A request on `backend` finished: take one off its count, never below 0.

    A backend with no entry yet ends up with an entry of 0. Without the floor, a stray
    close (say, after a restart wiped the counts) would push a count negative and make
    that backend look more attractive than an idle one to every later pick().
    """
    raise NotImplementedError("connection_closed() is not written yet")
