// The edges of src/core/model/transcript.ts that transcript.test.ts and packBounds.test.ts leave open: the bounds
// exactly at their limit, header names around the colon, the exact reasons an author reads, and formatting a
// transcript with no description. Every text is built inside its test (perTest mutation coverage).
import * as assert from 'node:assert/strict';
import { formatTranscript, parseTranscripts, TRANSCRIPT_LIMITS } from '../../src/core/model/transcript';
import { syntaxError } from './transcriptErrors';

describe('transcript bounds at their limit', () => {
  it('takes a line of exactly the longest length, and refuses one character more', () => {
    const answer = 'a'.repeat(TRANSCRIPT_LIMITS.lineChars);
    assert.deepEqual(parseTranscripts(`=== t\n> PICK\n${answer}\n`, 't.txt')[0]!.steps[0]!.expected, [answer]);
    const e = syntaxError(`=== t\n> PICK\n${answer}b\n`);
    assert.deepEqual(
      [e.line, e.reason],
      [3, 'the line is 1001 characters long; a transcript line may be at most 1000'],
    );
  });

  it('counts the words of a command, not the spaces between them', () => {
    // POOL and 199 names: 200 words, spaced by two spaces and a tab (801 characters, inside the line limit).
    const command = `POOL  \t${Array.from({ length: TRANSCRIPT_LIMITS.wordsPerCommand - 1 }, () => 'b').join('  \t')}`;
    assert.equal(parseTranscripts(`=== t\n> ${command}\nOK\n`, 't.txt')[0]!.steps[0]!.command, command);
    const e = syntaxError(`=== t\n> ${command} extra\nOK\n`);
    assert.deepEqual([e.line, e.reason], [2, 'the command has 201 words; a command may have at most 200']);
  });

  it('takes a file of exactly the most transcripts, and refuses one more at its header', () => {
    const file = (n: number): string => Array.from({ length: n }, (_, i) => `=== t${i}\n> PICK\nEMPTY\n`).join('');
    const limit = TRANSCRIPT_LIMITS.transcriptsPerFile;
    assert.equal(parseTranscripts(file(limit), 't.txt').length, limit);
    const e = syntaxError(file(limit + 1));
    assert.deepEqual(
      [e.line, e.reason],
      [3 * limit + 1, 'this file holds more than 1000 transcripts; split them over several files'],
    );
  });
});

describe('transcript headers and reasons', () => {
  it('trims the name and the description around the colon', () => {
    const [t] = parseTranscripts("===   worked-trace   :   the lesson's trace  \n> PICK\nEMPTY\n", 't.txt');
    assert.equal(t!.name, 'worked-trace');
    assert.equal(t!.description, "the lesson's trace");
    const [bare] = parseTranscripts('===  bare  \n> PICK\nEMPTY\n', 't.txt');
    assert.deepEqual([bare!.name, bare!.description], ['bare', '']);
  });

  it('says which name is wrong, also an empty one before the colon', () => {
    const rule = "must be lower-case letters, digits, '.', '_' or '-'";
    assert.equal(syntaxError('=== : only a description\n> PICK\n').reason, `transcript name "" ${rule}`);
    assert.equal(syntaxError('=== Bad: x\n> PICK\n').reason, `transcript name "Bad" ${rule}`);
  });

  it('says which name is defined twice, at its second header', () => {
    const e = syntaxError('=== t\n> PICK\nEMPTY\n=== t: again\n> PICK\n');
    assert.deepEqual([e.line, e.reason], [4, 'transcript "t" is defined twice']);
  });

  it('says a ">" line needs a command', () => {
    const e = syntaxError('=== t\n>\n');
    assert.deepEqual([e.line, e.reason], [2, 'a "> " line needs a command']);
  });

  it('is an error named TranscriptSyntaxError whose message starts with file and line', () => {
    const e = syntaxError('> PICK\n', 'transcripts/x.txt');
    assert.equal(e.name, 'TranscriptSyntaxError');
    assert.equal(e.message, 'transcripts/x.txt:1: expected "=== <name>" before the first command');
  });
});

describe('formatting a transcript', () => {
  it('writes a header without a colon when there is no description', () => {
    const steps = [
      { command: 'POOL a', expected: ['OK'], line: 2 },
      { command: 'PICK', expected: ['a'], line: 4 },
    ];
    const text = formatTranscript({ name: 'plain', description: '', steps });
    assert.equal(text, '=== plain\n> POOL a\nOK\n> PICK\na\n');
    assert.deepEqual(parseTranscripts(text, 't.txt')[0]!.steps, steps);
  });
});
