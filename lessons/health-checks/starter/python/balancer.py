# lesson-companion: health-checks
"""A least-connections load balancer that skips unhealthy backends and caps each one, driven by stdin.

The command loop at the bottom is written for you, and so are POOL, CAP and STATUS. Your job is the
bookkeeping in the Balancer class: `pick`, `done`, `down` and `up`.

Run it by hand and type commands, one per line (Ctrl-D to finish):

    python3 balancer.py
    POOL a b c
    PICK
    DOWN a
    PICK
    STATUS
"""
import sys

# What pick() returns when it cannot hand out a backend; the command loop prints it as it is.
EMPTY = "EMPTY"  # nowhere to send: the pool is empty, or no backend is healthy
BUSY = "BUSY"  # somewhere to send, but every healthy backend is at the cap: the request waits


class Balancer:
    def __init__(self):
        # Pool order matters: a tie goes to the backend listed first.
        self.pool = []
        # One counter per backend: requests sent there that have not finished yet.
        self.in_flight = {}
        # One health flag per backend, set by DOWN and UP (a health checker would call them).
        self.healthy = {}
        # The most requests one backend may have in flight. 0 means no limit.
        self.cap = 0

    def replace(self, names):
        """POOL: a new pool, every backend healthy with 0 in flight. The cap stays as it was."""
        self.pool = list(names)
        self.in_flight = {name: 0 for name in self.pool}
        self.healthy = {name: True for name in self.pool}

    def limit(self, cap):
        """CAP: the most requests one backend may have in flight; 0 means no limit."""
        self.cap = cap

    def pick(self):
        """Choose a backend for a new request and count the request on it at once.

        Only a healthy backend with fewer than `cap` requests in flight may take it (any number when cap is 0).
        Among those, the fewest in flight wins; a tie goes to the first of them in pool order.
        Return its name; EMPTY when the pool is empty or no backend is healthy; BUSY when some backend is
        healthy but every healthy one is at the cap.
        """
        raise NotImplementedError("pick() is not written yet")

    def done(self, backend):
        """One request on `backend` has finished, whether the backend is healthy or down.

        A count at 0 stays at 0. A name that is not in the pool is ignored.
        """
        raise NotImplementedError("done() is not written yet")

    def down(self, backend):
        """The health check failed: no new requests for `backend` until it is up again.

        Its requests already in flight still count, and still finish. A name not in the pool is ignored.
        """
        raise NotImplementedError("down() is not written yet")

    def up(self, backend):
        """The health check passes again: `backend` may take new requests.

        Its in-flight count stays what it is. A name not in the pool is ignored.
        """
        raise NotImplementedError("up() is not written yet")


def main():
    balancer = Balancer()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "POOL":
            balancer.replace(args)
            print("OK")
        elif command == "CAP":
            if len(args) == 1 and args[0].isdigit():
                balancer.limit(int(args[0]))
                print("OK")
            else:
                print("ERROR")
        elif command == "DOWN":
            if args:
                balancer.down(args[0])
            print("OK")
        elif command == "UP":
            if args:
                balancer.up(args[0])
            print("OK")
        elif command == "PICK":
            print(balancer.pick())
        elif command == "DONE":
            if args:
                balancer.done(args[0])
            print("OK")
        elif command == "STATUS":
            # Sorted by name, whatever the pool order; " down" marks a backend that is not healthy.
            for name in sorted(balancer.in_flight):
                mark = "" if balancer.healthy.get(name, True) else " down"
                print(f"{name}:{balancer.in_flight[name]}{mark}")
        else:
            print("ERROR")


if __name__ == "__main__":
    main()
