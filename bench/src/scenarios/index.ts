import { authUsersOrgs } from './auth-users-orgs.ts';
import { briefBench } from './brief.ts';
import { bundleSize } from './bundle-size.ts';
import { chat } from './chat.ts';
import { commsStreams } from './comms-streams.ts';
import { files } from './files.ts';
import { lighthouseGroup } from './lighthouse.ts';
import { runsBench } from './runs.ts';
import type { ScenarioGroup } from './types.ts';
import { usageBench } from './usage.ts';
import { workspaceFloors } from './workspace-floors.ts';

/** Every scenario group, in the order they run. Add a group: one file in this folder, one line here. */
export const GROUPS: ScenarioGroup[] = [
  authUsersOrgs,
  bundleSize,
  lighthouseGroup,
  workspaceFloors,
  briefBench,
  runsBench,
  files,
  commsStreams,
  chat,
  usageBench,
];
