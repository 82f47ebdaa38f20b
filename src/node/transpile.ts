/**
 * TypeScript and ES-module syntax to CommonJS, with sucrase (pure JavaScript, keeps line numbers, so
 * tracebacks point at the author's own lines). Loaded on first use: most commands never transpile.
 */
type Sucrase = typeof import('sucrase');
let sucrase: Sucrase | undefined;

export type Transpiled = { code: string } | { error: string; line: number | null };

export function transformModule(source: string, file: string): Transpiled {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, to keep CLI start-up short
  sucrase ??= require('sucrase') as Sucrase;
  const typescript = /\.[cm]?ts$/.test(file);
  try {
    return { code: sucrase.transform(source, { transforms: typescript ? ['typescript', 'imports'] : ['imports'], filePath: file, keepUnusedImports: false }).code };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = /\((\d+):(\d+)\)/.exec(message);
    return { error: message.replace(/^Error transforming [^:]*: /, ''), line: match ? Number(match[1]) : null };
  }
}
