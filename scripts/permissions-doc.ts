// Writes docs/permissions.md, the owner's guide to roles and permissions, from the committed route policy
// (src/platform/http/route-policy.txt). `npm run docs:permissions`; src/platform/http/route-policy.test.ts fails
// while the page is not current.
import { readFileSync, writeFileSync } from 'node:fs';
import { GUIDE_PATH, POLICY_PATH } from '../src/platform/http/route-policy-files.ts';
import { parsePolicy, renderGuide } from '../src/platform/http/route-policy.ts';

writeFileSync(GUIDE_PATH, renderGuide(parsePolicy(readFileSync(POLICY_PATH, 'utf8'))));
process.stdout.write(`wrote ${GUIDE_PATH}\n`);
