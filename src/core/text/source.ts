import type { Language } from '../pack/schema';

/** 1-based line where a function or method is defined, found by text so it works on broken code too. */
export function locateFunction(source: string, language: Language, name: string): number | null {
  const id = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns =
    language === 'python'
      ? [new RegExp(`^\\s*(async\\s+)?def\\s+${id}\\s*\\(`), new RegExp(`^\\s*class\\s+${id}\\b`)]
      : [
          new RegExp(`^\\s*(export\\s+)?(async\\s+)?function\\s*\\*?\\s*${id}\\s*[(<]`),
          new RegExp(`^\\s*(export\\s+)?(const|let|var)\\s+${id}\\s*(:[^=]*)?=`),
          new RegExp(
            `^\\s*(public\\s+|private\\s+|static\\s+|async\\s+)*${id}\\s*(<[^>]*>)?\\s*\\([^)]*\\)\\s*(:[^{]*)?\\{`,
          ),
          new RegExp(`^\\s*${id}\\s*:\\s*(async\\s+)?(function\\b|\\()`),
          new RegExp(`^\\s*(export\\s+)?(abstract\\s+)?(class|interface|type)\\s+${id}\\b`),
        ];
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (patterns.some((p) => p.test(lines[i]!))) return i + 1;
  }
  return null;
}

/** A lesson id declared in a file header, e.g. `# lesson-companion: my-lesson`. */
export function declaredLesson(source: string): string | undefined {
  const head = source.split(/\r?\n/, 15).join('\n');
  return (
    /lesson-companion:\s*lesson\s*=?\s*([a-z0-9][a-z0-9-]*)/.exec(head)?.[1] ??
    /lesson-companion:\s*([a-z0-9][a-z0-9-]*)/.exec(head)?.[1]
  );
}

/**
 * The first line (0-based) of a function's body that runs when it is called, from the line of its
 * definition: a breakpoint on `def pick(` stops only when the module defines it, not when it is called.
 * Skips a multi-line signature, blank lines, comments and a Python docstring. Null when there is none.
 */
