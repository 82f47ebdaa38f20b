/**
 * The two small programs that run a learner program under a line tracer (see lineTrace.ts). They are
 * passed inline (`python3 -c`, `node -e`), so a sandbox that shows only the learner's folder and the
 * pack's driver needs no extra file. Each takes one JSON argument before the target's own arguments:
 * `{ nonce, files, ends }` (the files whose lines count, and the cumulative number of answer lines after
 * each command), and writes its records to stderr, one per line, each `\x1e<nonce> <json>`:
 * `[kind, value, {fileIndex: [lines]}, stdoutLines]`, the lines being those that ran since the previous
 * record. Kinds: `R` stdin line `value` is handed to the program, `E` the program reads end of input,
 * `B` it reads stdin in bulk, `A` `value` answers are complete, `X` the program ends.
 */

export const PYTHON_TRACE_BOOTSTRAP = String.raw`
import json, os, runpy, sys


def _lesson_companion_trace():
    config = json.loads(sys.argv[1])
    target = sys.argv[2]
    sys.argv = sys.argv[2:]
    marker = ("\x1e" + config["nonce"] + " ").encode()
    wanted = {os.path.realpath(name): index for index, name in enumerate(config["files"])}
    ends = config["ends"]
    hits = {}
    state = {"lines": 0, "done": 0, "read": 0, "eof": False, "bulk": False}
    while state["done"] < len(ends) and ends[state["done"]] <= 0:
        state["done"] += 1

    def emit(kind, value):
        record = json.dumps([kind, value, {str(i): sorted(s) for i, s in hits.items()}, state["lines"]], separators=(",", ":"))
        hits.clear()
        data = marker + record.encode() + b"\n"
        try:
            while data:
                data = data[os.write(2, data):]
        except OSError:
            pass

    index_by_name = {}
    local_tracers = {}

    def tracer_for(index):
        def local(frame, event, arg):
            if event == "line":
                lines = hits.get(index)
                if lines is None:
                    lines = hits[index] = set()
                lines.add(frame.f_lineno)
            return local
        return local

    def tracer(frame, event, arg):
        name = frame.f_code.co_filename
        index = index_by_name.get(name)
        if index is None:
            index = -1 if not name or name.startswith("<") else wanted.get(os.path.realpath(name), -1)
            index_by_name[name] = index
        if index < 0:
            return None
        local = local_tracers.get(index)
        if local is None:
            local = local_tracers[index] = tracer_for(index)
        return local

    real_in, real_out = sys.stdin, sys.stdout
    raw_in = real_in.buffer
    encoding, errors = real_in.encoding or "utf-8", real_in.errors or "strict"

    def bulk():
        # Only the first read matters: it ends the program's start-up.
        if not state["bulk"]:
            state["bulk"] = True
            emit("B", state["read"])

    def take_line(size):
        if size is not None and size >= 0:
            bulk()
            return raw_in.readline(size)
        line = raw_in.readline()
        if line:
            emit("R", state["read"])
            state["read"] += 1
        elif not state["eof"]:
            state["eof"] = True
            emit("E", state["read"])
        return line

    class LineReader:
        """stdin, one line at a time: which command the program is on is the last line it was handed."""

        def __init__(self, binary):
            self._binary = binary
            self._real = raw_in if binary else real_in
            if not binary:
                self.buffer = LineReader(True)
                self.encoding, self.errors = encoding, errors

        def _out(self, data):
            return data if self._binary else data.decode(encoding, errors).replace("\r\n", "\n")

        def readline(self, size=-1):
            return self._out(take_line(size))

        def __iter__(self):
            return self

        def __next__(self):
            line = self.readline()
            if not line:
                raise StopIteration
            return line

        def read(self, size=-1):
            bulk()
            return self._out(raw_in.read() if size is None or size < 0 else raw_in.read(size))

        def read1(self, size=-1):
            bulk()
            return raw_in.read1(size)

        def readlines(self, hint=-1):
            bulk()
            return [self._out(line) for line in raw_in.readlines()]

        def isatty(self):
            return False

        def readable(self):
            return True

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def __getattr__(self, name):
            if name.startswith("_"):
                raise AttributeError(name)
            return getattr(self._real, name)

    def wrote(count):
        if count:
            state["lines"] += count
            done = state["done"]
            while done < len(ends) and ends[done] <= state["lines"]:
                done += 1
            if done != state["done"]:
                state["done"] = done
                emit("A", done)

    class CountingWriter:
        """stdout as it was, counting answer lines: an answer's last line marks where its command ends."""

        def __init__(self, real, newline):
            self._real, self._newline = real, newline
            if newline == "\n":
                self.buffer = CountingWriter(real.buffer, b"\n")

        def write(self, data):
            written = self._real.write(data)
            try:
                wrote(data.count(self._newline))
            except (TypeError, AttributeError):
                pass
            return written

        def writelines(self, lines):
            for line in lines:
                self.write(line)

        def __getattr__(self, name):
            if name.startswith("_"):
                raise AttributeError(name)
            return getattr(self._real, name)

    sys.stdin = LineReader(False)
    sys.stdout = CountingWriter(real_out, "\n")
    sys.path[0] = os.path.dirname(os.path.abspath(target))
    failure = None
    sys.settrace(tracer)
    try:
        runpy.run_path(target, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as error:
        failure = error
    finally:
        sys.settrace(None)
        try:
            real_out.flush()
        except Exception:
            pass
        emit("X", 0)
    if failure is not None:
        # The traceback a plain run prints: from the program's first frame, without this bootstrap's and runpy's.
        import traceback
        frames = failure.__traceback__
        while frames is not None and (frames.tb_frame.f_code.co_filename.startswith("<") or frames.tb_frame.f_code.co_filename == runpy.__file__):
            frames = frames.tb_next
        traceback.print_exception(type(failure), failure, frames)
        sys.exit(1)


_lesson_companion_trace()
`;

