import { describe, expect, it } from 'vitest';
import { countParts } from '../messages/parts.ts';
import { generateLinkCode, isLinkCode, shortenUrls, trackedBody } from './shorten.ts';

const BASE = 'https://t.example/o';

describe('shortenUrls', () => {
  it('replaces each URL by a fresh 8-character code on the base and records the original in order', () => {
    const { body, links } = shortenUrls('Sale https://shop.example.com/a?utm=sms ends. Map: http://maps.example/x.', BASE);
    expect(links).toHaveLength(2);
    expect(links.map((l) => l.url)).toEqual(['https://shop.example.com/a?utm=sms', 'http://maps.example/x']);
    expect(links.map((l) => l.position)).toEqual([0, 1]);
    for (const l of links) expect(isLinkCode(l.code)).toBe(true);
    expect(body).toBe(`Sale ${BASE}/${links[0]!.code} ends. Map: ${BASE}/${links[1]!.code}.`);
  });

  it('gives the same URL twice two codes (each click is told apart)', () => {
    const { links } = shortenUrls('https://a.io/x and https://a.io/x', BASE);
    expect(links[0]!.code).not.toBe(links[1]!.code);
  });

  it('leaves the opt-out link and links already on the base as written', () => {
    const text = `Offer https://a.io/x Stop: ${BASE}/Ab3dE9x or ${BASE}/Zz9Yy8Xx`;
    const { body, links } = shortenUrls(text, BASE);
    expect(links.map((l) => l.url)).toEqual(['https://a.io/x']);
    expect(body.endsWith(`Stop: ${BASE}/Ab3dE9x or ${BASE}/Zz9Yy8Xx`)).toBe(true);
  });

  it('returns the very text and no links when there is no URL', () => {
    const text = 'Hi Sam, your table is booked for 7pm.';
    expect(shortenUrls(text, BASE)).toEqual({ body: text, links: [] });
  });

  it('changes the part count both ways: a long URL saves parts, a short one can cost one', () => {
    const long = `Your receipt: https://shop.example.com/orders/${'x'.repeat(200)}`;
    expect(countParts(long)).toBe(2);
    expect(countParts(shortenUrls(long, BASE).body)).toBe(1);
    const tight = `${'y'.repeat(140)} http://a.io`;
    expect(countParts(tight)).toBe(1);
    expect(countParts(shortenUrls(tight, BASE).body)).toBe(2);
  });

  it('uses the random source it is given', () => {
    const { body } = shortenUrls('go https://a.io', BASE, (n) => Buffer.alloc(n, 10));
    expect(body).toBe(`go ${BASE}/AAAAAAAA`);
  });
});

describe('link codes', () => {
  it('are 8 base62 characters, never the 7 of an opt-out code', () => {
    for (let i = 0; i < 500; i++) expect(generateLinkCode()).toMatch(/^[0-9A-Za-z]{8}$/);
    expect(isLinkCode('Ab3dE9x')).toBe(false);
  });

  it.each(['', 'Ab3dE9xYZ', 'Ab3dE9x-', '../../xy', 'Ab3dE9é1'])('isLinkCode refuses %j', (s) => {
    expect(isLinkCode(s)).toBe(false);
  });
});

describe('trackedBody', () => {
  it('leaves the body and writes nothing without tracking, or when tracking finds no URL', () => {
    expect(trackedBody('go https://a.io', BASE, false)).toEqual({ body: 'go https://a.io', links: null });
    expect(trackedBody('no links', BASE, true)).toEqual({ body: 'no links', links: null });
    expect(trackedBody(`only ${BASE}/Ab3dE9x`, BASE, true)).toEqual({ body: `only ${BASE}/Ab3dE9x`, links: null });
  });

  it('shortens with tracking', () => {
    const { body, links } = trackedBody('go https://a.io', BASE, true);
    expect(links).toHaveLength(1);
    expect(body).toBe(`go ${BASE}/${links![0]!.code}`);
  });
});
