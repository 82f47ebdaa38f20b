import { parseArgs } from 'node:util';
import { safeText } from '../core/text/text';
import { EXIT, type CliCommand } from './command';
import { allPacks } from './packSelection';

export const lessonsCommand: CliCommand = {
  name: 'lessons',
  usage: 'lessons [--json]',
  summary: 'list the lesson packs: built in, and installed',
  async run(args, io) {
    const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
    const { packs, broken } = await allPacks(io);
    if (values.json) {
      const list = packs.map((p) => ({
        id: p.manifest.id,
        version: p.manifest.version,
        title: p.manifest.title,
        languages: Object.keys(p.manifest.starters),
        origin: p.origin,
        dir: p.dir,
        transcripts: p.transcripts.length,
      }));
      io.out(JSON.stringify({ lessons: list, broken }, null, 2) + '\n');
      return EXIT.ok;
    }
    for (const p of packs) {
      io.out(
        `${p.manifest.id}  ${p.manifest.version}  ${safeText(p.manifest.title)}\n    ${Object.keys(p.manifest.starters).join(', ')} · ${p.transcripts.length} hidden transcripts · ${p.origin} · ${p.dir}\n`,
      );
    }
    for (const b of broken) io.err(`not loaded: ${safeText(b.dir)}\n${safeText(b.error, { multiline: true })}\n`);
    if (packs.length === 0) io.out('No lessons found.\n');
    return EXIT.ok;
  },
};
