/**
 * A pack's model gets no object of the host realm (issue 19, item 2): the probes of
 * test/fixtures/hostile/models/realm-escape.js, through its `require`, `exports`, `module`, an import's
 * error, `caller`, stack frames, the mutation set, observed lines and the random source, all come back empty.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadModel } from '../../src/node/engine/modelLoader';
import { seededRandom } from '../../src/core/model/random';

describe('a pack model reaches nothing of the host realm', () => {
  let pack: string;
  before(() => {
    pack = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-realm-'));
    fs.copyFileSync(
      path.join(__dirname, '..', 'fixtures', 'hostile', 'models', 'realm-escape.js'),
      path.join(pack, 'model.js'),
    );
  });
  after(() => fs.rmSync(pack, { recursive: true, force: true }));

  it('no probe gets `process`, at load, in step() or in generate()', () => {
    const model = loadModel(pack, path.join(pack, 'model.js'));
    const stepped = model.step(model.initial(), 'PICK', new Set(['m']), ['a:0']);
    assert.deepEqual(stepped.answer, { kind: 'lines', lines: [] });
    assert.deepEqual(model.generate(seededRandom(1), 3), []);
  });
});

describe('no error the loader throws behind a model’s require is of the host realm (issue 29)', function () {
  this.timeout(60_000);
  const fixture = path.join(__dirname, '..', 'fixtures', 'hostile', 'models', 'realm-errors');
  let model: ReturnType<typeof loadModel>;
  before(() => {
    model = loadModel(fixture, path.join(fixture, 'model.js'));
  });
  const routes: [string, string][] = [
    ['a stack overflow inside the loader', 'overflow'],
    ['a specifier too long for the loader to join to a path (out of memory for a string)', 'outOfMemory'],
    ['an import that throws an object whose getter throws what cannot be made text', 'throwingGetter'],
    ['an import that throws a Proxy whose traps throw', 'proxy'],
  ];
  for (const [title, route] of routes) {
    it(`${title}: the model gets no \`process\``, () => {
      const stepped = model.step(model.initial(), route, new Set(), undefined);
      assert.deepEqual(stepped.answer, { kind: 'lines', lines: [] });
    });
  }
});
