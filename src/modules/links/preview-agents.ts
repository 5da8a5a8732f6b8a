/**
 * Link previews and crawlers that say who they are: when one of them fetches a short link it
 * is still redirected, but no click is counted and no `message.click` event is sent. Pure; docs/webhooks.md
 * lists the same names for customers.
 *
 * Matching is a case-insensitive substring of the User-Agent header. A request with no User-Agent at all is
 * treated as a machine too: every phone browser sends one. What is not here (a previewer posing as a browser)
 * is counted; that is the documented limit.
 */
export const PREVIEW_AGENTS: readonly string[] = [
  // Messaging apps that fetch a link to draw its preview card (iMessage sends the facebookexternalhit string).
  'facebookexternalhit', 'facebot', 'whatsapp', 'telegrambot', 'twitterbot', 'slackbot', 'slack-imgproxy',
  'discordbot', 'linkedinbot', 'skypeuripreview', 'viber', 'snapchat', 'zoombot', 'mattermost', 'bitrix link preview',
  'google-pagerenderer', 'googleother', 'pinterestbot', 'redditbot', 'vkshare', 'embedly', 'iframely', 'mastodon',
  'bluesky cardyb', 'microsoftpreview', 'bingpreview', 'yahoo link preview', 'outlook-ios', 'ms office',
  // Search and site crawlers.
  'googlebot', 'adsbot-google', 'bingbot', 'applebot', 'duckduckbot', 'yandexbot', 'baiduspider', 'petalbot',
  'ahrefsbot', 'semrushbot', 'mj12bot', 'dotbot', 'ccbot', 'gptbot', 'chatgpt-user', 'claudebot', 'perplexitybot',
  // Scripts, scanners and headless browsers (security scanners that open every link in a message use these).
  'curl/', 'wget/', 'python-requests', 'python-urllib', 'aiohttp', 'go-http-client', 'okhttp/', 'java/', 'libwww-perl',
  'axios/', 'node-fetch', 'undici', 'headlesschrome', 'phantomjs', 'lighthouse',
];

// Generic words crawlers put in their names: a word of its own ("Example-Bot 1.0") or the end of a product name
// before its version ("SomeCrawler/1.0"); a phone model such as "CUBOT X19" is neither, and is counted.
const GENERIC = /\b(bot|crawler|spider|preview)\b|(bot|crawler|spider)\//i;

/** True when the User-Agent belongs to a link previewer, crawler or script rather than a person's browser. */
export function isPreviewAgent(userAgent: string | undefined): boolean {
  const ua = (userAgent ?? '').trim();
  if (ua === '') return true;
  const lower = ua.toLowerCase();
  return PREVIEW_AGENTS.some((name) => lower.includes(name)) || GENERIC.test(ua);
}
