/**
 * The command line's output, written to file descriptors 1 and 2 directly. Node's `process.stdout` for a pipe
 * or a terminal loads its stream and socket modules first: about 3 ms of a `lessons` whose own work is 60.
 * Written whole, in order, before the call returns, as Node's own streams do for pipes, files and terminals
 * on Linux and macOS. A descriptor that would block (a non-blocking pipe a parent process left, EAGAIN) hands
 * this write and every later one to Node's stream, which waits for it; a reader that went away (EPIPE:
 * `lesson-companion lessons | head`) ends the process quietly, with the exit code it had.
 */
import * as fs from 'node:fs';

export type Writer = (text: string) => void;

/** `writeSync` is fs.writeSync; a test gives its own, to meet EAGAIN on demand. */
export function descriptorWriter(
  fd: number,
  stream: () => NodeJS.WritableStream,
  writeSync: (fd: number, bytes: Uint8Array, offset: number) => number = fs.writeSync,
): Writer {
  let viaStream: NodeJS.WritableStream | undefined;
  return (text) => {
    if (viaStream) return void viaStream.write(text);
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (code !== 'EAGAIN') throw error;
      viaStream = stream();
      viaStream.write(bytes.subarray(written));
    }
  };
}
