// Requests between the processes of one `tasman start` over Node's IPC channel (process.send / worker.send).
// Both ends use the same code: each side answers the kinds it handles and awaits answers to what it asked.

/** Every message Tasman sends between its processes; `tasman` tells them apart from Node's and prom-client's. */
export type ClusterMessage =
  | { tasman: 'ready'; url: string; dashboard: boolean }
  | { tasman: 'carriers'; carriers: Array<{ name: string; bound: boolean }> | null; unservedCountries?: string[] }
  | { tasman: 'request'; id: number; kind: string; payload: unknown }
  | { tasman: 'response'; id: number; ok: true; value: unknown }
  | { tasman: 'response'; id: number; ok: false; error: string };

export function isClusterMessage(message: unknown): message is ClusterMessage {
  return typeof message === 'object' && message !== null && typeof (message as { tasman?: unknown }).tasman === 'string';
}

export type Handler = (payload: unknown) => Promise<unknown>;

const DEFAULT_TIMEOUT_MS = 10_000;

/** One end of the channel: `send` writes to the other process; feed every message it sends us to `receive`. */
export function createRpc(send: (message: ClusterMessage) => void, handlers: Record<string, Handler> = {}) {
  let next = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void; timer: NodeJS.Timeout }>();

  const answer = (id: number, work: Promise<unknown>) => {
    work.then(
      (value) => send({ tasman: 'response', id, ok: true, value }),
      (err: unknown) => send({ tasman: 'response', id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    ).catch(() => { /* the other process is gone: nobody is waiting */ });
  };

  return {
    handlers,
    request<T>(kind: string, payload: unknown = null, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`no answer to ${kind} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        try {
          send({ tasman: 'request', id, kind, payload });
        } catch (err) {
          clearTimeout(timer);
          pending.delete(id);
          reject(err as Error);
        }
      });
    },
    /** Handles a request or response; returns false for any other message, for the caller to handle. */
    receive(message: ClusterMessage): boolean {
      if (message.tasman === 'request') {
        const handler = handlers[message.kind];
        answer(message.id, handler ? Promise.resolve().then(() => handler(message.payload)) : Promise.reject(new Error(`no handler for ${message.kind}`)));
        return true;
      }
      if (message.tasman === 'response') {
        const waiting = pending.get(message.id);
        if (!waiting) return true;
        pending.delete(message.id);
        clearTimeout(waiting.timer);
        if (message.ok) waiting.resolve(message.value);
        else waiting.reject(new Error(message.error));
        return true;
      }
      return false;
    },
    /** The other process is gone: fail whatever still waits for it. */
    abandon(reason: string): void {
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error(reason));
        pending.delete(id);
      }
    },
  };
}

export type Rpc = ReturnType<typeof createRpc>;
