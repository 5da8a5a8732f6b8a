// The npm `smpp` server as an SMSC in a process of its own, for tests that kill it (SIGKILL) mid-stream. Every
// submit_sm it accepts is written to stdout synchronously *before* its submit_sm_resp, as `SUBMIT <to> <id>`: a
// line missing means the ESME cannot have had the answer, so a test can account for every message exactly even
// when the process dies. A receipt (DELIVRD) follows each accepted submit that asked for one.
// The full line is `SUBMIT <to> <id> <session> <ms> <epoch ms>`: the connection's number (0, 1… in bind order)
// and when the submit arrived (performance.now(), so a test can count submits per connection per second without
// pipe delays; and Date.now(), to compare with the test's own clock).
// Env: SMSC_PORT (0 picks one; printed as `LISTENING <port>`), SMSC_SYSERR_FILE (while that file exists,
// every submit_sm is refused with ESME_RSYSERR: an SMSC in trouble), SMSC_RECEIPTS=0 (no automatic receipts),
// SMSC_MESSAGE_ID (answer every submit with this id, as two carriers' equal ids), SMSC_RESEND_RECEIPTS=1 (a
// receipt whose deliver_sm_resp never came, its connection gone, is sent again on the next bind, and one answered
// with an error a second later, as real SMSCs do),
// SMSC_HOLD_FIRST=n (the first n accepted submits get their receipt before, and instead of, their submit_sm_resp;
// `RECEIPTED <id> <status>` is written when the ESME answers that receipt), SMSC_TPS_LIMIT=n (it takes n submit_sm
// per calendar second and answers the rest ESME_RTHROTTLED, writing `THROTTLED <to>`).
// Each bind is written as `BOUND <session>`.
// Stdin: `DELIVER <session> <json>` sends a deliver_sm with those fields on that connection, and writes
// `DELIVERED <session> <command_status of the ESME's answer>`.
import { existsSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import smpp from 'smpp';

const prefix = randomBytes(2).toString('hex').toUpperCase();
let counter = 0;
let held = 0;
// Submits taken in the current calendar second (SMSC_TPS_LIMIT).
let second = 0;
let taken = 0;
const sessions = [];
// Receipts not yet acknowledged, by id: sent again on the next bind when SMSC_RESEND_RECEIPTS=1.
const unacknowledged = new Map();
const sendReceipt = (session, id, fields) => {
  unacknowledged.set(id, fields);
  session.deliver_sm(fields, (resp) => {
    if (resp.command_status === 0) unacknowledged.delete(id);
    // A temporary error (the ESME could not commit it): sent again a second later, as real SMSCs do.
    else if (process.env.SMSC_RESEND_RECEIPTS === '1') setTimeout(() => { if (!session.socket.destroyed) sendReceipt(session, id, fields); }, 1000);
  });
};
const server = smpp.createServer({}, (session) => {
  const index = sessions.push(session) - 1;
  session.on('error', () => {});
  session.on('bind_transceiver', (pdu) => {
    session.send(pdu.response({ system_id: 'NPMSMSC' }));
    writeSync(1, `BOUND ${index}\n`);
    if (process.env.SMSC_RESEND_RECEIPTS === '1') for (const [id, fields] of unacknowledged) sendReceipt(session, id, fields);
  });
  session.on('enquire_link', (pdu) => session.send(pdu.response()));
  session.on('unbind', (pdu) => { session.send(pdu.response()); session.close(); });
  session.on('submit_sm', (pdu) => {
    if (process.env.SMSC_SYSERR_FILE && existsSync(process.env.SMSC_SYSERR_FILE)) {
      writeSync(1, `SYSERR ${pdu.destination_addr}\n`);
      session.send(pdu.response({ command_status: 0x08 }));
      return;
    }
    if (process.env.SMSC_TPS_LIMIT) {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) { second = now; taken = 0; }
      if (taken >= Number(process.env.SMSC_TPS_LIMIT)) {
        writeSync(1, `THROTTLED ${pdu.destination_addr}\n`);
        session.send(pdu.response({ command_status: 0x58 }));
        return;
      }
      taken++;
    }
    const id = process.env.SMSC_MESSAGE_ID || `${prefix}${(++counter).toString(16).toUpperCase()}`;
    writeSync(1, `SUBMIT ${pdu.destination_addr} ${id} ${index} ${performance.now().toFixed(3)} ${Date.now()}\n`);
    if (held < Number(process.env.SMSC_HOLD_FIRST ?? 0)) {
      held++;
      session.deliver_sm({
        source_addr: pdu.destination_addr, destination_addr: pdu.source_addr, esm_class: 0x04, receipted_message_id: id, message_state: 2,
        short_message: `id:${id} sub:001 dlvrd:001 submit date:2611220000 done date:2611220000 stat:DELIVRD err:000 text:`,
      }, (resp) => writeSync(1, `RECEIPTED ${id} ${resp.command_status}\n`));
      return;
    }
    session.send(pdu.response({ message_id: id }));
    if (pdu.registered_delivery && process.env.SMSC_RECEIPTS !== '0') {
      sendReceipt(session, id, {
        source_addr: pdu.destination_addr, destination_addr: pdu.source_addr, esm_class: 0x04, receipted_message_id: id, message_state: 2,
        short_message: `id:${id} sub:001 dlvrd:001 submit date:2611220000 done date:2611220000 stat:DELIVRD err:000 text:`,
      });
    }
  });
});
server.listen(Number(process.env.SMSC_PORT ?? 0), '127.0.0.1', () => writeSync(1, `LISTENING ${server.address().port}\n`));
createInterface({ input: process.stdin }).on('line', (line) => {
  const [, n, json] = /^DELIVER (\d+) (.*)$/.exec(line) ?? [];
  if (n === undefined) return;
  sessions[Number(n)].deliver_sm(JSON.parse(json), (resp) => writeSync(1, `DELIVERED ${n} ${resp.command_status}\n`));
});
