/**
 * A built-in lesson's passing batch, computed in this process before any engine worker has started. A built-in
 * lesson's model is the tool's own code, shipped beside this bundle and transpiled inside it (modelCache.ts), not
 * pack code: it may run here, as the tool's other code does (issue 29 holds every other pack's model to the
 * sandboxed worker). The command line then starts the learner's run at once, beside the worker's start, and a
 * correct program passes on that run without waiting for the engine (engineCheck.ts).
 */
import * as path from 'node:path';
import { defaultSeed } from '../../core/check/cases';
import type { PassingBatch } from '../../core/check/checkInput';
import { passingBatch } from '../../core/check/passingBatch';
import { transpiledModelFiles } from '../engine/modelCache';
import { loadModel } from '../engine/modelLoader';
import type { LoadedPack } from '../packs/packs';

/** The batch of a check with these settings, or undefined for a pack that is not built in, or a model that fails. */
export function builtInBatch(
  pack: LoadedPack,
  settings: { readonly seed?: number; readonly fuzzTranscripts?: number },
): PassingBatch | undefined {
  if (pack.origin !== 'built-in') return undefined;
  try {
    const entry = path.resolve(pack.dir, pack.manifest.model);
    const model = pack.model ?? loadModel(pack.dir, entry, transpiledModelFiles(entry));
    return passingBatch({
      manifest: pack.manifest,
      model,
      transcripts: pack.transcripts,
      options: {
        seed: settings.seed ?? defaultSeed(pack.manifest),
        ...(settings.fuzzTranscripts !== undefined ? { fuzzTranscripts: settings.fuzzTranscripts } : {}),
      },
    });
  } catch {
    return undefined; // the engine worker meets the same failure and says it in the check's words
  }
}
