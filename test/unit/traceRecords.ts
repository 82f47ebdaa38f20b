/**
 * Hand-written line-trace records, in the shape the bootstraps print (src/node/run/traceBootstraps.ts), and
 * what src/core/diagnosis/lineAttribution.ts makes of them, for the attribution tests.
 */
import { attributeLines, type TraceRecord, type TraceRecordKind } from '../../src/core/diagnosis/lineAttribution';

/** A record with lines of file 0. */
export const r = (kind: TraceRecordKind, value: number, lines: number[] = [], stdoutLines = 0): TraceRecord => ({
  kind,
  value,
  hits: new Map(lines.length ? [[0, lines]] : []),
  stdoutLines,
});

/** Each command's lines of file 0, sorted, or undefined. */
export function shares(
  records: TraceRecord[],
  answerLineCounts: number[],
  commandCount: number,
): { by: string; lines: (number[] | undefined)[] } {
  const result = attributeLines(records, answerLineCounts, commandCount);
  return {
    by: result.by,
    lines: result.perCommand.map((files) => (files ? [...(files.get(0) ?? [])].sort((a, b) => a - b) : undefined)),
  };
}
