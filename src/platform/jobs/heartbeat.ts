/**
 * The lease heartbeat (README.md): calls `beat` every `everyMs` until stopped, never two beats at once (a slow
 * database does not pile renewals up). A failed beat only shortens the lease, so it is reported and the next one
 * follows. Used by the worker loop for claimed rows and by the idempotency claims of the send routes.
 */
export function startHeartbeat(options: {
  everyMs: number;
  beat(): Promise<unknown>;
  onError?(err: Error): void;
}): () => void {
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    options.beat()
      .catch((err: Error) => options.onError?.(err))
      .finally(() => { beating = false; });
  }, Math.max(1, options.everyMs));
  // A lease renewal never keeps the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
}

/** Renew a lease every third of it: two beats can be missed before it lapses. */
export const renewEvery = (leaseMs: number) => Math.max(1, Math.floor(leaseMs / 3));
