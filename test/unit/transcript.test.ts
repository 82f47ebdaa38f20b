import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatTranscript, parseTranscripts } from '../../src/core/model/transcript';
import { syntaxError } from './transcriptErrors';

const LESSON = path.join(__dirname, '..', '..', 'lessons', 'least-connections');

describe('transcript parser', () => {
  it('reads names, descriptions, commands, expected answers and the line of each command', () => {
    const text = [
      '# a comment before anything',
      '',
      '=== first: two backends',
      '> POOL a b',
      'OK',
      '> STATUS',
      'a:0',
      'b:0',
      '> DONE ghost',
      'OK',
      '=== second',
      '> STATUS',
      '> PICK',
      'EMPTY',
    ].join('\n');
    const [first, second, ...rest] = parseTranscripts(text, 'transcripts/t.txt');
    assert.equal(rest.length, 0);
    assert.equal(first!.name, 'first');
    assert.equal(first!.description, 'two backends');
    assert.equal(first!.file, 'transcripts/t.txt');
    assert.equal(first!.line, 3);
    assert.deepEqual(first!.steps, [
      { command: 'POOL a b', expected: ['OK'], line: 4 },
      { command: 'STATUS', expected: ['a:0', 'b:0'], line: 6 },
      { command: 'DONE ghost', expected: ['OK'], line: 9 },
    ]);
    assert.equal(second!.name, 'second');
    assert.equal(second!.description, '');
    // A command with no answer lines (STATUS on an empty pool) is a step with nothing expected.
    assert.deepEqual(second!.steps, [
      { command: 'STATUS', expected: [], line: 12 },
      { command: 'PICK', expected: ['EMPTY'], line: 13 },
    ]);
  });

  it('accepts Windows line endings and trailing spaces without making them part of an answer', () => {
    const [t] = parseTranscripts('=== crlf\r\n> PICK   \r\nEMPTY  \r\n', 'x.txt');
    assert.deepEqual(t!.steps, [{ command: 'PICK', expected: ['EMPTY'], line: 2 }]);
  });

  it('round-trips through formatTranscript', () => {
    const text = '=== round-trip: keeps everything\n> POOL a\nOK\n> STATUS\na:0\n> STATUS\n';
    const [t] = parseTranscripts(text, 'x.txt');
    assert.equal(formatTranscript(t!), text);
    assert.deepEqual(
      parseTranscripts(formatTranscript(t!), 'x.txt')[0]!.steps.map((s) => s.command),
      ['POOL a', 'STATUS', 'STATUS'],
    );
  });

  it("parses every hidden transcript of lesson least-connections, one per '===' header", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(LESSON, 'lesson.json'), 'utf8')) as { transcripts: string[] };
    for (const file of manifest.transcripts) {
      const text = fs.readFileSync(path.join(LESSON, file), 'utf8');
      const headers = text.split('\n').filter((l) => l.startsWith('===')).length;
      const parsed = parseTranscripts(text, file);
      assert.equal(parsed.length, headers, file);
      for (const t of parsed) assert.ok(t.steps.length > 0, `${file}: ${t.name} has commands`);
    }
  });

  describe('syntax errors name the file and the line', () => {
    it('a command before the first header', () => {
      const e = syntaxError('# fine\n> PICK\nEMPTY\n');
      assert.equal(e.file, 'transcripts/t.txt');
      assert.equal(e.line, 2);
      assert.match(e.reason, /=== <name>/);
      assert.equal(e.message, `transcripts/t.txt:2: ${e.reason}`);
    });

    it('an answer before any command', () => {
      const e = syntaxError('=== t\nOK\n> PICK\n');
      assert.equal(e.line, 2);
      assert.match(e.reason, /answer "OK" comes before any "> command"/);
    });

    it('a ">" with no command', () => {
      assert.equal(syntaxError('=== t\n> PICK\nEMPTY\n>   \n').line, 4);
    });

    it('a name that is not lower-case letters, digits, ".", "_" or "-"', () => {
      const e = syntaxError('=== ok\n> PICK\nEMPTY\n=== Bad Name: x\n> PICK\n');
      assert.equal(e.line, 4);
      assert.match(e.reason, /"Bad Name"/);
    });

    it('a name used twice, also right after the first (no other transcript in between)', () => {
      assert.equal(syntaxError('=== t\n> PICK\nEMPTY\n=== u\n> PICK\nEMPTY\n=== t\n> PICK\n').line, 7);
      assert.equal(syntaxError('=== t\n=== t\n> PICK\n').line, 2);
    });

    it('a transcript with no commands, at its header line', () => {
      const e = syntaxError('=== empty: nothing here\n# just a comment\n=== next\n> PICK\nEMPTY\n');
      assert.equal(e.line, 1);
      assert.match(e.reason, /"empty" has no commands/);
    });

    it('a file with no transcripts at all', () => {
      const e = syntaxError('# only comments\n\n');
      assert.equal(e.line, 1);
      assert.match(e.reason, /no transcripts/);
    });
  });
});
