// A pack whose reference model loops for ever, in a real VS Code. The loop hides where `validate` cannot see
// it (only when the learner answers PICK with "zzz", which neither the reference nor a mutant does), so the
// pack bundles and installs like any other. A learner program that answers "zzz" then sends the check's
// engine worker into the loop: the check must end with words that blame the pack, not the learner, and the
// extension host must stay responsive meanwhile (the worker runs in the CLI's child process).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';
import * as vscode from 'vscode';
import type { CheckReport } from '../../../src/core/report/report';
import {
  activate,
  extensionPath,
  internalState,
  lessonCompanionCli,
  setLearnerText,
  workspaceDir,
} from '../lib/helpers';

const ID = 'loops-on-zzz';
const PICK_LINE = "    if (verb === 'PICK') return pick(state, on, observed);";
const LOOPING_PICK =
  "    if (verb === 'PICK') { if (observed && observed[0] === 'zzz') { for (;;) { /* the pack's bug */ } } return pick(state, on, observed); }";

suite('a pack whose model loops (trusted workspace)', () => {
  let tmp: string;
  let main: vscode.Uri;
  let installedDir: string | undefined;
  let savedQuietMs: string | undefined;

  suiteSetup(async () => {
    await activate();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-looping-model-'));
    main = vscode.Uri.file(path.join(workspaceDir(), 'balancer.py'));
    // The check's child process inherits this host's environment: the engine gives up on a silent model
    // after 3 s instead of the default, so the test need not wait the full limit.
    savedQuietMs = process.env.LESSON_COMPANION_ENGINE_QUIET_MS;
    process.env.LESSON_COMPANION_ENGINE_QUIET_MS = '3000';
    // The check service inherits the extension host's environment when it starts: start a new one that has it.
    await vscode.commands.executeCommand('lessonCompanion.internal.restartService');
  });

  suiteTeardown(async () => {
    if (savedQuietMs === undefined) delete process.env.LESSON_COMPANION_ENGINE_QUIET_MS;
    else process.env.LESSON_COMPANION_ENGINE_QUIET_MS = savedQuietMs;
    await vscode.commands.executeCommand('lessonCompanion.internal.restartService');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(main.fsPath, { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
    // Other suites expect the packs folder without this pack.
    if (installedDir) fs.rmSync(installedDir, { recursive: true, force: true });
  });

  test('bundled and installed; a check that reaches the loop ends blaming the pack, with the host responsive', async function () {
    this.timeout(240000);
    await lessonCompanionCli('new', ID, '--dir', tmp);
    const dir = path.join(tmp, ID);
    const modelFile = path.join(dir, 'model', 'model.js');
    const model = fs.readFileSync(modelFile, 'utf8');
    assert.ok(model.includes(PICK_LINE), 'the scaffold model has the PICK line this test edits');
    fs.writeFileSync(modelFile, model.replace(PICK_LINE, LOOPING_PICK));
    const file = path.join(tmp, `${ID}.lessonpack`);
    await lessonCompanionCli('bundle', dir, '-o', file); // validate passes: nothing it runs answers "zzz"

    const installed = await vscode.commands.executeCommand<{ id: string; dir: string } | undefined>(
      'lessonCompanion.installPack',
      vscode.Uri.file(file),
      { trustCode: true },
    );
    assert.strictEqual(installed?.id, ID, (await internalState()).lastInstallRefusal ?? 'no refusal recorded');
    installedDir = installed?.dir;
    // Earlier suites leave their own balancer.py: give it the starter's text so starting does not ask.
    if (fs.existsSync(main.fsPath))
      await setLearnerText(main, fs.readFileSync(path.join(dir, 'starter', 'python', 'balancer.py'), 'utf8'));
    const session = await vscode.commands.executeCommand<{ lessonId: string } | undefined>(
      'lessonCompanion.startLesson',
      { lessonId: ID, language: 'python' },
    );
    assert.strictEqual(session?.lessonId, ID);

    const solution = fs.readFileSync(
      path.join(extensionPath(), 'test', 'fixtures', 'packs', 'solutions', 'balancer.py'),
      'utf8',
    );
    const answersZzz = solution.replace('print("EMPTY" if chosen is None else chosen)', 'print("zzz")');
    assert.notStrictEqual(answersZzz, solution);
    await setLearnerText(main, answersZzz);

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const started = performance.now();
    const report = await vscode.commands.executeCommand<CheckReport | undefined>('lessonCompanion.check');
    const checkMs = Math.round(performance.now() - started);
    loop.disable();
    assert.strictEqual(report?.lesson, ID);
    assert.strictEqual(report?.status, 'error', JSON.stringify(report?.problems));
    const problem = report?.problems.find((p) => p.kind === 'model-error');
    assert.ok(problem, JSON.stringify(report?.problems));
    assert.match(problem.message, /computed for more than 3 s without a result/);
    assert.match(problem.advice ?? '', new RegExp(`lesson pack "${ID}".*not of your program`));
    assert.deepStrictEqual(report?.mistakes, []);
    const maxBlockMs = loop.max / 1e6;
    console.log(
      `    the check reached the looping model and ended after ${checkMs} ms; the extension host's event loop was blocked at most ${Math.round(maxBlockMs)} ms`,
    );
    assert.ok(loop.count > 0, 'the event loop was sampled while the check ran');
    // Responsive: no single block of the host's loop as long as the engine's own limit.
    assert.ok(maxBlockMs < 3000, `the extension host was blocked for ${Math.round(maxBlockMs)} ms`);

    // The extension keeps working: the learner fixes the program and the same pack checks it.
    await setLearnerText(main, solution);
    const pass = await vscode.commands.executeCommand<CheckReport | undefined>('lessonCompanion.check');
    assert.strictEqual(pass?.status, 'pass', JSON.stringify(pass?.problems));
  });
});
