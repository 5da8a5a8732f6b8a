import type { AddressThrottle } from '../../platform/http/address-throttle.ts';
import type { OperatorSessionAuth } from '../../platform/http/auth.ts';
import { OPERATOR_COOKIE } from '../sessions/sessions.routes.ts';
import type { SessionService } from '../sessions/sessions.service.ts';
import type { OperatorService } from './operators.service.ts';

/**
 * How every operator route authenticates: the operator token, a named operator's token, or a console session (the
 * operator token's, or a named operator's after their password and code).
 */
export const operatorAuth = (deps: { sessions: SessionService; addressThrottle: AddressThrottle; operators: OperatorService }): OperatorSessionAuth => ({
  cookie: OPERATOR_COOKIE, authenticate: deps.sessions.authenticateOperator, failed: deps.addressThrottle.failed, named: deps.operators.authenticate,
});
