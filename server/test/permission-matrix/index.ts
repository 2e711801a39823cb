import { accountRows } from './accounts.ts';
import { adviceRows } from './advice.ts';
import { commsRows } from './comms.ts';
import { contactRows } from './contacts.ts';
import { conversationRows } from './conversations.ts';
import { factoryRows } from './factory.ts';
import { fileRows } from './files.ts';
import { goalRows } from './goals.ts';
import { journalRows } from './journals.ts';
import type { Row } from './matrix.ts';
import { memoryModelRows } from './memory-models.ts';
import { organizationRows } from './organizations.ts';
import { runRows } from './runs.ts';
import { taskSuggestionRows } from './task-suggestions.ts';
import { taskRows } from './tasks.ts';
import { usageRows } from './usage.ts';

/** Every row of the permission matrix, by domain (one file each). */
export const MATRIX: Record<string, Row[]> = {
  accounts: accountRows,
  organizations: organizationRows,
  goals: goalRows,
  advice: adviceRows,
  tasks: taskRows,
  'task suggestions': taskSuggestionRows,
  journals: journalRows,
  contacts: contactRows,
  'memory and models': memoryModelRows,
  comms: commsRows,
  conversations: conversationRows,
  factory: factoryRows,
  runs: runRows,
  files: fileRows,
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