export function firstBodyLine(source: string, language: Language, defLine: number): number | null {
  const lines = source.split(/\r?\n/);
  let i = defLine;
  // The signature ends at the line with the body's opener (":" in Python, "{" elsewhere).
  const opener = language === 'python' ? /:\s*(#.*)?$/ : /\{/;
  while (i < lines.length && !opener.test(lines[i]!)) i++;
  if (i >= lines.length) return null;
  // A one-line body after the brace (`function f() { return 1; }`) is on this line.
  const rest = language === 'python' ? '' : lines[i]!.slice(lines[i]!.lastIndexOf('{') + 1);
  if (rest.trim() !== '' && !rest.trim().startsWith('#') && !rest.trim().startsWith('//') && rest.trim() !== '}')
    return i;
  i++;
  let inDocstring: string | null = null;
  let inBlockComment = false;
  for (; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (inDocstring) {
      if (text.includes(inDocstring)) inDocstring = null;
      continue;
    }
    if (inBlockComment) {
      if (text.includes('*/')) inBlockComment = false;
      continue;
    }
    if (text === '' || text.startsWith('#') || text.startsWith('//')) continue;
    if (language === 'python') {
      const quote = /^[rRbBuU]?("""|''')/.exec(text)?.[1];
      if (quote) {
        // A docstring closed on its own line takes just that line.
        if (text.indexOf(quote, text.indexOf(quote) + 3) < 0) inDocstring = quote;
        continue;
      }
    } else if (text.startsWith('/*')) {
      if (!text.includes('*/')) inBlockComment = true;
      continue;
    }
    return text === '}' ? null : i;
  }
  return null;
}

/**
 * The name of the function (or method) whose body holds `line`, found by text: the nearest definition above
 * it, at a smaller indentation for Python. null at module level or when nothing looks like a definition.
 */
export function enclosingFunction(source: string, language: Language, line: number): string | null {
  const lines = source.split(/\r?\n/);
  const indent = (text: string): number => text.length - text.trimStart().length;
  const target = lines[line - 1];
  if (target === undefined) return null;
  let limit = indent(target);
  const definitions =
    language === 'python'
      ? [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/]
      : [
          /^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[(<]/,
          /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|[A-Za-z_$][\w$]*\s*=>)/,
          /^\s*(?:(?:public|private|protected|static|async|override|readonly)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^)]*\)\s*(?::[^{]*)?\{/,
        ];
  // JavaScript: a definition counts only if it opens a brace still open at the line (not a function that ended above).
  let closers = 0;
  for (let i = line - 1; i >= 0; i--) {
    const text = lines[i]!;
    let opens = false;
    if (i < line - 1 && language !== 'python') [closers, opens] = unmatchedOpen(text, closers);
    if (text.trim() === '') continue;
    if (i < line - 1 && indent(text) >= limit && language === 'python') continue;
    for (const pattern of definitions) {
      const match = pattern.exec(text);
      const encloses = language === 'python' || i === line - 1 || opens;
      if (match && encloses && !['if', 'for', 'while', 'switch', 'catch', 'return'].includes(match[1]!))
        return match[1]!;
    }
    if (language === 'python' && indent(text) < limit) limit = indent(text);
  }
  return null;
}

/**
 * A line read from its end, `closers` being the braces closed below it and not yet matched: those still unmatched
 * above it, and whether it opens a brace that none of them closes (a block holding the lines below). Strings and
 * line comments are left out as far as a quick look can tell.
 */
function unmatchedOpen(text: string, closers: number): [number, boolean] {
  const code = text.replace(/\/\/.*$/, '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '');
  let opens = false;
  for (let k = code.length - 1; k >= 0; k--) {
    if (code[k] === '}') closers++;
    else if (code[k] === '{') {
      if (closers > 0) closers--;
      else opens = true;
    }
  }
  return [closers, opens];
}

/**
 * The 1-based lines of a function's body, from the line of its definition (1-based): by indentation in
 * Python, by braces elsewhere (a brace in a string or comment can end it early; good enough to place a
 * message). Empty when the definition has no body on the following lines.
 */
export function functionBodyLines(source: string, language: Language, defLine: number): number[] {
  const lines = source.split(/\r?\n/);
  const indent = (text: string): number => text.length - text.trimStart().length;
  const out: number[] = [];
  if (language === 'python') {
    const base = indent(lines[defLine - 1] ?? '');
    for (let i = defLine; i < lines.length; i++) {
      const text = lines[i]!;
      if (text.trim() === '') continue;
      if (indent(text) <= base && out.length > 0) break;
      if (indent(text) > base) out.push(i + 1);
    }
    return out;
  }
  let depth = 0;
  let opened = false;
  for (let i = defLine - 1; i < lines.length; i++) {
    for (const ch of lines[i]!) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (i > defLine - 1 && opened && (depth > 0 || lines[i]!.trim() !== '}')) out.push(i + 1);
    if (opened && depth <= 0) break;
  }
  return out;
}

/**
 * The source with its comment lines (and Python docstring lines) blanked to spaces, every index kept: a
 * read-order step's pattern searched in it lands on code, never on "# What pick() returns when…".
 */
export function blankCommentLines(source: string, language: Language): string {
  const comment = language === 'python' ? /^\s*#/ : /^\s*(\/\/|\/\*|\*)/;
  let inDocstring = false;
  return source
    .split(/(\r?\n)/)
    .map((part, i) => {
      if (i % 2 === 1) return part; // a line break
      const quotes = language === 'python' ? (part.match(/"""|'''/g) ?? []).length : 0;
      const blank = inDocstring || comment.test(part) || (quotes > 0 && /^\s*("""|''')/.test(part));
      if (quotes % 2 === 1) inDocstring = !inDocstring;
      return blank ? ' '.repeat(part.length) : part;
    })
    .join('');
}
