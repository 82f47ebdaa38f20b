/**
 * TypeScript and ES-module syntax to CommonJS, with sucrase (pure JavaScript, keeps line numbers, so
 * tracebacks point at the author's own lines). Loaded on first use: most commands never transpile.
 */
import * as path from 'node:path';

type Sucrase = typeof import('sucrase');
let sucrase: Sucrase | undefined;

export type Transpiled = { code: string } | { error: string; line: number | null };

function loadSucrase(): Sucrase {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, to keep CLI start-up short
  sucrase ??= require('sucrase') as Sucrase;
  return sucrase;
}

function baseOptions(file: string): import('sucrase').Options {
  const typescript = /\.[cm]?ts$/.test(file);
  return { transforms: typescript ? ['typescript', 'imports'] : ['imports'], filePath: file, keepUnusedImports: false };
}

/**
 * With `sourceMap`, the code ends in an inline source map whose source is `file` itself (absolute), so a
 * debugger binds breakpoints set in the learner's .ts file to the transpiled .js that runs.
 */
export function transformModule(source: string, file: string, options: { sourceMap?: boolean } = {}): Transpiled {
  try {
    const result = loadSucrase().transform(source, {
      ...baseOptions(file),
      ...(options.sourceMap
        ? {
            sourceMapOptions: {
              compiledFilename: file
                .replace(/\.[cm]?ts$/, '.js')
                .split(/[\\/]/)
                .pop()!,
            },
          }
        : {}),
    });
    if (options.sourceMap && result.sourceMap) {
      const map = Buffer.from(JSON.stringify({ ...result.sourceMap, sourcesContent: [source] })).toString('base64');
      return { code: `${result.code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${map}\n` };
    }
    return { code: result.code };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = /\((\d+):(\d+)\)/.exec(message);
    return { error: message.replace(/^Error transforming [^:]*: /, ''), line: match ? Number(match[1]) : null };
  }
}

/** The source map of `file`'s transpiled code (sources: the file itself), or undefined if it does not compile. */
export function sourceMapOf(source: string, file: string): import('node:module').SourceMapPayload | undefined {
  try {
    const result = loadSucrase().transform(source, {
      ...baseOptions(file),
      sourceMapOptions: { compiledFilename: path.basename(file).replace(/\.[cm]?ts$/, '.js') },
    });
    return result.sourceMap as import('node:module').SourceMapPayload | undefined;
  } catch {
    return undefined;
  }
}
