/**
 * Where a mistake of a program that draws at random is: the line that draws (randomSources.ts), in the
 * mistake's function when it has one there, else anywhere in the file when only a few lines draw. Tracing
 * cannot show it (the same lines run whichever way the draw goes, and a traced run seldom answers the same).
 */
import type { Language } from '../pack/schema';
import type { Location } from '../report/report';
import { randomSources } from '../text/randomSources';
import { enclosingFunction, functionBodyLines, locateFunction } from '../text/source';

/** Lines that draw outside the mistake's function, at most, for one of them to be the choice. */
const MAX_ELSEWHERE = 3;

export function randomLocation(source: string, language: Language, functionName: string): Location | undefined {
  const sources = randomSources(source, language);
  if (sources.length === 0) return undefined;
  const def = locateFunction(source, language, functionName);
  const body = new Set(def ? functionBodyLines(source, language, def) : []);
  const inside = sources.filter((s) => body.has(s.line));
  if (inside.length === 0 && sources.length > MAX_ELSEWHERE) return undefined;
  const chosen = inside.length > 0 ? inside : sources;
  const first = chosen[0]!;
  const why =
    first.kind === 'draw'
      ? 'this line draws at random'
      : 'this loop walks a set, whose order changes from one run of the program to the next';
  return {
    lines: chosen.map((s) => s.line),
    function: enclosingFunction(source, language, first.line),
    reason: `${why}, and two fresh runs of the same commands answered differently`,
  };
}
