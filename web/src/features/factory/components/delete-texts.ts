import type { FactoryKind } from '../types';

/**
 * The delete confirmation depends on the item type (spec, AI Factory): each one says what else the
 * deletion affects.
 */
export const DELETE_CONFIRMATIONS: Record<
  FactoryKind,
  { title: string; description: string; confirm: string }
> = {
  crew: {
    title: 'Delete Crew',
    description:
      'Are you sure you want to delete this crew? Its tasks will be deleted with it. This action cannot be undone.',
    confirm: 'Delete Crew',
  },
  agent: {
    title: 'Delete Agent',
    description:
      'Are you sure you want to delete this agent? Crews and flows that use it can no longer run its steps. This action cannot be undone.',
    confirm: 'Delete Agent',
  },
  tool: {
    title: 'Delete Tool',
    description:
      'Are you sure you want to delete this tool? Agents that use it lose access to it. This action cannot be undone.',
    confirm: 'Delete Tool',
  },
  flow: {
    title: 'Delete Flow',
    description: 'Are you sure you want to delete this flow? This action cannot be undone.',
    confirm: 'Delete Flow',
  },
};

export const KIND_LABELS: Record<FactoryKind, string> = {
  crew: 'crew',
  agent: 'agent',
  tool: 'tool',
  flow: 'flow',
};
