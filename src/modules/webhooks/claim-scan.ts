/**
 * How many of the oldest due rows (of endpoints with room) a claim reads: four times what it could take from the
 * endpoints it knows (those in flight here, and grown ones) and a new endpoint's cap, at least 100, at most four
 * times the free slots. Four times the free slots alone made one busy endpoint's claims read ~770 rows to take the
 * ~19 its room allowed (the largest PostgreSQL cost per message in bench/kannel.ts with one key; decision 0026).
 * Rows beyond what the known endpoints can take are there to reach endpoints not yet in flight.
 */
export function scanFor(want: number, room: Record<string, number>, perEndpoint: number): number {
  let known = 0;
  for (const k in room) known += room[k]!;
  return Math.max(100, Math.min(want * 4, 4 * (known + perEndpoint)));
}

/**
 * Whether a delivery's answer, which freed a slot of its endpoint, should wake a claim. Yes when the last claim
 * took all it asked for (anyone's rows may be left) or the endpoint was not at its cap after it (its rows were
 * not skipped). An endpoint left at its cap, whose rows were skipped, is claimed for again once a quarter of its
 * cap is free: a claim per answer took one row each, and with one busy endpoint those claims were most of
 * PostgreSQL's work per message (decision 0026). New events wake a claim anyway (the signal).
 */
export function claimOnAnswer(s: { lastClaimFilled: boolean; atCapAfterClaim: boolean; cap: number; open: number }): boolean {
  if (s.lastClaimFilled || !s.atCapAfterClaim) return true;
  return s.cap - s.open >= Math.max(1, Math.floor(s.cap / 4));
}
