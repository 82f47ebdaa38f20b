/** The check's default limits, in a module of their own so the editor can read them without the engine. */
export const DEFAULT_TIME_LIMIT_MS = 5000;
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;
