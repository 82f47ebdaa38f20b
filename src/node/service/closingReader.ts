/**
 * A message reader that stops waiting for the rest of a message once disposed. vscode-jsonrpc's reader, holding
 * part of a message, arms a 10 s timer that arms itself again for ever, dispose or not: a check service killed
 * in the middle of a message (SIGKILL, out of memory) would leave the editor a timer that never ends, and keep
 * any process that holds the client (a test run) from exiting.
 */
import { StreamMessageReader, type DataCallback, type Disposable } from 'vscode-jsonrpc/node';

export class ClosingMessageReader extends StreamMessageReader {
  private listening: Disposable | undefined;

  override listen(callback: DataCallback): Disposable {
    this.listening = super.listen(callback);
    return this.listening;
  }

  override dispose(): void {
    // No more data read (output the dead service left in the pipe would arm the timer again), then the timer.
    this.listening?.dispose();
    super.dispose();
    // Private in the library's types; absent in a version that no longer has it, and then nothing is to stop.
    (this as unknown as { clearPartialMessageTimer?: () => void }).clearPartialMessageTimer?.();
  }
}
