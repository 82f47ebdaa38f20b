/**
 * validate type-checks a TypeScript model with the TypeScript it finds (here through NODE_PATH, as a global
 * install would be found), and says in one line when there is none. Real: the scaffold's model and tsc's API.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { typeCheckLine } from '../../src/cli/validateFormat';
import { createPack } from '../../src/node/authoring/scaffold';
import { validatePack } from '../../src/node/authoring/validatePack';

const root = path.resolve(__dirname, '..', '..');
const typesDir = path.join(root, 'media');

describe('validate: the model type check', function () {
  this.timeout(120000);
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-validate-types-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('a type error is an error at its line; without TypeScript, one line says the model was not checked', async () => {
    const { dir } = await createPack(tmp, 'adder', { blank: true });
    const file = path.join(dir, 'model/model.ts');
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.startsWith('const NUMBER'));
    lines.splice(at, 0, "const typed: number = 'one';");
    await fs.writeFile(file, lines.join('\n'));

    const env = { NODE_PATH: path.join(root, 'node_modules') };
    const checked = await validatePack(dir, { runStarters: false, typesDir, env });
    assert.equal(checked.valid, false);
    assert.deepEqual(
      checked.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`),
      [`model/model.ts:${at + 1}:7 type error (TS2322): Type 'string' is not assignable to type 'number'.`],
    );
    assert.match(
      typeCheckLine(checked) ?? '',
      /^types: model\/model\.ts type-checked with TypeScript [\d.]+: 1 type error$/,
    );

    // This machine has no global TypeScript (npm's global folder beside node); elsewhere that part is not asserted.
    const globalTs = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'typescript');
    if (await fs.stat(globalTs).catch(() => undefined)) return;
    const without = await validatePack(dir, { runStarters: false, typesDir, env: {} });
    assert.equal(without.valid, true, JSON.stringify(without.problems));
    assert.deepEqual(without.typeCheck, { status: 'not-installed' });
    assert.match(typeCheckLine(without) ?? '', /was not type-checked: TypeScript is not installed/);
  });
});
