import type { MemberAccounts } from '../organizations/organizations.service.ts';
import { pendingEmailsOf } from './email-ownership.service.ts';
import { findAccountByEmail, updateAccount } from './users.service.ts';

/**
 * The accounts as the organizations module's member administration needs them: handed to it by
 * `app.ts` (this module places accounts in organizations, so organizations cannot import it back).
 */
export const memberAccounts: MemberAccounts = {
  findByEmail: findAccountByEmail,
  update: updateAccount,
  pendingEmails: pendingEmailsOf,
};
