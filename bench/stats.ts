// The benchmarks' summary statistics: a percentile of the sorted readings (the reading at that rank, not an
// interpolation), the median as its 50th, and two-decimal rounding for ratios.
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
export const median = (xs: number[]) => pct(xs, 0.5);
export const round2 = (x: number) => Math.round(x * 100) / 100;
/**
 * The geometric mean of ratios, two decimals: with the order of the two sides alternating, each order's rounds
 * weigh the same. The median of an even number of ratios is the upper middle one, and in an A/A run (the same
 * build on both sides) the side that ran first in a round won by 5–30%, so that median read 1.07–1.24 for no
 * change (docs/decisions/0052-benchmarks-alternate-primed-rounds.md).
 */
export const geomean = (xs: number[]) => round2(Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length));
