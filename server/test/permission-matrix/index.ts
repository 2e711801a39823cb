import { accountRows } from './accounts.ts';
import { apiKeyRows } from './api-keys.ts';
import { activityRows } from './activity.ts';
import { adviceRows } from './advice.ts';
import { briefRows } from './briefs.ts';
import { commsRows } from './comms.ts';
import { connectionRows } from './connections.ts';
import { contactRows } from './contacts.ts';
import { conversationRows } from './conversations.ts';
import { factoryRows } from './factory.ts';
import { fileRows } from './files.ts';
import { goalProgressRows } from './goal-progress.ts';
import { goalRows } from './goals.ts';
import { inboxRows } from './inbox.ts';
import { journalRows } from './journals.ts';
import type { Row } from './matrix.ts';
import { memoryModelRows } from './memory-models.ts';
import { organizationRows } from './organizations.ts';
import { runRows } from './runs.ts';
import { taskSuggestionRows } from './task-suggestions.ts';
import { taskRows } from './tasks.ts';
import { toolApprovalRows } from './tool-approvals.ts';
import { usageRows } from './usage.ts';

/** Every row of the permission matrix, by domain (one file each). */
export const MATRIX: Record<string, Row[]> = {
  accounts: accountRows,
  'api keys': apiKeyRows,
  organizations: organizationRows,
  goals: goalRows,
  'goal progress (KPI check-ins, goal tasks)': goalProgressRows,
  advice: adviceRows,
  tasks: taskRows,
  'task suggestions': taskSuggestionRows,
  journals: journalRows,
  contacts: contactRows,
  'memory and models': memoryModelRows,
  connections: connectionRows,
  comms: commsRows,
  conversations: conversationRows,
  factory: factoryRows,
  runs: runRows,
  'tool approvals': toolApprovalRows,
  files: fileRows,
  activity: activityRows,
  inbox: inboxRows,
  briefs: briefRows,
  usage: usageRows,
};

export {
  buildWorld,
  CALLERS,
  type Caller,
  type Expected,
  type Row,
  statusesOf,
  type World,
} from './matrix.ts';

/** Settings of the matrix's app: single sign-on on, with a provider that is never there. */
export const MATRIX_ENV = {
  OIDC_ISSUER_URL: 'http://127.0.0.1:9/unreachable',
  OIDC_CLIENT_ID: 'matrix',
  OIDC_CLIENT_SECRET: 'matrix-secret',
};
