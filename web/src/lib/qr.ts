import { encode } from 'uqr';

/**
 * A QR code as its modules (true: dark), with the four-module quiet zone scanners expect. Error correction M: a
 * phone camera reads it off a screen at an angle.
 */
export function qrModules(text: string): boolean[][] {
  return encode(text, { ecc: 'M', border: 4 }).data;
}

/** The dark modules as one SVG path, a unit square each, so the code is drawn in the page with no image URL. */
export function qrPath(modules: boolean[][]): string {
  let d = '';
  modules.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x} ${y}h1v1h-1z`; }));
  return d;
}
