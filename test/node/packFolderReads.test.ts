/**
 * The two ways a pack's folder is read (src/node/packs/packFiles.ts): through the threadpool (the extension host,
 * the check service) and synchronously (the command line, which has nothing else to do meanwhile). One walker
 * serves both; each must see the same snapshot of a folder that holds what a hostile or careless pack holds: a link
 * out of the pack (noted, never followed), a link inside it, a nested folder, node_modules (skipped), a file over the
 * size a pack file may have (not read), an empty file. Each read runs in a Node process of its own, since the
 * command line's choice is for the whole process.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PACK_FILE_MAX_BYTES } from '../../src/core/pack/packSnapshot';

const PACK_FILES = path.resolve(__dirname, '..', '..', 'src', 'node', 'packs', 'packFiles.ts');

/** The snapshot of `dir` as one of the two readers takes it, as JSON (file bytes as base64). */
function snapshotBy(reads: 'async' | 'sync', dir: string): unknown {
  const script = `
    const files = require(${JSON.stringify(PACK_FILES)});
    if (${JSON.stringify(reads)} === 'sync') files.readPackFoldersSynchronously();
    files.readPackFolder(${JSON.stringify(dir)}).then(({ snapshot, stamps }) => {
      // In path order: the threadpool's reads finish in any order, so its Map's order says nothing.
      const entries = [...snapshot.entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, e]) => [k, e.kind, e.size ?? null, e.bytes ? Buffer.from(e.bytes).toString('base64') : null]);
      process.stdout.write(JSON.stringify({ entries, links: snapshot.links, truncated: snapshot.truncated, stamps: [...stamps.keys()].sort() }));
    });`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' }));
}

describe("a pack's folder read synchronously, as the command line reads it, and through the threadpool", function () {
  this.timeout(30000);
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-packreads-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('gives the same snapshot: links noted and not followed, node_modules skipped, an oversized file unread', () => {
    const pack = path.join(tmp, 'pack');
    fs.mkdirSync(path.join(pack, 'transcripts', 'more'), { recursive: true });
    fs.mkdirSync(path.join(pack, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(pack, 'lesson.json'), '{"id": "x"}\n');
    fs.writeFileSync(path.join(pack, 'transcripts', 'basic.txt'), '> PICK\nEMPTY\n');
    fs.writeFileSync(path.join(pack, 'transcripts', 'more', 'empty.txt'), '');
    fs.writeFileSync(path.join(pack, 'transcripts', 'huge.txt'), Buffer.alloc(PACK_FILE_MAX_BYTES + 1, 0x61));
    fs.writeFileSync(path.join(pack, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(tmp, 'secret.txt'), 'an answer outside the pack\n');
    fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(pack, 'transcripts', 'out.txt'));
    fs.symlinkSync('basic.txt', path.join(pack, 'transcripts', 'inside.txt'));

    const sync = snapshotBy('sync', pack) as { entries: [string, string, number | null, string | null][] };
    assert.deepEqual(sync, snapshotBy('async', pack));
    const byPath = new Map(sync.entries.map(([k, kind, , bytes]) => [k, { kind, bytes }]));
    assert.deepEqual((sync as unknown as { links: string[] }).links, ['transcripts/inside.txt', 'transcripts/out.txt']);
    assert.equal(byPath.get('node_modules')?.kind, 'skipped');
    assert.equal(byPath.has('node_modules/dep/index.js'), false);
    assert.equal(byPath.get('transcripts/huge.txt')?.bytes, null, 'over the size a pack file may have: not read');
    assert.equal(Buffer.from(byPath.get('transcripts/basic.txt')!.bytes!, 'base64').toString(), '> PICK\nEMPTY\n');
    assert.ok(!JSON.stringify(sync).includes(Buffer.from('an answer outside').toString('base64').slice(0, 12)));
  });
});
