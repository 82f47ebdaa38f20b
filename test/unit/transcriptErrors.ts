/** For the transcript parser's tests: the syntax error parsing `text` throws, so a test can look at its file, line and reason. */
import * as assert from 'node:assert/strict';
import { parseTranscripts, TranscriptSyntaxError } from '../../src/core/model/transcript';

export function syntaxError(text: string, file = 'transcripts/t.txt'): TranscriptSyntaxError {
  try {
    parseTranscripts(text, file);
  } catch (error) {
    assert.ok(error instanceof TranscriptSyntaxError, `expected a TranscriptSyntaxError, got ${String(error)}`);
    return error;
  }
  assert.fail('the parser accepted a broken transcript');
}
