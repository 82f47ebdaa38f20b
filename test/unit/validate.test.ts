import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freshName, measureAdequacy } from '../../src/core/validation/adequacy';
import {
  archivePathProblem,
  compareVersions,
  integrityInput,
  isBundledPath,
  parseArchiveManifest,
} from '../../src/core/pack/archive';
import { lessonJsonSchemaText, LESSON_SCHEMA_FILE } from '../../src/worlds/templates/lessonJson';
import { parseLessonJson as parseManifest } from '../../src/worlds/templates/lessonJson';
import { friendlyManifestMessage } from '../../src/core/pack/manifestMessages';
import { model } from '../../lessons/least-connections/model/model';
import type { LessonManifest } from '../../src/core/pack/schema';
import { simulate } from '../../src/core/model/simulate';
import { parseTranscripts, type Transcript } from '../../src/core/model/transcript';
import {
  checkMistakes,
  checkQuestions,
  checkReadOrder,
  checkTranscriptsAgree,
} from '../../src/core/validation/validate';
import { scaffoldFiles } from '../../src/node/authoring/scaffoldFiles';

const root = path.resolve(__dirname, '..', '..');
const scaffold = scaffoldFiles('demo');
const manifestText = scaffold.get('lesson.json')!;
const manifest = JSON.parse(manifestText) as LessonManifest;
const transcripts = parseTranscripts(scaffold.get('transcripts/hidden.txt')!, 'transcripts/hidden.txt');
const starterFiles = {
  python: new Map([['balancer.py', scaffold.get('starter/python/balancer.py')!]]),
  javascript: new Map([['balancer.js', scaffold.get('starter/javascript/balancer.js')!]]),
  typescript: new Map([['balancer.ts', scaffold.get('starter/typescript/balancer.ts')!]]),
};
const input = (over: Partial<Parameters<typeof checkMistakes>[0]> = {}): Parameters<typeof checkMistakes>[0] => ({
  manifest,
  manifestText,
  manifestFile: 'lesson.json',
  model,
  transcripts,
  starterFiles,
  seed: 7,
  ...over,
});

describe('lesson.json JSON schema', () => {
  it('the committed media/lesson.schema.json is exactly what the TypeBox schema generates', () => {
    const committed = fs.readFileSync(path.join(root, LESSON_SCHEMA_FILE), 'utf8');
    assert.equal(
      committed,
      lessonJsonSchemaText(),
      'media/lesson.schema.json is stale: run `node scripts/write-schema.mjs`',
    );
  });

  it('is plain JSON Schema that requires what the runtime validator requires', () => {
    const schema = JSON.parse(lessonJsonSchemaText()) as {
      required: string[];
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    assert.ok(schema.required.includes('mistakes') && schema.required.includes('transcripts'));
    assert.equal(schema.additionalProperties, false);
    assert.ok(!schema.required.includes('quiz'), 'optional fields are not required');
  });
});

describe('validate: reference against hidden transcripts', () => {
  it('accepts transcripts the reference agrees with', () => {
    assert.deepEqual(checkTranscriptsAgree(model, transcripts), []);
  });

  it('points at file:line of the first command whose expected answer disagrees', () => {
    const wrong = parseTranscripts(
      '=== t: x\n> POOL a b\nOK\n# the tie goes to a, not b\n> PICK\nb\n> PICK\nb\n',
      'transcripts/t.txt',
    );
    const problems = checkTranscriptsAgree(model, wrong);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.file, 'transcripts/t.txt');
    assert.equal(problems[0]!.line, 5);
    assert.match(problems[0]!.message, /reference answers `PICK` with "a" but the transcript expects "b"/);
  });
});

