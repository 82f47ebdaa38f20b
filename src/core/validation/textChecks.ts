/**
 * Text fields of lesson.json that hold control characters: a title, a question or a scenario's description
 * with an escape sequence (OSC 52 writes the clipboard, `ESC[2J` clears the screen), a C1 control or a bidi
 * override. Every surface shows them escaped (terminalSafe, safeText), so the learner would see `\u001b…`
 * where the author meant words: a warning, pointed at the field.
 */
import { locate } from '../pack/manifest';
import type { LessonManifest } from '../pack/schema';

/** A warning in the shape of validate.ts's ValidationProblem (not imported: validate.ts imports this file). */
export interface ControlCharacterWarning {
  readonly severity: 'warning';
  readonly area: 'schema';
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly advice: string;
}

/** Control, format (bidi, zero-width), separator and lone surrogate characters, but line breaks and tabs. */
const CONTROL = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Fields warned about one by one; then one warning names the rest (up to LISTED of them). */
const WARNED = 50;
const LISTED = 500;

const pointerPart = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

export function checkControlCharacters(
  manifest: LessonManifest,
  manifestText: string,
  manifestFile: string,
): ControlCharacterWarning[] {
  const problems: ControlCharacterWarning[] = [];
  // Past the first WARNED fields, the rest are named together in one last warning: none is left out.
  const more: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (typeof value === 'string') {
      const found = CONTROL.exec(value);
      if (!found) return;
      if (problems.length >= WARNED) return void more.push(pointer);
      const code = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      const where = locate(
        manifestText,
        manifestFile,
        pointer,
        `${pointer || '/'} holds the control character ${code}`,
      );
      problems.push({
        severity: 'warning',
        area: 'schema',
        file: manifestFile,
        line: where.line,
        column: where.column,
        message: where.message,
        advice:
          'Terminals and the panel show it escaped (as \\u…), never raw: remove it, or write the words you meant.',
      });
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${pointer}/${i}`));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, `${pointer}/${pointerPart(key)}`);
  };
  walk(manifest, '');
  if (more.length > 0) {
    const listed = more.slice(0, LISTED);
    const rest = more.length - listed.length;
    const message = `and ${more.length} more text fields hold control characters: ${listed.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}`;
    const where = locate(manifestText, manifestFile, more[0]!, message);
    problems.push({
      severity: 'warning',
      area: 'schema',
      file: manifestFile,
      line: where.line,
      column: where.column,
      message,
      advice:
        'Terminals and the panel show them escaped (as \\u…), never raw: remove them, or write the words you meant.',
    });
  }
  return problems;
}
