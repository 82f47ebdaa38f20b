import type { Language } from './schema';

/** 1-based line where a function or method is defined, found by text so it works on broken code too. */
export function locateFunction(source: string, language: Language, name: string): number | null {
  const id = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns =
    language === 'python'
      ? [new RegExp(`^\\s*(async\\s+)?def\\s+${id}\\s*\\(`), new RegExp(`^\\s*class\\s+${id}\\b`)]
      : [
          new RegExp(`^\\s*(export\\s+)?(async\\s+)?function\\s*\\*?\\s*${id}\\s*[(<]`),
          new RegExp(`^\\s*(export\\s+)?(const|let|var)\\s+${id}\\s*(:[^=]*)?=`),
          new RegExp(`^\\s*(public\\s+|private\\s+|static\\s+|async\\s+)*${id}\\s*(<[^>]*>)?\\s*\\([^)]*\\)\\s*(:[^{]*)?\\{`),
          new RegExp(`^\\s*${id}\\s*:\\s*(async\\s+)?(function\\b|\\()`),
          new RegExp(`^\\s*(export\\s+)?(abstract\\s+)?(class|interface|type)\\s+${id}\\b`),
        ];
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (patterns.some((p) => p.test(lines[i]!))) return i + 1;
  }
  return null;
}

/** A lesson id declared in a file header, e.g. `# lesson-companion: least-connections`. */
export function declaredLesson(source: string): string | undefined {
  const head = source.split(/\r?\n/, 15).join('\n');
  return /lesson-companion:\s*lesson\s*=?\s*([a-z0-9][a-z0-9-]*)/.exec(head)?.[1] ?? /lesson-companion:\s*([a-z0-9][a-z0-9-]*)/.exec(head)?.[1];
}
