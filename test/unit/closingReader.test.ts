/**
 * The check service client's message reader (src/node/service/closingReader.ts): a service killed in the middle
 * of a message leaves the reader holding part of it, and vscode-jsonrpc's own reader then keeps a timer armed for
 * ever, which kept a test run's process from exiting. Real streams and the real library; no process is needed.
 */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StreamMessageReader } from 'vscode-jsonrpc/node';
import { ClosingMessageReader } from '../../src/node/service/closingReader';

const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

async function partialMessageLeft(reader: StreamMessageReader, stream: PassThrough): Promise<void> {
  reader.listen(() => undefined);
  stream.write('Content-Length: 100\r\n\r\n{"jsonrpc":"2.0",');
  await new Promise((resolve) => setImmediate(resolve));
}

describe('the check service client: a message cut short by a dead service', () => {
  it('the reader stops waiting for the rest once disposed', async () => {
    const stream = new PassThrough();
    const reader = new ClosingMessageReader(stream);
    await partialMessageLeft(reader, stream);
    const waiting = timers();
    reader.dispose();
    assert.equal(timers(), waiting - 1, 'its timer for the rest of the message is gone');
    // What a dead service left in the pipe is not read, and arms nothing.
    stream.write('{"more":');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(timers(), waiting - 1);
  });

  it("the library's own reader keeps its timer when disposed (why the client has its own)", async () => {
    const stream = new PassThrough();
    const reader = new StreamMessageReader(stream);
    await partialMessageLeft(reader, stream);
    const waiting = timers();
    reader.dispose();
    assert.equal(timers(), waiting, 'still waiting');
    // Mocha would otherwise wait on it: stopped here by hand, the way the client's reader does.
    (reader as unknown as { clearPartialMessageTimer: () => void }).clearPartialMessageTimer();
    assert.equal(timers(), waiting - 1);
  });
});
