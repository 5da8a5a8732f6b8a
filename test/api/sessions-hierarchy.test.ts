// The hierarchy matrix again, with the parent signed in to the dashboard instead of holding a key: a session is
// the same actor, so every account route keeps the same answers (allowed on its own sub-account; 404 on a
// stranger's, identical to a missing id; 404 on itself through the sub-account path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.ts';
import { furnishedFamily, hierarchyRoutes, type Route, type Target } from '../support/hierarchy-routes.ts';
import { ownerSession, sessionCall, type TestSession } from '../support/sessions.ts';

const t: TestApp = await createTestApp();
const routes = hierarchyRoutes(t.app);
let stranger: Awaited<ReturnType<typeof furnishedFamily>>;
let own: Awaited<ReturnType<typeof furnishedFamily>>;
let session: TestSession;

const send = (s: TestSession, route: Route, x: Target) => sessionCall(t.app, s, route.method, route.url(x), route.payload?.(x));

beforeAll(async () => {
  own = await furnishedFamily(t.app);
  stranger = await furnishedFamily(t.app);
  session = await ownerSession(t.app, own.parent);
});
afterAll(async () => { await t.close(); });

describe.each(routes)('through a session: $method $name', (route) => {
  it('on a stranger\'s sub-account: 404 like a missing id; on itself: 404; on its own: allowed', async () => {
    const res = await send(session, route, stranger.target);
    expect(res.status).toBe(404);
    expect(res.body).toEqual((await send(session, route, { ...stranger.target, id: randomUUID() })).body);
    expect((await send(session, route, { ...own.target, id: own.parent.accountId, keyId: own.parent.keyId })).status).toBe(404);
    const fresh = await furnishedFamily(t.app);
    const mine = await ownerSession(t.app, fresh.parent);
    const ok = await send(mine, route, fresh.target);
    expect(ok.status, JSON.stringify(ok.body)).toBe(route.ok);
  });
});
