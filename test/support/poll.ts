/** Reads until `done` holds, or fails naming `what` with the last value (no fixed waits: the machine may be slow). */
export async function pollUntil<T>(read: () => Promise<T> | T, done: (v: T) => boolean, what: string, timeoutMs = 60_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
