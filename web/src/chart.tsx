import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series { label: string; color: string; values: number[] }

/** Sent, delivered and failed per day (GET /report/daily and its per-sub-account twin), as chart series. */
export function dailySeries(days: Array<{ sent: number; delivered: number; failed: number }>): Series[] {
  return [
    { label: 'Sent', color: '#1d4ed8', values: days.map((x) => x.sent) },
    { label: 'Delivered', color: '#15803d', values: days.map((x) => x.delivered) },
    { label: 'Failed', color: '#b91c1c', values: days.map((x) => x.failed) },
  ];
}

const dayFormat = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const dayLabel = (ts: number) => dayFormat.format(new Date(ts * 1000));

/** A small line chart by day (uPlot); the numbers are also given as a table for screen readers by the caller. */
export function DayChart({ days, series, title }: { days: string[]; series: Series[]; title: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Each day (a calendar date from the API) sits at its UTC midnight and is read back in UTC, so that a browser
    // west of Greenwich does not label it with the day before.
    const ink = getComputedStyle(el).color;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot({
      width: Math.max(280, el.clientWidth),
      height: 220,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      series: [{ label: 'Day', value: (_u, ts) => (ts == null ? '--' : dayLabel(ts)) }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
      // The axes' labels in the page's text colour, so they read in the dark theme too (a canvas has no CSS).
      axes: [{ values: (_u, splits) => splits.map(dayLabel), stroke: ink }, { size: 40, stroke: ink }],
      scales: { x: { time: true } },
    }, [xs, ...series.map((s) => s.values)], el);
    const resize = () => plot.setSize({ width: Math.max(280, el.clientWidth), height: 220 });
    window.addEventListener('resize', resize);
    return () => { window.removeEventListener('resize', resize); plot.destroy(); };
  }, [days, series]);
  return <figure><div ref={ref} role="img" aria-label={title} /><figcaption className="sr-only">{title}</figcaption></figure>;
}
