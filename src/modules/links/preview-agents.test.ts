import { describe, expect, it } from 'vitest';
import { isPreviewAgent, PREVIEW_AGENTS } from './preview-agents.ts';

describe('isPreviewAgent', () => {
  it.each([
    'facebookexternalhit/1.1 Facebot Twitterbot/1.0', // iMessage's preview fetcher
    'WhatsApp/2.23.20.0 A',
    'TelegramBot (like TwitterBot)',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'curl/8.5.0',
    'Wget/1.21.4',
    'python-requests/2.31.0',
    'Go-http-client/2.0',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    'Mozilla/5.0 (compatible; SomeNewCrawler/1.0)',
    'Mozilla/5.0 (compatible; Example-Bot 1.0)',
    'Mozilla/5.0 (compatible; MegaIndex spider)',
    '',
    '   ',
  ])('%j is a previewer or crawler', (ua) => {
    expect(isPreviewAgent(ua)).toBe(true);
  });

  it('counts a request without a User-Agent header as a machine', () => {
    expect(isPreviewAgent(undefined)).toBe(true);
  });

  it.each([
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36',
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Linux; Android 9; CUBOT X19) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Instagram 312.0.0.32.112 Android',
  ])('%j is a person\'s browser', (ua) => {
    expect(isPreviewAgent(ua)).toBe(false);
  });

  it('keeps every listed name lower case, so the case-insensitive match can find it', () => {
    for (const name of PREVIEW_AGENTS) expect(name).toBe(name.toLowerCase());
    expect(new Set(PREVIEW_AGENTS).size).toBe(PREVIEW_AGENTS.length);
  });

  it('matches each listed name wherever it appears, in any case', () => {
    for (const name of PREVIEW_AGENTS) {
      expect(isPreviewAgent(`Mozilla/5.0 (${name.toUpperCase()})`)).toBe(true);
    }
  });
});
