/**
 * A learner's error output, bounded: its head (where a startup error is) and its tail (where the
 * traceback of a crash is), with how much was left out between them. A program that floods stderr is not
 * stopped for it, and its traceback is still there at the end.
 */
export class StderrKeeper {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes seen in all. */
  private total = 0;

  constructor(private readonly limitBytes: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const half = Math.floor(this.limitBytes / 2);
    const headRoom = Math.max(0, half - this.headBytes);
    if (headRoom > 0) {
      const part = chunk.length > headRoom ? chunk.subarray(0, headRoom) : chunk;
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // Drop whole chunks from the front while the rest still fills the tail's half.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.limitBytes - half) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tailAll = Buffer.concat(this.tail);
    const tailRoom = this.limitBytes - Math.floor(this.limitBytes / 2);
    if (this.headBytes + tailAll.length === this.total && tailAll.length <= tailRoom)
      return head + tailAll.toString('utf8');
    // Start the tail at a line: half a line (or half a character) would only confuse.
    let tail = tailAll.subarray(Math.max(0, tailAll.length - tailRoom));
    const newline = tail.indexOf(10);
    if (newline >= 0 && newline < tail.length - 1) tail = tail.subarray(newline + 1);
    const leftOut = this.total - this.headBytes - tail.length;
    return `${head}${head.endsWith('\n') ? '' : '\n'}… (${leftOut.toLocaleString('en-US')} bytes of error output left out) …\n${tail.toString('utf8')}`;
  }
}
