/**
 * The `.lessonpack` rules of src/core/pack/archive.ts that bundle and install must agree on, at their edges: the
 * text the integrity hash is taken over, what install says about a malformed or newer archive manifest, which
 * entry names are refused and why, names that would land on one file on Windows or macOS, the zip-bomb limit,
 * and the files a bundle leaves out. These are what an instructor or learner reads when a hostile or damaged
 * pack is refused, so the tests assert the words that name the problem. Every subject is built inside its test,
 * so mutation coverage (perTest) credits that test.
 */
import * as assert from 'node:assert/strict';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_LIMITS,
  ARCHIVE_MANIFEST,
  archivePathProblem,
  bombRatio,
  collisionKey,
  integrityInput,
  isBundledPath,
  parseArchiveManifest,
  pathClash,
  type ArchiveFile,
} from '../../src/core/pack/archive';

const MiB = 1024 * 1024;

/** One manifest line, as the format documents it: `sha256 size path` and a line end. */
const line = (f: ArchiveFile): string => `${f.sha256} ${f.size} ${f.path}\n`;

/** A file entry whose hash is `digit` repeated, so two entries are told apart by their hash alone. */
const entry = (path: string, digit: string, size = 10): ArchiveFile => ({ path, sha256: digit.repeat(64), size });

/** An archive manifest as bundle writes it, with `change` applied to its parsed JSON. */
function manifestText(change: (m: Record<string, unknown>) => void = () => {}): string {
  const manifest: Record<string, unknown> = {
    format: ARCHIVE_FORMAT,
    id: 'least-connections',
    version: '1.2.0',
    files: [entry('lesson.json', 'a', 2048), entry('model/model.ts', 'b', 4096)],
    integrity: 'c'.repeat(64),
  };
  change(manifest);
  return JSON.stringify(manifest, null, 2);
}

/** The reason install gives for an archive manifest it refuses. */
function refusal(text: string): string {
  const parsed = parseArchiveManifest(text);
  assert.equal(parsed.ok, false, 'the archive manifest should be refused');
  return parsed.ok ? '' : parsed.reason;
}

describe('archive integrity input: the text the hash is taken over', () => {
  it('is one "sha256 size path" line per file, sorted by path, whatever order the files are listed in', () => {
    const a = entry('lesson.json', 'a', 2048);
    const b = entry('model/model.ts', 'b', 4096);
    const c = entry('transcripts/basic.txt', 'c', 300);
    const expected = line(a) + line(b) + line(c);
    for (const order of [
      [a, b, c],
      [c, b, a],
      [b, c, a],
      [c, a, b],
    ])
      assert.equal(integrityInput(order), expected, order.map((f) => f.path).join(', '));
  });

  it('sorts by code point, not by locale: capitals before lower case, "." before "/"', () => {
    const files = [entry('lesson/x.md', '1'), entry('a.md', '2'), entry('lesson.json', '3'), entry('Z.md', '4')];
    assert.deepEqual(
      integrityInput(files)
        .split('\n')
        .slice(0, -1)
        .map((l) => l.split(' ')[2]),
      ['Z.md', 'a.md', 'lesson.json', 'lesson/x.md'],
    );
  });

  it('keeps the listed order of a path listed twice, so install goes on to say it is listed twice rather than damaged', () => {
    const first = entry('lesson.json', 'a');
    const second = entry('lesson.json', 'b');
    assert.equal(integrityInput([first, second]), line(first) + line(second));
    assert.equal(integrityInput([second, first]), line(second) + line(first));
    assert.equal(pathClash([first.path, second.path]), '"lesson.json" is listed twice');
  });
});

describe('archive manifest: what install says about it', () => {
  it('reads a manifest bundle wrote, with every file it lists', () => {
    const parsed = parseArchiveManifest(manifestText());
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.equal(parsed.manifest.format, ARCHIVE_FORMAT);
    assert.deepEqual(
      parsed.manifest.files.map((f) => f.path),
      ['lesson.json', 'model/model.ts'],
    );
  });

  it('asks for a newer extension only for a higher format number', () => {
    const newer = refusal(manifestText((m) => (m.format = ARCHIVE_FORMAT + 1)));
    assert.match(newer, new RegExp(`archive format ${ARCHIVE_FORMAT + 1}\\b`));
    assert.match(newer, /newer Lesson Companion; update the extension or CLI/);
    const zero = refusal(manifestText((m) => (m.format = 0)));
    assert.match(zero, new RegExp(`^${ARCHIVE_MANIFEST.replace(/\./g, '\\.')} is malformed at /format: `));
    assert.doesNotMatch(zero, /newer/);
  });

  it('calls a format written as text malformed, not newer', () => {
    const reason = refusal(manifestText((m) => (m.format = '2')));
    assert.match(reason, /is malformed at \/format: /);
    assert.doesNotMatch(reason, /newer/);
  });

  it('refuses JSON that is not an object (null, a list, a number) as malformed at the root "/"', () => {
    for (const text of ['null', '[]', '7']) {
      const reason = refusal(text);
      assert.match(reason, new RegExp(`^${ARCHIVE_MANIFEST.replace(/\./g, '\\.')} is malformed at /: \\S`), text);
    }
  });

  it("names the field that is wrong, with the schema's reason", () => {
    const reason = refusal(manifestText((m) => ((m.files as ArchiveFile[])[1]!.sha256 = 'not-a-hash')));
    assert.match(reason, /is malformed at \/files\/1\/sha256: \S+/);
  });

  it("says when the manifest is not JSON at all, with the parser's words", () => {
    assert.match(
      refusal('{"format": 1,'),
      new RegExp(`^${ARCHIVE_MANIFEST.replace(/\./g, '\\.')} is not JSON \\(.+\\)$`),
    );
  });
});

