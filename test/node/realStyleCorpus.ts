/**
 * The real-style corpus on disk (test/fixtures/real-style/<lesson>/<language>/): finding its programs and
 * reading the verdict each one's header comment states. See test/fixtures/real-style/README.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Language } from '../../src/core/pack/schema';
import type { CheckReport } from '../../src/core/report/report';

export const CORPUS = path.join(__dirname, '..', 'fixtures', 'real-style');

const EXT: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };
const LANGUAGES = Object.keys(EXT) as Language[];

/** What a careful human grader says about one program, as its header states it. */
export interface Expectation {
  readonly lesson: string;
  /** Mistake ids the program makes, sorted; empty for a correct program and for one outside the catalogue. */
  readonly mistakes: readonly string[];
  /** `none`: a correct program. `(unnamed)`: wrong, but in no way the lesson's catalogue names. */
  readonly correct: boolean;
  readonly behaviour?: 'random' | 'rotating';
  readonly unrecognised: boolean;
  /** mistake id → the model mutation of the form the program shows (e.g. negative-count → wrap-64). */
  readonly variants: Readonly<Record<string, string>>;
  /** Problem kinds the report must have besides what the rest implies (e.g. line-endings), sorted. */
  readonly problems: readonly string[];
  /**
   * Why a counterexample this program is shown does not reproduce on its own, when that is a known gap of the
   * engine (`expect-unreproduced: <why>`); the test then requires the gap to show, so the line goes when it is fixed.
   */
  readonly unreproduced?: string;
  readonly style: string;
  /** mistake id → the 1-based line that is wrong (`expect-lines: tiebreak=15, negative-count=22`), where stated. */
  readonly lines: Readonly<Record<string, number>>;
}

export interface Fixture {
  readonly lesson: string;
  readonly language: Language;
  /** `<lesson>/<language>/<name>`, the fixture's name in reports. */
  readonly id: string;
  readonly file: string;
  readonly expect: Expectation;
}

export class HeaderError extends Error {}

/**
 * Reads the header: `lesson-companion`, `expect-mistakes` and `style` lines are required; `expect-behaviour`,
 * `expect-unrecognised`, `expect-variant`, `expect-problems` and `expect-lines` (the line each mistake is
 * on, for the where-in-the-code measure) are optional. Comment markers are `#` or `//`.
 */
