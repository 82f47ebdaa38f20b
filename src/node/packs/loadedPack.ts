/** A lesson pack as loaded from its folder (packs.ts), and as kept between loads (packCache.ts). */
import type { LessonManifest } from '../../core/pack/schema';
import type { ReferenceModel } from '../../core/model/model';
import type { Transcript } from '../../core/model/transcript';

export interface LoadedPack {
  readonly dir: string;
  readonly manifest: LessonManifest;
  /**
   * The pack's reference model: pack code. Loaded only where pack code may run (the engine worker, the
   * author's own tools), never in the editor's process.
   */
  readonly model?: ReferenceModel;
  readonly transcripts: readonly Transcript[];
  readonly origin: 'built-in' | 'installed' | 'folder';
}
