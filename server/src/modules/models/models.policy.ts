import { forbidden } from '../../platform/errors.ts';

type Caller = { user_level: string };

/**
 * Who may see and change the model providers (Super Admin → Models): the platform administrator only,
 * as the keys spend the platform's money and the endpoint is where every prompt goes.
 */
export const mayManageModelProviders = (caller: Caller): boolean => caller.user_level === 'admin';

export function assertMayManageModelProviders(caller: Caller): void {
  if (!mayManageModelProviders(caller)) throw forbidden();
}