export function parseHeader(source: string, where: string): Expectation {
  const fields = new Map<string, string>();
  for (const line of source.split(/\r?\n/).slice(0, 12)) {
    const match = /^\s*(?:#|\/\/)\s*([a-z-]+):\s*(.*?)\s*$/.exec(line);
    if (match) fields.set(match[1]!, match[2]!);
  }
  const need = (key: string): string => {
    const value = fields.get(key);
    if (!value) throw new HeaderError(`${where}: the header has no "${key}:" line`);
    return value;
  };
  const lesson = need('lesson-companion');
  const listed = need('expect-mistakes');
  const correct = listed === 'none';
  const mistakes =
    correct || listed === '(unnamed)'
      ? []
      : listed
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean)
          .sort();
  if (!correct && listed !== '(unnamed)' && mistakes.length === 0)
    throw new HeaderError(`${where}: "expect-mistakes:" lists nothing`);
  const behaviour = fields.get('expect-behaviour');
  if (behaviour !== undefined && behaviour !== 'random' && behaviour !== 'rotating')
    throw new HeaderError(`${where}: expect-behaviour is "${behaviour}"; it is random or rotating`);
  if (behaviour !== undefined && !mistakes.includes('tiebreak'))
    throw new HeaderError(`${where}: expect-behaviour is only for a tiebreak mistake`);
  const unrecognised = fields.get('expect-unrecognised');
  if (unrecognised !== undefined && unrecognised !== 'yes')
    throw new HeaderError(`${where}: expect-unrecognised is "yes" or absent`);
  const problemKinds = (fields.get('expect-problems') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  // Wrong in no way the catalogue names: said as a difference, or as a problem (state carried over the reset).
  if (listed === '(unnamed)' && unrecognised !== 'yes' && problemKinds.length === 0)
    throw new HeaderError(
      `${where}: a program with no named mistake that is not correct has expect-unrecognised: yes or expect-problems`,
    );
  if (correct && unrecognised === 'yes')
    throw new HeaderError(`${where}: a correct program has no unrecognised difference`);
  const variants: Record<string, string> = {};
  for (const pair of (fields.get('expect-variant') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [mistake, mutant] = pair.split('=').map((s) => s.trim());
    if (!mistake || !mutant || !mistakes.includes(mistake))
      throw new HeaderError(`${where}: expect-variant "${pair}" is not <listed mistake>=<mutation>`);
    variants[mistake] = mutant;
  }
  const problems = (fields.get('expect-problems') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .sort();
  const lines: Record<string, number> = {};
  for (const pair of (fields.get('expect-lines') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [mistake, line] = pair.split('=').map((s) => s.trim());
    if (!mistake || !mistakes.includes(mistake) || !/^[1-9]\d*$/.test(line ?? ''))
      throw new HeaderError(`${where}: expect-lines "${pair}" is not <listed mistake>=<line>`);
    lines[mistake] = Number(line);
  }
  return {
    lesson,
    mistakes,
    problems,
    lines,
    correct,
    ...(behaviour ? { behaviour } : {}),
    unrecognised: unrecognised === 'yes',
    ...(fields.get('expect-unreproduced') ? { unreproduced: fields.get('expect-unreproduced')! } : {}),
    variants,
    style: need('style'),
  };
}

/**
 * Every program of the corpus. A lesson whose starter is a module driven by the pack (conn-counts) keeps
 * each program in its own folder under the starter's file name (`<name>/least_conn.py`).
 */
export function discoverFixtures(moduleNames: Readonly<Record<string, Partial<Record<Language, string>>>>): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const lesson of fs.readdirSync(CORPUS).sort()) {
    if (!fs.statSync(path.join(CORPUS, lesson)).isDirectory()) continue;
    for (const language of LANGUAGES) {
      const dir = path.join(CORPUS, lesson, language);
      if (!fs.existsSync(dir)) continue;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        let file: string;
        let name: string;
        if (entry.isDirectory()) {
          const moduleName = moduleNames[lesson]?.[language];
          if (!moduleName)
            throw new HeaderError(
              `${lesson}/${language}/${entry.name} is a folder, but lesson ${lesson} has no ${language} module to put in it`,
            );
          file = path.join(dir, entry.name, moduleName);
          name = entry.name;
        } else if (entry.name.endsWith(`.${EXT[language]}`)) {
          file = path.join(dir, entry.name);
          name = entry.name.slice(0, -EXT[language].length - 1);
        } else {
          continue;
        }
        const id = `${lesson}/${language}/${name}`;
        const expect = parseHeader(fs.readFileSync(file, 'utf8'), id);
        if (expect.lesson !== lesson)
          throw new HeaderError(`${id}: the header says lesson-companion: ${expect.lesson}`);
        fixtures.push({ lesson, language, id, file, expect });
      }
    }
  }
  return fixtures;
}

/** What a report names, in the words of a corpus header: ids, the tiebreak's behaviour, variants, problems asked for. */
export function namedVerdict(r: CheckReport, f: Fixture): string {
  const mistakes = r.mistakes
    .map(
      (m) =>
        `${m.id}${m.behaviour ? `/${m.behaviour}` : ''}${f.expect.variants[m.id] && m.variant ? `=${m.variant.mutant}` : ''}`,
    )
    .sort();
  const problems = f.expect.problems.filter((kind) => r.problems.some((p) => p.kind === kind));
  const unrecognised = r.problems.some((p) => p.kind === 'unrecognised-difference') ? ' + unrecognised' : '';
  return `${r.status} [${mistakes.join(', ')}]${unrecognised}${problems.length ? ` ${problems.join(', ')}` : ''}`;
}

export function expectedVerdict(f: Fixture): string {
  const mistakes = f.expect.mistakes
    .map(
      (id) =>
        `${id}${id === 'tiebreak' && f.expect.behaviour ? `/${f.expect.behaviour}` : ''}${f.expect.variants[id] ? `=${f.expect.variants[id]}` : ''}`,
    )
    .sort();
  const status = f.expect.correct && f.expect.problems.length === 0 ? 'pass' : 'fail';
  return `${status} [${mistakes.join(', ')}]${f.expect.unrecognised ? ' + unrecognised' : ''}${f.expect.problems.length ? ` ${f.expect.problems.join(', ')}` : ''}`;
}
