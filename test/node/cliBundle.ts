/**
 * A CLI bundle built into a test's own folder, laid out as the product's dist/ is: `cli.js` and, beside it,
 * `worlds/queues.js`, the queue world a balancer pack's model imports as `lesson-companion/worlds/queues`
 * (the model loader looks for it next to the bundle that loads models). Tests that run the CLI from a
 * temporary folder use this, so the bundle they run finds what the shipped one finds.
 */
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');

export async function buildCliBundle(outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src', 'cli', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  await esbuild.build({
    bundle: false,
    platform: 'neutral',
    format: 'cjs',
    target: 'es2022',
    logLevel: 'silent',
    entryPoints: [path.join(ROOT, 'src', 'worlds', 'queues.ts')],
    outfile: path.join(path.dirname(outfile), 'worlds', 'queues.js'),
  });
}
