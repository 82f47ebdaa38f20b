/**
 * Runtime guards for values that cross the boundary between the extension host and the panel webview: each
 * bounded (a string's length, a number's range), since the other side is another process and may be stale.
 */

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isStr = (v: unknown, max = 10_000): v is string => typeof v === 'string' && v.length <= max;
export const isInt = (v: unknown, min = 0, max = 10_000): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
export const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);
export const isStrings = (v: unknown, max = 1000): v is string[] =>
  Array.isArray(v) && v.length <= max && v.every((x) => isStr(x));