describe('validate: mutation adequacy', () => {
  it('lists, per mutation, the transcripts that catch it, and a symmetric pairs matrix', () => {
    const adequacy = measureAdequacy(model, manifest.mistakes, transcripts);
    const empty = adequacy.mistakes.find((m) => m.mistake === 'empty-pool')!;
    assert.deepEqual(empty.caughtBy, ['empty-pool']);
    adequacy.matrix.forEach((row, i) => row.forEach((n, j) => assert.equal(n, adequacy.matrix[j]![i])));
    assert.ok(adequacy.pairs.every((p) => p.separatedBy !== null && p.separatedBy > 0));
  });

  it('reports a mistake no hidden transcript catches, with a pasteable transcript that does', async () => {
    const { problems } = await checkMistakes(
      input({ transcripts: transcripts.filter((t) => t.name !== 'empty-pool') }),
    );
    const uncaught = problems.find((p) => /mistake "empty-pool" is never caught/.test(p.message));
    assert.ok(uncaught, JSON.stringify(problems, null, 2));
    assert.equal(uncaught.severity, 'error');
    const proposed = parseTranscripts(uncaught.proposal!, 'proposal.txt');
    assert.deepEqual(checkTranscriptsAgree(model, proposed), [], 'the proposal carries the reference answers');
    const commands = proposed[0]!.steps.map((s) => s.command);
    assert.notDeepEqual(simulate(model, commands, new Set(['empty-crash'])).outcome, simulate(model, commands).outcome);
  });

  it('reports two mistakes the hidden set cannot tell apart, and proposes a shrunk separating transcript', async () => {
    const mistakes = [
      { ...manifest.mistakes[0]!, id: 'by-name', mutants: ['tiebreak-name'] },
      { ...manifest.mistakes[0]!, id: 'by-last', mutants: ['tiebreak-last'] },
    ];
    // With pool "b a" both mutants pick a, so this transcript catches both but cannot separate them.
    const only = parseTranscripts('=== tie: x\n> POOL b a\nOK\n> PICK\nb\n', 'transcripts/t.txt');
    const { problems, adequacy } = await checkMistakes(
      input({ manifest: { ...manifest, mistakes }, transcripts: only }),
    );
    assert.equal(adequacy.pairs[0]!.separatedBy, 0);
    const pair = problems.find((p) => p.message.includes('cannot be told apart'));
    assert.ok(pair, JSON.stringify(problems, null, 2));
    assert.match(pair.message, /"by-name" and "by-last"/);
    const proposed = parseTranscripts(pair.proposal!, 'proposal.txt');
    assert.match(pair.proposal!, /^=== tells-by-name-from-by-last: /);
    assert.ok(proposed[0]!.steps.length <= 4, `shrunk: ${pair.proposal}`);
    const fixed = await checkMistakes(
      input({ manifest: { ...manifest, mistakes }, transcripts: [...only, ...proposed] }),
    );
    assert.deepEqual(fixed.problems, [], 'pasting the proposal separates the pair');
  });

  it('proposals are reproducible for a seed', async () => {
    const run = async (): Promise<string | undefined> =>
      (await checkMistakes(input({ transcripts: transcripts.filter((t) => t.name !== 'empty-pool') }))).problems[0]
        ?.proposal;
    assert.equal(await run(), await run());
  });

  it('fresh names never collide with a transcript of the pack', () => {
    assert.equal(freshName('tells-a-from-b', ['tells-a-from-b', 'tells-a-from-b-2']), 'tells-a-from-b-3');
  });
});

describe('validate: read order and questions', () => {
  it('resolves symbols, patterns and #top in every starter', () => {
    assert.deepEqual(checkReadOrder(input()), []);
  });

  it('reports an anchor that is not in a starter, with its line in lesson.json', () => {
    const readOrder = [...manifest.readOrder, { title: 'Typo', symbol: 'pickk' }];
    const text = JSON.stringify({ ...manifest, readOrder }, null, 2);
    const problems = checkReadOrder(input({ manifest: { ...manifest, readOrder }, manifestText: text }));
    assert.equal(problems.length, 3, 'once per language');
    assert.match(
      problems[0]!.message,
      /step 6 \("Typo"\): symbol "pickk" is not found in starter\/python\/balancer.py/,
    );
    assert.equal(problems[0]!.line, text.split('\n').findIndex((l) => l.includes('"pickk"')) + 1);
  });

  it('reports a step file missing from a starter and a broken pattern', () => {
    const readOrder = [
      { title: 'Helpers', file: 'helpers.py', symbol: '#top' },
      { title: 'Bad', pattern: '(' },
    ];
    const problems = checkReadOrder(input({ manifest: { ...manifest, readOrder } }));
    assert.ok(problems.some((p) => /opens "helpers.py", which is not in the javascript starter/.test(p.message)));
    assert.ok(problems.some((p) => /"pattern" is not a valid regular expression/.test(p.message)));
  });

  it('reports predict commands the reference does not know, and links to missing questions and steps', () => {
    const quiz = [
      {
        id: 'predict',
        prompt: 'What?',
        kind: 'predict' as const,
        commands: ['POOL a', 'FROB'],
        answer: { salt: 'saltsalt', sha256: ['0'.repeat(64)] },
      },
    ];
    const mistakes = [{ ...manifest.mistakes[0]!, question: 'nope', step: 9 }];
    // Without its grammar: with one, checkGrammar reports a command outside it (once, at its line), not this.
    const { grammar: _grammar, ...ungrammatical } = model;
    const problems = checkQuestions(input({ manifest: { ...manifest, quiz, mistakes }, model: ungrammatical }));
    assert.ok(problems.some((p) => /`FROB` is not a command of the "least-connections" protocol/.test(p.message)));
    assert.ok(problems.some((p) => /names question "nope", which does not exist/.test(p.message)));
    assert.ok(problems.some((p) => /read-order step 9, but there are only 5 steps/.test(p.message)));
  });
});

