/**
 * MD5 of a short ASCII string, as hex: the chapter's sticky routing pins a session by
 * `int(hashlib.md5(session_id.encode()).hexdigest(), 16) % len(SERVERS)`, and a model has no `require`
 * (no node:crypto), so the pack carries this small pure one. test/unit/stickySessions.test.ts checks it
 * against node:crypto.
 */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

export function md5Hex(text: string): string {
  const bytes: number[] = [];
  for (const ch of text) bytes.push(ch.charCodeAt(0) & 0xff);
  const bitLength = bytes.length * 8;
  bytes.push(0x80);
  while (bytes.length % 64 !== 56) bytes.push(0);
  for (let i = 0; i < 8; i++) bytes.push(i < 4 ? (bitLength >>> (8 * i)) & 0xff : 0);
  let a0 = 0x67452301;
  let b0 = 0xefcdab89 | 0;
  let c0 = 0x98badcfe | 0;
  let d0 = 0x10325476;
  for (let offset = 0; offset < bytes.length; offset += 64) {
    const words = Array.from({ length: 16 }, (_, i) => bytes[offset + 4 * i]! | (bytes[offset + 4 * i + 1]! << 8) | (bytes[offset + 4 * i + 2]! << 16) | (bytes[offset + 4 * i + 3]! << 24));
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) [f, g] = [(b & c) | (~b & d), i];
      else if (i < 32) [f, g] = [(d & b) | (~d & c), (5 * i + 1) % 16];
      else if (i < 48) [f, g] = [b ^ c ^ d, (3 * i + 5) % 16];
      else [f, g] = [c ^ (b | ~d), (7 * i) % 16];
      f = (f + a + K[i]! + words[g]!) | 0;
      a = d;
      d = c;
      c = b;
      const s = SHIFTS[(i >> 4) * 4 + (i % 4)]!;
      b = (b + ((f << s) | (f >>> (32 - s)))) | 0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  return [a0, b0, c0, d0].map((w) => Array.from({ length: 4 }, (_, i) => ((w >>> (8 * i)) & 0xff).toString(16).padStart(2, '0')).join('')).join('');
}

/** The hex number `hex` modulo `n`, digit by digit (no BigInt needed). */
export function hexMod(hex: string, n: number): number {
  let r = 0;
  for (const digit of hex) r = (r * 16 + parseInt(digit, 16)) % n;
  return r;
}
