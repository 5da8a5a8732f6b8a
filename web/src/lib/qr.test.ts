import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { qrModules, qrPath } from './qr.ts';

/** The modules drawn as a greyscale image, `scale` pixels a module, as a camera would see the screen. */
function pixels(modules: boolean[][], scale = 4) {
  const size = modules.length * scale;
  const data = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const v = modules[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255;
      data.set([v, v, v, 255], (y * size + x) * 4);
    }
  }
  return { data, size };
}

describe('the two-factor QR code', () => {
  const uri = 'otpauth://totp/Tasman:reception%40harbourdental.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Tasman';

  it('reads back as the otpauth URI (an independent decoder)', () => {
    const { data, size } = pixels(qrModules(uri));
    expect(jsQR(data, size, size)?.data).toBe(uri);
  });

  it('has its quiet zone and draws exactly the dark modules', () => {
    const modules = qrModules(uri);
    expect(modules.length).toBe(modules[0]!.length);
    for (const edge of [modules[0]!, modules[3]!, modules.map((r) => r[0]), modules.map((r) => r.at(-1))]) expect(edge.every((m) => !m)).toBe(true);
    const dark = modules.flat().filter(Boolean).length;
    expect(qrPath(modules).match(/M/g)?.length).toBe(dark);
  });
});
