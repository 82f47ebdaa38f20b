import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { CheckReport } from '../core/report';
import type { Language } from '../core/schema';
import { checkFile } from '../node/checker';
import { fsReason } from '../node/errors';
import { isLanguage, languageOf } from '../node/languages';
import { EXIT, UsageError, type CliCommand } from './command';
import { formatReport } from './format';
import { selectPack } from './packSelection';

export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'check <file> [--lesson <id|dir>] [--json] [--language python|javascript|typescript] [--python <path>] [--node <path>] [--timeout <ms>] [--seed <n>] [--fuzz <n>]',
  summary: "run a learner program against the lesson's hidden transcripts and name its mistakes",
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        lesson: { type: 'string' },
        json: { type: 'boolean' },
        language: { type: 'string' },
        python: { type: 'string' },
        node: { type: 'string' },
        timeout: { type: 'string' },
        seed: { type: 'string' },
        fuzz: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('check takes exactly one file');
    const file = path.resolve(io.cwd, positionals[0]!);
    const language = values.language ?? languageOf(file);
    if (!language || !isLanguage(language)) {
      throw new UsageError(`cannot tell the language of ${positionals[0]}: use a .py, .js or .ts file, or --language`);
    }
    const source = await fs.readFile(file, 'utf8').catch((error: unknown) => {
      // "is a folder", "permission denied": said as they are; a missing file in the words tests and users know.
      const why = fsReason(error);
      throw new UsageError(`cannot read ${positionals[0]}: ${why && why !== 'it does not exist' ? why : 'no such file'}`);
    });
    const pack = await selectPack(io, values.lesson, file, source);
    if (!pack.manifest.starters[language as Language]) {
      throw new UsageError(`lesson "${pack.manifest.id}" has no ${language} version (it has ${Object.keys(pack.manifest.starters).join(', ')})`);
    }
    const int = (name: string, value: string | undefined): number | undefined => {
      if (value === undefined) return undefined;
      if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number, not "${value}"`);
      return Number(value);
    };
    const report: CheckReport = await checkFile(pack, file, language as Language, {
      interpreters: { ...(values.python ? { python: values.python } : {}), ...(values.node ? { node: values.node } : {}) },
      ...(values.timeout ? { timeLimitMs: int('timeout', values.timeout)! } : {}),
      ...(values.seed ? { seed: int('seed', values.seed)! } : {}),
      ...(values.fuzz ? { fuzzTranscripts: int('fuzz', values.fuzz)! } : {}),
    });
    const shown = { ...report, file: path.relative(io.cwd, file) || file };
    if (values.json) io.out(JSON.stringify(shown, null, 2) + '\n');
    else io.out(formatReport(shown, io.isTTY && !io.env.NO_COLOR));
    // A program that cannot run (syntax error, missing interpreter) is a failed check, not a usage error.
    return shown.status === 'pass' ? EXIT.ok : EXIT.failed;
  },
};
