// The benchmarks' summary statistics: a percentile of the sorted readings (the reading at that rank, not an
// interpolation), the median as its 50th, and two-decimal rounding for ratios.
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
export const median = (xs: number[]) => pct(xs, 0.5);
export const round2 = (x: number) => Math.round(x * 100) / 100;
