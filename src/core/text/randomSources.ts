/**
 * The lines of a learner's file where it draws at random, found by text: a call into Python's `random` or
 * `secrets` (also by a name imported from them), JavaScript's `Math.random` or `crypto.randomInt`, and in
 * Python a walk over a set (its order follows the string hash seed, which changes with every process). Where a
 * program that answers differently on two fresh runs makes its choice; a tracer cannot show that line, since
 * the same lines run whichever way the draw goes.
 */
import type { Language } from '../pack/schema';

export interface RandomSource {
  /** 1-based. */
  readonly line: number;
  readonly kind: 'draw' | 'set-order';
}

const PY_MODULE_CALL =
  /\b(?:random|secrets|np\.random|numpy\.random)\.(?:choice|choices|randrange|randint|random|shuffle|sample|uniform|getrandbits|randbelow|token_\w+)\s*\(/;
const PY_FROM_IMPORT = /^\s*from\s+(?:random|secrets)\s+import\s+(.+)$/;
const JS_CALL = /\bMath\.random\s*\(|\b(?:crypto\.)?(?:randomInt|getRandomValues)\s*\(/;
/** `self.backends = set(names)`, `live = {a, b}`, `seen: set[str] = set()`: a name that holds a set. */
const PY_SET_ASSIGN = /^\s*((?:self\.)?[A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(?:set\(|frozenset\(|\{[^{}:]+\}\s*$)/;

const isComment = (text: string, language: Language): boolean =>
  language === 'python' ? /^\s*#/.test(text) : /^\s*(\/\/|\/\*|\*)/.test(text);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Names bound by `from random import choice, randrange as rr`. */
function importedDraws(lines: readonly string[]): string[] {
  const names: string[] = [];
  for (const text of lines) {
    const match = PY_FROM_IMPORT.exec(text);
    if (!match) continue;
    for (const part of match[1]!.replace(/[()]/g, '').split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name && /^[A-Za-z_]\w*$/.test(name)) names.push(name);
    }
  }
  return names;
}

/** Python lines that walk a set in its own order: `for x in <set>`, `min(<set>, …)`, `next(iter(<set>))`, `<set>.pop()`. */
function setWalks(lines: readonly string[]): RandomSource[] {
  const sets = new Set<string>();
  for (const text of lines) {
    const match = PY_SET_ASSIGN.exec(text);
    if (match) sets.add(match[1]!);
  }
  if (sets.size === 0) return [];
  const names = [...sets].map(escape).join('|');
  const walk = new RegExp(
    `\\bfor\\s+[\\w\\s,()]+\\s+in\\s+(?:${names})\\s*[:\\]\\)]|\\b(?:min|max|next|iter|list|tuple)\\(\\s*(?:${names})\\b|(?:${names})\\.pop\\(\\s*\\)`,
  );
  const out: RandomSource[] = [];
  lines.forEach((text, i) => {
    if (!isComment(text, 'python') && !/\bsorted\(/.test(text) && walk.test(text))
      out.push({ line: i + 1, kind: 'set-order' });
  });
  return out;
}

export function randomSources(source: string, language: Language): RandomSource[] {
  const lines = source.split(/\r?\n/);
  if (language !== 'python') {
    const out: RandomSource[] = [];
    lines.forEach((text, i) => {
      if (!isComment(text, language) && JS_CALL.test(text)) out.push({ line: i + 1, kind: 'draw' });
    });
    return out;
  }
  const imported = importedDraws(lines);
  const bare = imported.length > 0 ? new RegExp(`(?<![\\w.])(?:${imported.map(escape).join('|')})\\s*\\(`) : undefined;
  const draws: RandomSource[] = [];
  lines.forEach((text, i) => {
    if (isComment(text, language) || PY_FROM_IMPORT.test(text)) return;
    if (PY_MODULE_CALL.test(text) || bare?.test(text)) draws.push({ line: i + 1, kind: 'draw' });
  });
  return [...draws, ...setWalks(lines)].sort((a, b) => a.line - b.line);
}