describe('validate: messages for lesson.json problems', () => {
  const bad = (mutate: (m: Record<string, unknown>) => void): { message: string; line: number; column: number } => {
    const data = JSON.parse(manifestText) as Record<string, unknown>;
    mutate(data);
    const text = JSON.stringify(data, null, 2);
    const result = parseManifest(text, 'lesson.json');
    assert.ok(!result.ok);
    const p = result.problems[0]!;
    return { message: friendlyManifestMessage(p.message, p.path, text), line: p.line, column: p.column };
  };

  it('explains a path escaping the pack instead of showing a regular expression', () => {
    const p = bad((m) => (m.transcripts = ['../../etc/passwd']));
    assert.match(p.message, /^transcripts\.0: "\.\.\/\.\.\/etc\/passwd" must be a path inside the pack folder/);
    assert.ok(p.line > 1 && p.column > 1);
  });

  it('explains versions, unknown fields and JSON syntax', () => {
    assert.match(bad((m) => (m.version = '1.0')).message, /"1.0" must be a version like 1.0.0/);
    assert.match(bad((m) => (m.titel = 'x')).message, /unknown field "titel": check its spelling/);
    const syntax = parseManifest('{\n  "id": "x",\n}\n', 'lesson.json');
    assert.ok(!syntax.ok);
    assert.equal(syntax.problems[0]!.line, 3);
    assert.match(
      friendlyManifestMessage(syntax.problems[0]!.message, '', ''),
      /a comma after the last field is not allowed/,
    );
  });
});

describe('.lessonpack format rules', () => {
  it('refuses entry names that could escape the pack folder', () => {
    for (const name of [
      '../evil',
      'a/../../evil',
      '/tmp/evil',
      'C:/evil',
      'a\\..\\evil',
      'a//b',
      'a/./b',
      'a:b',
      'a\u0000b',
    ]) {
      assert.ok(archivePathProblem(name), name);
    }
    assert.equal(archivePathProblem('starter/python/balancer.py'), undefined);
  });

  it('leaves dotfiles, authoring files and caches out of bundles', () => {
    for (const p of [
      '.DS_Store',
      'starter/.DS_Store',
      '.git/config',
      'authoring/solution.py',
      'x/__pycache__/a.pyc',
      'old.lessonpack',
      'a.py~',
    ])
      assert.ok(!isBundledPath(p), p);
    for (const p of ['lesson.json', 'starter/python/balancer.py', 'transcripts/a.txt']) assert.ok(isBundledPath(p), p);
  });

  it('compares versions numerically and hashes the file list independent of order', () => {
    assert.ok(compareVersions('1.10.0', '1.9.9') > 0);
    assert.equal(compareVersions('2.0.0', '2.0.0'), 0);
    const a = { path: 'a', sha256: '1'.repeat(64), size: 1 };
    const b = { path: 'b', sha256: '2'.repeat(64), size: 2 };
    assert.equal(integrityInput([a, b]), integrityInput([b, a]));
  });

  it('tells a newer archive format from a damaged manifest', () => {
    const newer = parseArchiveManifest(JSON.stringify({ format: 2 }));
    assert.ok(!newer.ok && /newer Lesson Companion/.test(newer.reason));
    const broken = parseArchiveManifest('{');
    assert.ok(!broken.ok && /not JSON/.test(broken.reason));
  });
});

describe('transcript grammar (media/transcript.tmLanguage.json)', () => {
  it('gives every non-blank line of a real transcript file exactly one scope', () => {
    const grammar = JSON.parse(fs.readFileSync(path.join(root, 'media/transcript.tmLanguage.json'), 'utf8')) as {
      repository: Record<string, { match: string }>;
    };
    const rules = Object.entries(grammar.repository).map(([name, rule]) => ({ name, re: new RegExp(rule.match) }));
    const text = fs.readFileSync(path.join(root, 'lessons/least-connections/transcripts/basics.txt'), 'utf8');
    const parsed: Transcript[] = parseTranscripts(text, 'basics.txt');
    const commandLines = new Set(parsed.flatMap((t) => t.steps.map((s) => s.line)));
    const headerLines = new Set(parsed.map((t) => t.line));
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const matched = rules.filter((r) => r.re.test(line)).map((r) => r.name);
      const expected = line.startsWith('#')
        ? 'comment'
        : headerLines.has(i + 1)
          ? 'header'
          : commandLines.has(i + 1)
            ? 'command'
            : 'answer';
      assert.deepEqual(matched, [expected], `line ${i + 1}: ${line}`);
    });
  });
});
