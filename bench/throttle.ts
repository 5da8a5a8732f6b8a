// How the carrier link keeps the pace of an SMSC that throttles. One bind with SMPP_TPS (BENCH_TPS, 100) and
// SMPP_WINDOW (100) against an SMSC on the npm `smpp` package (test/carrier/npm-smsc.ts) that takes LIMIT_1 (20)
// submit_sm per calendar second and answers the rest ESME_RTHROTTLED (every third ESME_RMSGQFUL), for
// PHASE_1 (70) seconds, then takes LIMIT_2 (40) per second for PHASE_2 (30) seconds. A feeder keeps twice the
// window of messages waiting, as the dispatcher does with a full queue. Every submit is a distinct text.
// Prints one JSON line: the accepted rate over seconds 10–70 (target ≥ 90% of LIMIT_1), the first second after
// the lift from which the rate holds ≥ 90% of LIMIT_2 (target ≤ 30), the throttled answers, the bind's settled
// rate, and lost (a submit that failed) and twice (a text accepted more than once), both to be 0.
// Usage: npx tsx bench/throttle.ts   (about 100 s; BENCH_PHASE_1 / BENCH_PHASE_2 shorten it)
import { createSmppCarrier } from '../src/carrier/smpp/smpp-carrier.ts';
import { startNpmSmsc } from '../test/carrier/npm-smsc.ts';

const TPS = Number(process.env.BENCH_TPS ?? 100);
const LIMIT_1 = Number(process.env.BENCH_LIMIT_1 ?? 20);
const LIMIT_2 = Number(process.env.BENCH_LIMIT_2 ?? 40);
const PHASE_1 = Number(process.env.BENCH_PHASE_1 ?? 70);
const PHASE_2 = Number(process.env.BENCH_PHASE_2 ?? 30);
const WINDOW = 100;

const smsc = await startNpmSmsc();
const started = Date.now();
const elapsedSecond = () => Math.floor((Date.now() - started) / 1000);
const perSecond = new Map<number, number>();
const acceptedPerElapsed: number[] = [];
const acceptedTexts = new Map<string, number>();
let throttled = 0;
smsc.onSubmit = (s, respond) => {
  const limit = elapsedSecond() < PHASE_1 ? LIMIT_1 : LIMIT_2;
  const second = Math.floor(Date.now() / 1000);
  const taken = perSecond.get(second) ?? 0;
  if (taken >= limit) { throttled++; respond(throttled % 3 === 0 ? 0x14 : 0x58); return; }
  perSecond.set(second, taken + 1);
  const text = (s.pdu.short_message as { message: string }).message;
  acceptedTexts.set(text, (acceptedTexts.get(text) ?? 0) + 1);
  const e = elapsedSecond();
  acceptedPerElapsed[e] = (acceptedPerElapsed[e] ?? 0) + 1;
  respond(0, `B${acceptedTexts.size}`);
};

const carrier = createSmppCarrier({ host: '127.0.0.1', port: smsc.port, systemId: 'bench', password: 'bench', window: WINDOW, tps: TPS });
await carrier.start({ onReceipt: async () => {}, onInbound: async () => {} });

let next = 0;
let lost = 0;
let stopping = false;
const feeders = Array.from({ length: WINDOW * 2 }, async () => {
  while (!stopping) {
    const n = next++;
    const r = await carrier.submit({ id: `m${n}`, from: 'Bench', to: '+61412345678', text: `throttle bench ${n}`, receipt: false });
    if (!r.ok) lost++;
  }
});
await new Promise((r) => setTimeout(r, (PHASE_1 + PHASE_2) * 1000));
const settledAtEnd = carrier.status().binds[0]?.tps ?? null;
stopping = true;
await Promise.all(feeders);
await carrier.stop();
await smsc.stop();

const rate = (from: number, to: number) => {
  let n = 0;
  for (let s = from; s < to; s++) n += acceptedPerElapsed[s] ?? 0;
  return n / (to - from);
};
// The first second after the lift from which every following 5-second mean (to the end) is ≥ 90% of LIMIT_2.
let reached: number | null = null;
for (let s = PHASE_1; s + 5 <= PHASE_1 + PHASE_2; s++) {
  let holds = true;
  for (let t = s; t + 5 <= PHASE_1 + PHASE_2; t++) if (rate(t, t + 5) < 0.9 * LIMIT_2) { holds = false; break; }
  if (holds) { reached = s - PHASE_1; break; }
}
const twice = [...acceptedTexts.values()].filter((c) => c > 1).length;
console.log(JSON.stringify({
  bench: 'throttle', tps: TPS, limit_1: LIMIT_1, limit_2: LIMIT_2,
  rate_10_to_70_s: Math.round(rate(10, Math.min(70, PHASE_1)) * 10) / 10,
  share_of_limit_1: Math.round((rate(10, Math.min(70, PHASE_1)) / LIMIT_1) * 1000) / 1000,
  seconds_to_90pct_of_limit_2: reached,
  rate_last_10_s: Math.round(rate(PHASE_1 + PHASE_2 - 10, PHASE_1 + PHASE_2) * 10) / 10,
  accepted: [...acceptedTexts.values()].reduce((a, b) => a + b, 0), throttled, settled_tps_at_end: settledAtEnd,
  lost, twice,
  per_second: acceptedPerElapsed.map((n) => n ?? 0),
}));
process.exit(0);
