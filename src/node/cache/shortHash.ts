/**
 * A short name for a text: FNV-1a, twice (64 bits as hex). For cache file names only, never a security
 * boundary: what is read back is checked against what it stands for. node:crypto would cost the CLI's start
 * more to load than the whole name is worth.
 */
export function shortHash(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    low = Math.imul(low ^ c, 0x01000193) >>> 0;
    high = Math.imul(high ^ c ^ (low >>> 16), 0x01000193) >>> 0;
  }
  return low.toString(16).padStart(8, '0') + high.toString(16).padStart(8, '0');
}
