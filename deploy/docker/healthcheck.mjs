// The image's HEALTHCHECK: exit 0 when this container's Tasman answers GET /ready with 200 (docs/operations.md,
// "Health, readiness and metrics"). Plain node: the image has no curl. With TLS_CERT_FILE set Tasman serves HTTPS;
// its certificate names the public host, not 127.0.0.1, so it is not verified here.
import http from 'node:http';
import https from 'node:https';

const host = ['', '0.0.0.0', '::'].includes(process.env.HOST ?? '') ? '127.0.0.1' : process.env.HOST;
const tls = Boolean(process.env.TLS_CERT_FILE?.trim());
const request = (tls ? https : http).get({
  host, port: Number(process.env.PORT || 3000), path: '/ready', timeout: 4000, rejectUnauthorized: false,
}, (res) => process.exit(res.statusCode === 200 ? 0 : 1));
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', () => process.exit(1));
