import type { Db, Executor } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { open, seal } from '../../platform/crypto/secret-box.ts';
import { record } from '../../platform/audit/record.ts';
import { operatorActor, type AuditEntry } from '../../platform/audit/entry.ts';
import type { NamedOperator } from '../../platform/http/auth.ts';
import { hashToken, newToken } from '../sessions/tokens.ts';
import { argonVerify, dummyHash, hashPassword } from '../sessions/argon.ts';
import { passwordMessages, passwordProblem } from '../sessions/password-policy.ts';
import { acceptedStep, newTotpSecret, otpauthUri } from '../sessions/totp.ts';
import type { SignInThrottle } from '../sessions/sign-in-throttle.ts';
import type { NewSession } from '../sessions/sessions.service.ts';
import { claimStep, completeSetup, findBySetupToken, findForSignIn, resetForSetup, setPendingSecret } from './operators.repo.ts';

const SETUP_DAYS = 7;
const wrongSetup = () => new AppError('invite_invalid', 'This setup link is not valid any more: ask another operator for a new one');
const wrongSignIn = () => new AppError('invalid_credentials', 'Wrong name, password or code');

/**
 * The console sign-in of named operators: a setup link (from their creation, or issued again when they lose a
 * device) where they choose a password and enrol an authenticator app, then sign-in with name, password and a
 * current code. The second factor is not optional: an operator without one cannot open the console. The
 * authenticator secret is sealed at rest under the service key, like the users' (decision 0085).
 */
export function createOperatorSignIn(deps: {
  db: Db; secretKey: Buffer; publicUrl: string; throttle: SignInThrottle;
  /** A named operator's console session, in the caller's transaction (modules/sessions). */
  openSession: (exec: Executor, operatorId: string) => Promise<NewSession>;
  /** The audit log's rate-capped writer of refusals (modules/audit): failed sign-ins. */
  refused: (entry: Omit<AuditEntry, 'outcome'> & { reason: string }) => Promise<void>;
}) {
  const { db } = deps;

  /** A new setup link for a live operator (their password and second factor cleared, their sessions ended). */
  async function issueLink(exec: Executor, operatorId: string): Promise<string | null> {
    const token = newToken();
    const issued = await resetForSetup(exec, operatorId, hashToken(token), new Date(Date.now() + SETUP_DAYS * 86_400_000));
    return issued ? `${deps.publicUrl}/app/operator/setup#${token}` : null;
  }

  /** What the setup page shows: who, and the authenticator secret to enrol (the same one until the setup completes). */
  async function describeSetup(token: string) {
    const found = await findBySetupToken(db, hashToken(token));
    if (!found) throw wrongSetup();
    let secret: string;
    if (found.totp_secret_sealed) secret = open(deps.secretKey, found.totp_secret_sealed);
    else {
      secret = await newTotpSecret();
      await setPendingSecret(db, found.id, seal(deps.secretKey, secret));
    }
    return { name: found.name, secret, otpauth_uri: await otpauthUri(`operator ${found.name}`, secret) };
  }

  /** The password and the first code from the app: the second factor is on, the link spent, the console open. */
  async function completeSetupWith(token: string, input: { password: string; code: string }, address: string | null): Promise<NewSession & { operator: NamedOperator }> {
    const tokenHash = hashToken(token);
    const found = await findBySetupToken(db, tokenHash);
    if (!found?.totp_secret_sealed) throw wrongSetup();
    const problem = passwordProblem(input.password, found.name);
    if (problem) throw new AppError('weak_password', passwordMessages[problem], { details: [{ field: 'password', message: passwordMessages[problem] }] });
    const step = await acceptedStep(open(deps.secretKey, found.totp_secret_sealed), input.code, new Date(), null);
    if (step === null) {
      throw new AppError('invalid_code', 'That code is not right: check the app shows Tasman and your name, and try the current code', {
        details: [{ field: 'code', message: 'Wrong code' }],
      });
    }
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      if (!(await completeSetup(tx, tokenHash, { passwordHash, step }))) throw wrongSetup();
      await record(tx, { accountId: null, actor: operatorActor(address, found), action: 'operator.setup_completed', target: { type: 'operator', id: found.id } });
      const created = await deps.openSession(tx, found.id);
      await record(tx, { accountId: null, actor: operatorActor(address, found), action: 'operator.signed_in', after: { how: 'setup' } });
      return { ...created, operator: { id: found.id, name: found.name } };
    });
  }

  /**
   * Name, password and a current code in one step, so a refusal never says which was wrong. Failures delay further
   * tries at that name (the users' sign-in throttle, keyed by the operator's name) and count against the address.
   */
  async function signIn(input: { name: string; password: string; code: string }, address: string | null): Promise<NewSession & { operator: NamedOperator }> {
    const key = `operator:${input.name.trim().toLowerCase()}`;
    await deps.throttle.refuseWhileDelayed(key, null);
    const found = await findForSignIn(db, input.name.trim());
    const passwordOk = found ? await argonVerify(found.password_hash, input.password) : await argonVerify(await dummyHash(), input.password);
    const step = found && passwordOk
      ? await acceptedStep(open(deps.secretKey, found.totp_secret_sealed), input.code, new Date(), found.totp_last_step === null ? null : Number(found.totp_last_step))
      : null;
    if (!found || step === null || !(await claimStep(db, found.id, step))) {
      await deps.throttle.failed(key, null);
      await deps.refused({
        accountId: null, actor: found ? operatorActor(address, found) : { type: 'anonymous', id: null, label: input.name, address },
        action: 'operator.sign_in_failed', reason: 'invalid_credentials',
      });
      throw wrongSignIn();
    }
    await deps.throttle.succeeded(key, null);
    return db.transaction(async (tx) => {
      const created = await deps.openSession(tx, found.id);
      await record(tx, { accountId: null, actor: operatorActor(address, found), action: 'operator.signed_in', after: { how: 'password and second factor' } });
      return { ...created, operator: { id: found.id, name: found.name } };
    });
  }

  return { issueLink, describeSetup, completeSetup: completeSetupWith, signIn };
}

export type OperatorSignIn = ReturnType<typeof createOperatorSignIn>;
