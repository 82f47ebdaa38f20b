/**
 * Hashes for packs and answers. node:crypto is loaded on first use: it is a tenth of the CLI's start, and
 * listing lessons or printing help hashes nothing.
 */
import { SCRYPT_LIMITS, type ScryptCost } from '../../core/pack/schema';

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

/**
 * scrypt(password, salt) as hex, the slow form `short` answers are stored in. Asynchronous: it runs on
 * libuv's thread pool, so the extension host (and the CLI's event loop) goes on while it computes.
 */
export function scryptHex(password: string, salt: string, cost: ScryptCost): Promise<string> {
  const memory = 128 * cost.N * cost.r;
  if (
    memory > SCRYPT_LIMITS.maxMemoryBytes ||
    cost.p > SCRYPT_LIMITS.maxP ||
    cost.keyLength > SCRYPT_LIMITS.maxKeyLength
  ) {
    return Promise.reject(
      new Error(`the answer's scrypt cost (N=${cost.N}, r=${cost.r}, p=${cost.p}) is above what a check allows`),
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  crypto ??= require('node:crypto') as Crypto;
  const { scrypt } = crypto;
  return new Promise((resolve, reject) => {
    // maxmem: Node's default (32 MiB) is below what the bounds allow; leave room for r·p blocks.
    scrypt(
      Buffer.from(password, 'utf8'),
      Buffer.from(salt, 'utf8'),
      cost.keyLength,
      { N: cost.N, r: cost.r, p: cost.p, maxmem: memory + 128 * cost.r * cost.p + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key.toString('hex'))),
    );
  });
}
