# lesson-companion: least-connections
"""A least-connections load balancer, driven by commands on stdin.

The command loop at the bottom is written for you. Your job is the bookkeeping:
`pick` and `done` in the Balancer class.

Run it by hand and type commands, one per line (Ctrl-D to finish):

    python3 balancer.py
    POOL a b c
    PICK
    DONE a
    STATUS
"""
import sys


class Balancer:
    def __init__(self, pool):
        # Pool order matters: a tie goes to the backend listed first.
        self.pool = list(pool)
        # One counter per backend: requests sent there that have not finished yet.
        self.in_flight = {name: 0 for name in self.pool}

    def pick(self):
        """Choose the backend with the fewest requests in flight and count the new request on it.

        Ties go to the first of the tied backends in pool order.
        Return the chosen name, or None when the pool is empty.
        """
        raise NotImplementedError("pick() is not written yet")

    def done(self, backend):
        """One request on `backend` has finished.

        A count at 0 stays at 0. A name that is not in the pool is ignored.
        """
        raise NotImplementedError("done() is not written yet")


def main():
    balancer = Balancer([])
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "POOL":
            balancer = Balancer(args)
            print("OK")
        elif command == "PICK":
            chosen = balancer.pick()
            print("EMPTY" if chosen is None else chosen)
        elif command == "DONE":
            if args:
                balancer.done(args[0])
            print("OK")
        elif command == "STATUS":
            # Sorted by name, whatever the pool order: the two orders are different on purpose.
            for name in sorted(balancer.in_flight):
                print(f"{name}:{balancer.in_flight[name]}")
        else:
            print("ERROR")


if __name__ == "__main__":
    main()
