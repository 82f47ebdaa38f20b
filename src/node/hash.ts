import { createHash } from 'node:crypto';

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** The hash lesson packs store answers as (salt + ":" + normal form), hex. */
export function sha256Hex(text: string): string {
  return sha256(Buffer.from(text, 'utf8'));
}
