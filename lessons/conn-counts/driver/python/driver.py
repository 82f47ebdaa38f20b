"""Driver for lesson conn-counts: runs the learner's least_conn module on the lesson protocol.

    python3 driver.py path/to/least_conn.py      # then type commands, one per line

Commands (answers on stdout, one line each unless said otherwise):

    RESET               OK             a fresh ConnCounts() and an empty backends tuple
    BACKENDS b1 b2 ...  OK             the backends tuple for the following PICKs (may be empty)
    PICK                <name>         pick(counts, backends); NONE if it returned None
    OPEN b              OK             connection_opened(counts, b)
    CLOSE b             OK             connection_closed(counts, b)
    ACTIVE              name:count     one line per key of counts.active, sorted by name

A ValueError or KeyError from the learner's code is answered `ERROR ValueError` /
`ERROR KeyError` and the session goes on: which command raised it is the useful part.
Anything else (NotImplementedError included) is a real crash, traceback and all, so the
checker can say "not written yet" or show where the code broke.
"""
import importlib.util
import os
import sys


def load(path):
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    # The learner's own imports: siblings, and the package root when the module lives in a package.
    sys.path.insert(0, folder)
    if os.path.exists(os.path.join(folder, "__init__.py")):
        sys.path.insert(0, os.path.dirname(folder))
    spec = importlib.util.spec_from_file_location("least_conn", path)
    module = importlib.util.module_from_spec(spec)
    # dataclasses looks the module up in sys.modules while building ConnCounts.
    sys.modules["least_conn"] = module
    spec.loader.exec_module(module)
    return module


def say(line):
    print(line, flush=True)


def guarded(call):
    """The learner call's result, or the ERROR answer for the two exceptions the protocol names."""
    try:
        return True, call()
    except ValueError:
        return False, "ERROR ValueError"
    except KeyError:
        return False, "ERROR KeyError"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: driver.py <path to least_conn.py>")
    lc = load(sys.argv[1])
    counts = lc.ConnCounts()
    backends = ()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        verb, args = words[0], words[1:]
        if verb == "RESET":
            counts, backends = lc.ConnCounts(), ()
            say("OK")
        elif verb == "BACKENDS":
            backends = tuple(args)
            say("OK")
        elif verb == "PICK":
            ok, chosen = guarded(lambda: lc.pick(counts, backends))
            say(("NONE" if chosen is None else str(chosen)) if ok else chosen)
        elif verb in ("OPEN", "CLOSE") and len(args) == 1:
            function = lc.connection_opened if verb == "OPEN" else lc.connection_closed
            ok, error = guarded(lambda: function(counts, args[0]))
            say("OK" if ok else error)
        elif verb == "ACTIVE":
            for name in sorted(counts.active):
                say(f"{name}:{counts.active[name]}")
        else:
            say("ERROR")


if __name__ == "__main__":
    main()