describe('archive entry names: which are refused, and why', () => {
  it('accepts plain relative paths and folder entries (a trailing "/")', () => {
    for (const name of ['lesson.json', 'model/model.ts', 'starters/python/', 'lesson/', 'a.b/c..d/e'])
      assert.equal(archivePathProblem(name), undefined, name);
  });

  it('refuses an empty name', () => {
    assert.equal(archivePathProblem(''), 'an entry has an empty name');
  });

  it('allows names of exactly 260 characters and refuses 261, showing the first 40', () => {
    const head = 'x'.repeat(40);
    assert.equal(archivePathProblem(head + 'y'.repeat(220)), undefined);
    const problem = archivePathProblem(head + 'y'.repeat(221))!;
    assert.ok(problem.startsWith(`"${head}…"`), problem);
    assert.match(problem, /is longer than 260 characters$/);
    assert.doesNotMatch(problem, /y/);
  });

  it('refuses an absolute path and a drive letter, each in its own words', () => {
    assert.equal(archivePathProblem('/etc/passwd'), '"/etc/passwd" is an absolute path');
    assert.match(
      archivePathProblem('C:/Windows/system.ini')!,
      /^"C:\/Windows\/system\.ini" starts with a drive letter$/,
    );
    assert.match(archivePathProblem('z:evil')!, /starts with a drive letter/);
  });

  it('refuses a ":" anywhere else as a Windows drive or hidden stream, not as a drive letter', () => {
    for (const name of ['notes/c:x.md', 'ab:c', 'lesson.json:secret']) {
      const problem = archivePathProblem(name)!;
      assert.match(problem, /contains ":", which Windows reads as a drive or a hidden stream$/, name);
      assert.ok(problem.startsWith(`"${name}"`), problem);
    }
  });

  it('refuses control characters, showing each as "?" in the name', () => {
    assert.equal(archivePathProblem('a\u0001b\u001f.md'), '"a?b?.md" contains control characters');
    assert.equal(archivePathProblem('x\u007f'), '"x?" contains control characters');
  });

  it('refuses a ".." segment as climbing out, a trailing "/" included', () => {
    for (const name of ['../x', 'a/../../x', 'a/..', 'a/../'])
      assert.match(archivePathProblem(name)!, /climbs out of the pack folder with "\.\."$/, name);
  });

  it('refuses empty and "." segments', () => {
    for (const name of ['a//b', './a', 'a/./', 'a/.'])
      assert.match(archivePathProblem(name)!, /has an empty or "\." path segment$/, name);
  });
});

describe('archive paths that land on one file on Windows or macOS', () => {
  it('refuses names that differ only in upper/lower case, naming both', () => {
    assert.equal(
      pathClash(['Model/model.ts', 'model/Model.ts']),
      '"Model/model.ts" and "model/Model.ts" differ only in upper/lower case, which Windows and macOS cannot tell apart',
    );
  });

  it('keeps apart names that only full Unicode upper-casing would merge ("ß" is not "SS" on disk)', () => {
    assert.equal(pathClash(['notes/Straße.md', 'notes/STRASSE.md']), undefined);
    assert.notEqual(collisionKey('Straße.md'), collisionKey('STRASSE.md'));
  });

  it('keeps a folder path apart from the file name its slashes would spell without them', () => {
    assert.equal(pathClash(['a/b.txt', 'ab.txt']), undefined);
    assert.notEqual(collisionKey('a/b.txt'), collisionKey('ab.txt'));
  });

  it('gives a folder entry ("Notes/") the same key as a file "notes", so install refuses the pair', () => {
    assert.equal(collisionKey('Notes/'), collisionKey('notes'));
    assert.equal(collisionKey('Notes/'), collisionKey('NOTES/'));
  });

  it('refuses a file whose name another path needs as a folder', () => {
    assert.equal(pathClash(['data', 'data/x.txt']), '"data" is a file, but "data/x.txt" needs a folder of that name');
  });
});

describe('archive zip-bomb limit', () => {
  it('checks the ratio from exactly 1 MiB up, and refuses only above 100 to 1', () => {
    assert.equal(ARCHIVE_LIMITS.ratioCheckedFromBytes, MiB);
    assert.equal(bombRatio(MiB, MiB / 128), 128);
    assert.equal(bombRatio(MiB - 1, 1), undefined, 'a smaller file is never called a bomb');
    assert.equal(bombRatio(100 * 20000, 20000), undefined, 'exactly 100 to 1 is allowed');
    assert.equal(bombRatio(101 * 20000, 20000), 101);
  });
});

describe('files a bundle leaves out', () => {
  it('leaves out Python caches, editor swap files and merge leftovers, wherever they are', () => {
    for (const name of [
      'model/helper.pyc',
      'helper.pyc',
      'notes.md.swp',
      'starters/python/main.py.swp',
      'lesson.json.orig',
      'model/model.ts.orig',
      'notes.md~',
    ]) {
      assert.equal(isBundledPath(name), false, name);
    }
  });

  it('keeps files whose names merely start with those words', () => {
    for (const name of ['pyc-notes.md', 'swp.md', 'orig/readme.md', 'original.md'])
      assert.equal(isBundledPath(name), true, name);
  });
});
