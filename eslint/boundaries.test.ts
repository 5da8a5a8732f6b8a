// The layering rules of eslint.config.js, proved: each deliberate breach below fails the lint, and the same file
// without it passes. (npm run lint runs the same configuration over the repository.)
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
let eslint: ESLint;
beforeAll(() => { eslint = new ESLint({ cwd: root }); });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('boundaries the linter holds', () => {
  it('a module cycle fails (numbers already imports accounts; accounts importing numbers closes a cycle)', async () => {
    const found = await problems('src/modules/accounts/breach.ts', "export { createNumberService } from '../numbers/numbers.service.ts';\n");
    expect(found).toEqual([expect.stringMatching(/^tasman\/no-module-cycle: Module cycle: accounts → numbers → accounts/)]);
  });

  it('an import in the one allowed direction passes', async () => {
    expect(await problems('src/modules/numbers/fine.ts', "export { loadManagedAccount } from '../accounts/access.ts';\n")).toEqual([]);
  });

  it("another module's repo fails outside repos; its service, its own repo and a repo building on it pass", async () => {
    const foreign = "export { changeCredits } from '../credits/ledger.repo.ts';\n";
    expect(await problems('src/modules/numbers/breach.service.ts', foreign)).toEqual([expect.stringMatching(/^tasman\/no-foreign-repo: numbers reaches credits's repo/)]);
    expect(await problems('src/modules/numbers/breach.ts', foreign)).toEqual([expect.stringMatching(/^tasman\/no-foreign-repo/)]);
    expect(await problems('src/modules/numbers/breach.jobs.ts', `import type { LedgerKind } from '../credits/ledger.repo.ts';\nexport type K = LedgerKind;\n`))
      .toEqual([expect.stringMatching(/^tasman\/no-foreign-repo/)]);
    expect(await problems('src/modules/numbers/fine.repo.ts', foreign)).toEqual([]);
    expect(await problems('src/modules/numbers/fine.service.ts', "export { changeCredits } from '../credits/credits.service.ts';\n")).toEqual([]);
    expect(await problems('src/modules/numbers/fine.ts', "export { heldBy } from './numbers.repo.ts';\n")).toEqual([]);
  });

  it('Fastify outside routes files and platform/http fails', async () => {
    const code = "import type { FastifyRequest } from 'fastify';\nexport type R = FastifyRequest;\n";
    expect(await problems('src/modules/accounts/breach.service.ts', code)).toEqual([expect.stringMatching(/no-restricted-imports/)]);
    expect(await problems('src/modules/accounts/fine.routes.ts', code)).toEqual([]);
    expect(await problems('src/platform/http/fine.ts', code)).toEqual([]);
  });

  it('a query in a service fails; in a repo it passes', async () => {
    const code = "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1`;\n";
    expect(await problems('src/modules/accounts/breach.service.ts', code)).toEqual([expect.stringMatching(/Queries belong in \*\.repo\.ts/)]);
    expect(await problems('src/modules/accounts/fine.repo.ts', code)).toEqual([]);
  });

  it('SMPP code outside src/carrier fails', async () => {
    const code = "export { encodePdu } from '../../carrier/smpp/codec.ts';\n";
    expect(await problems('src/modules/dispatch/breach.ts', code)).toEqual([expect.stringMatching(/no-restricted-imports/)]);
    expect(await problems('src/modules/dispatch/breach.routes.ts', code)).toEqual([expect.stringMatching(/no-restricted-imports/)]);
    expect(await problems('src/carrier/fine.ts', "export { encodePdu } from './smpp/codec.ts';\n")).toEqual([]);
  });
});
