/**
 * Hashes for packs and answers. node:crypto is loaded on first use: it is a tenth of the CLI's start, and
 * listing lessons or printing help hashes nothing.
 */
type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

export const sha256 = (data: Buffer | string): string => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  crypto ??= require('node:crypto') as Crypto;
  return crypto.createHash('sha256').update(data).digest('hex');
};

/** The hash lesson packs store answers as (salt + ":" + normal form), hex. */
export function sha256Hex(text: string): string {
  return sha256(Buffer.from(text, 'utf8'));
}