export const NODE_TRACE_BOOTSTRAP = String.raw`
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');
const { EventEmitter } = require('node:events');
const { fileURLToPath } = require('node:url');
const config = JSON.parse(process.argv[1]);
process.argv.splice(1, 1);
const { writeSync, readFileSync, readSync } = fs;
const marker = '\x1e' + config.nonce + ' ';
const realpath = (file) => { try { return fs.realpathSync(file); } catch { return path.resolve(file); } };
const wanted = new Map(config.files.map((file, index) => [realpath(file), index]));
const ends = config.ends;
let lines = 0;
let done = 0;
let read = 0;
let eof = false;
while (done < ends.length && ends[done] <= 0) done++;

const session = new inspector.Session();
session.connect();
// The in-process inspector answers synchronously, so a snapshot can be taken in the middle of a write.
function post(method, params) {
  let failure = null;
  let answer;
  session.post(method, params || {}, (error, result) => { failure = error; answer = result; });
  if (failure) throw failure;
  return answer;
}
post('Profiler.enable');
post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

// Per script: its index in config.files and, per line, the offset of the line's first code character
// (-1 for blank, comment-only and bracket-only lines, which no statement starts on).
const scripts = new Map();
function scriptOf(url) {
  let script = scripts.get(url);
  if (script !== undefined) return script;
  script = null;
  let file = null;
  if (url.startsWith('file:')) file = fileURLToPath(url);
  else if (path.isAbsolute(url)) file = url;
  const index = file === null ? undefined : wanted.get(realpath(file));
  if (index !== undefined) {
    const text = readFileSync(file, 'utf8');
    const codeAt = [];
    let start = 0;
    for (const line of text.split('\n')) {
      const indent = line.length - line.trimStart().length;
      const code = line.trim();
      const none = code === '' || code.startsWith('//') || code.startsWith('/*') || code.startsWith('*') || /^[\s{}()\[\];,]*$/.test(code);
      codeAt.push(none ? -1 : start + indent);
      start += line.length + 1;
    }
    script = { index, codeAt };
  }
  scripts.set(url, script);
  return script;
}

// A line ran when the innermost block range holding its first code character counted at least once.
function linesRun(script, functions) {
  const ranges = [];
  for (const fn of functions) for (const range of fn.ranges) ranges.push(range);
  ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const counts = new Array(script.codeAt.length).fill(0);
  for (const range of ranges) {
    for (let line = 0; line < script.codeAt.length; line++) {
      const at = script.codeAt[line];
      if (at >= range.startOffset && at < range.endOffset) counts[line] = range.count;
    }
  }
  const run = [];
  counts.forEach((count, line) => { if (count > 0 && script.codeAt[line] >= 0) run.push(line + 1); });
  return run;
}

function emit(kind, value) {
  const hits = {};
  for (const entry of post('Profiler.takePreciseCoverage').result) {
    const script = scriptOf(entry.url);
    if (!script) continue;
    const run = linesRun(script, entry.functions);
    if (run.length > 0) hits[script.index] = (hits[script.index] || []).concat(run);
  }
  try { writeSync(2, marker + JSON.stringify([kind, value, hits, lines]) + '\n'); } catch {}
}

function wrote(chunk) {
  let count = 0;
  if (typeof chunk === 'string') { for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) count++; }
  else if (chunk instanceof Uint8Array) { for (const byte of chunk) if (byte === 10) count++; }
  if (count === 0) return;
  lines += count;
  let next = done;
  while (next < ends.length && ends[next] <= lines) next++;
  if (next !== done) { done = next; emit('A', done); }
}

const stdout = process.stdout;
const stdoutWrite = stdout.write;
stdout.write = function (chunk, ...rest) { const result = stdoutWrite.call(this, chunk, ...rest); wrote(chunk); return result; };
fs.writeSync = function (fd, data, ...rest) { const result = writeSync.call(this, fd, data, ...rest); if (fd === 1) wrote(data); return result; };
// Only the first read matters: it ends the program's start-up.
let readAny = false;
const bulk = () => { if (!readAny) { readAny = true; emit('B', read); } };
const stdin = process.stdin;
const stdinEmit = stdin.emit;
stdin.emit = function (name, ...args) { if (name === 'data') bulk(); return stdinEmit.call(this, name, ...args); };
const stdinRead = stdin.read;
stdin.read = function (...args) { const chunk = stdinRead.apply(this, args); if (chunk !== null) bulk(); return chunk; };
fs.readFileSync = function (file, ...rest) { if (file === 0 || file === '/dev/stdin') bulk(); return readFileSync.call(this, file, ...rest); };
fs.readSync = function (fd, ...rest) { if (fd === 0) bulk(); return readSync.call(this, fd, ...rest); };

// readline hands out one line per 'line' event: the command the program is on is the last one handed out.
let base = require('node:readline').Interface.prototype;
while (Object.getPrototypeOf(base) !== EventEmitter.prototype) base = Object.getPrototypeOf(base);
base.emit = function (name, ...args) {
  if (this.input === stdin) {
    if (name === 'line') { emit('R', read); read++; }
    else if (name === 'close' && !eof) { eof = true; emit('E', read); }
  }
  return EventEmitter.prototype.emit.call(this, name, ...args);
};

process.on('exit', () => emit('X', 0));
require('node:module').runMain();
`;
