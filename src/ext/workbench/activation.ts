/** How long activate() took: logged, and read back by the integration test through the internal state command. */
export const activation: { ms: number | undefined } = { ms: undefined };
