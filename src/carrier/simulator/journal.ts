// The built-in SMSC's pending receipts, on disk: a receipt is written (and fsync'd) before the submit_sm_resp that
// promises it, and one that was due when the process died is sent after the restart. An append-only file of JSON
// lines in DATA_DIR: `due` when a receipt is promised, `done` once the ESME acknowledged it. Appends made in one
// event-loop turn share one fsync (group commit). On open, the pending ones are read back and the file is rewritten
// with only them (written to a temporary file, fsync'd, renamed).
import fs from 'node:fs';
import path from 'node:path';

export interface JournalledReceipt {
  id: string;
  /** When it is due, in ms since the epoch. */
  dueAt: number;
  /** What the deliver_sm needs: addresses, the receipt text and the message_state TLV. */
  pdu: { sourceAddrTon: number; sourceAddrNpi: number; sourceAddr: string; destAddrTon: number; destAddrNpi: number; destinationAddr: string; text: string; state: number };
}

export interface ReceiptJournal {
  /** The receipts promised and not acknowledged when the file was opened. */
  readonly pending: JournalledReceipt[];
  /** Resolves once the entry is on disk. */
  promise(receipt: JournalledReceipt): Promise<void>;
  /** Acknowledged: not sent again after a restart (written without waiting; a lost line costs one resend). */
  done(id: string): void;
  close(): void;
}

export function openReceiptJournal(file: string): ReceiptJournal {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const pendingById = new Map<string, JournalledReceipt>();
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      let entry: { op: string; id: string; receipt?: JournalledReceipt };
      // A torn last line (the process died mid-write) was never fsync'd, so never promised: skipped.
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (entry.op === 'due' && entry.receipt) pendingById.set(entry.id, entry.receipt);
      else if (entry.op === 'done') pendingById.delete(entry.id);
    }
  }
  const pending = [...pendingById.values()];
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, pending.map((r) => `${JSON.stringify({ op: 'due', id: r.id, receipt: r })}\n`).join(''));
  const tmpFd = fs.openSync(temporary, 'r+');
  fs.fsyncSync(tmpFd);
  fs.closeSync(tmpFd);
  fs.renameSync(temporary, file);
  const fd = fs.openSync(file, 'a');

  let lines: string[] = [];
  let waiters: Array<{ resolve(): void; reject(err: Error): void }> = [];
  let scheduled = false;
  let closed = false;
  const flush = (): void => {
    scheduled = false;
    const batch = lines.join('');
    const resolved = waiters;
    lines = [];
    waiters = [];
    try {
      if (batch) fs.writeSync(fd, batch);
      if (resolved.length > 0) fs.fdatasyncSync(fd);
      for (const w of resolved) w.resolve();
    } catch (err) {
      for (const w of resolved) w.reject(err as Error);
    }
  };
  const append = (line: string): void => {
    lines.push(`${line}\n`);
    if (!scheduled) { scheduled = true; setImmediate(flush); }
  };

  return {
    pending,
    promise(receipt) {
      if (closed) return Promise.reject(new Error('receipt journal closed'));
      return new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject });
        append(JSON.stringify({ op: 'due', id: receipt.id, receipt }));
      });
    },
    done(id) { if (!closed) append(JSON.stringify({ op: 'done', id })); },
    close() {
      if (closed) return;
      flush();
      closed = true;
      fs.closeSync(fd);
    },
  };
}
