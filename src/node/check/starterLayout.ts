/** Where a lesson's starter lives in its pack: what a sandbox shows as the learner's own (learnerView.ts). */
import type { Language, LessonManifest } from '../../core/pack/schema';
import { resolveInside } from '../packs/packs';
import type { StarterLayout } from '../sandbox/learnerView';

/** The starter layout of `pack` for `language`, when it has one inside the pack. */
export async function starterLayout(
  pack: { readonly dir: string; readonly manifest: LessonManifest },
  language: Language,
): Promise<StarterLayout | undefined> {
  const starter = pack.manifest.starters[language];
  const dir = starter ? await resolveInside(pack.dir, starter.dir) : undefined;
  return starter && dir ? { dir, main: starter.main } : undefined;
}
