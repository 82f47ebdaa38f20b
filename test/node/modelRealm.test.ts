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

const firstLine = (answer: { kind: string; lines?: readonly string[] }): string | undefined => answer.lines?.[0];

describe("what the engine hands a pack model at every step is copied once and read-only (the bridge's caches)", () => {
  let pack: string;
  before(() => {
    pack = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-realm-cache-'));
    // A model that says what it was handed, and with SORT tries to sort the observed lines in place.
    fs.writeFileSync(
      path.join(pack, 'model.js'),
      `exports.model = {
  id: 'echo', description: 'echo', mutations: [{ id: 'm', description: 'm' }], resetCommand: 'POOL', resetAnswer: ['OK'],
  initial: () => ({}),
  step(state, command, on, observed) {
    if (command === 'SORT') observed.sort();
    return { state, answer: { kind: 'lines', lines: [[...on].join(',') + '|' + (observed ?? []).join(',')] } };
  },
  snapshot: () => ({}), answerShape: () => 'any', isAnswerLine: () => true, generate: () => [],
};`,
    );
  });
  after(() => fs.rmSync(pack, { recursive: true, force: true }));

  it('the same Set and list given again are the same to the model; a Set that grew is copied again', () => {
    const model = loadModel(pack, path.join(pack, 'model.js'));
    const on = new Set(['m']);
    const observed = ['b:1', 'a:0'];
    const said = () => firstLine(model.step(model.initial(), 'STEP', on, observed).answer);
    assert.equal(said(), 'm|b:1,a:0');
    assert.equal(said(), 'm|b:1,a:0');
    // The engine never changes a Set it handed over (ReadonlySet); if it did, a new size is a new copy.
    on.add('n');
    observed.push('c:2');
    assert.equal(said(), 'm,n|b:1,a:0,c:2');
  });

  it('a model that changes the observed lines it was handed fails, naming the step, and changes nothing', () => {
    const model = loadModel(pack, path.join(pack, 'model.js'));
    const observed = ['b:1', 'a:0'];
    assert.throws(() => model.step(model.initial(), 'SORT', new Set(), observed), /step\("SORT"\)/);
    assert.equal(firstLine(model.step(model.initial(), 'STEP', new Set(), observed).answer), '|b:1,a:0');
  });
});

describe("a model's module is handed its realm's own built-ins (modelLoader.ts REALM_BUILT_INS)", () => {
  let pack: string;
  before(() => {
    pack = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-realm-built-ins-'));
    // Takes the realm's Map away after loading: a module that reads the global at every step would fail.
    fs.writeFileSync(
      path.join(pack, 'model.js'),
      `'use strict';
const own = Map === globalThis.Map && Object.getPrototypeOf(new Map()) === globalThis.Map.prototype;
delete globalThis.Map;
exports.model = {
  id: 'built-ins', description: 'built-ins', mutations: [{ id: 'm', description: 'm' }], resetCommand: 'POOL', resetAnswer: ['OK'],
  initial: () => new Map(),
  step(state, command) { return { state: new Map(state).set(command, 1), answer: { kind: 'lines', lines: [String(own) + ':' + state.size] } }; },
  snapshot: () => ({}), answerShape: () => 'any', isAnswerLine: () => true, generate: () => [],
};`,
    );
    // Its own declaration of a built-in's name shadows the one handed over.
    fs.writeFileSync(
      path.join(pack, 'shadow.js'),
      `'use strict';
const Set = function Set() { return { size: 'mine' }; };
exports.model = {
  id: 'shadow', description: 'shadow', mutations: [{ id: 'm', description: 'm' }], resetCommand: 'POOL', resetAnswer: ['OK'],
  initial: () => ({}),
  step(state) { return { state, answer: { kind: 'lines', lines: [String(new Set().size)] } }; },
  snapshot: () => ({}), answerShape: () => 'any', isAnswerLine: () => true, generate: () => [],
};`,
    );
  });
  after(() => fs.rmSync(pack, { recursive: true, force: true }));

  it("reads them as the realm's own, found in its scope: a global deleted after load does not reach it", () => {
    const model = loadModel(pack, path.join(pack, 'model.js'));
    const first = model.step(model.initial(), 'A', new Set(), undefined);
    assert.equal(firstLine(first.answer), 'true:0');
    assert.equal(firstLine(model.step(first.state, 'B', new Set(), undefined).answer), 'true:1');
  });

  it('a declaration of its own of such a name is the one it uses', () => {
    const model = loadModel(pack, path.join(pack, 'shadow.js'));
    assert.equal(firstLine(model.step(model.initial(), 'A', new Set(), undefined).answer), 'mine');
  });
});
