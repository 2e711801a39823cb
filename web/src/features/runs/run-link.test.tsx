import type { TFlowRunTimeline } from '@cc/contract';
import { screen, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

// A finished run has no live stream to follow.
vi.mock('../../lib/event-stream', () => ({ useEventStream: () => 'closed' }));

const flowRun: TFlowRunTimeline = {
  id: 'fr-7',
  flow_run_id: 'fr-7',
  flow_id: 'flow-1',
  flow_name: 'Quarterly review',
  status: 'completed',
  conversation_id: null,
  inputs: {},
  result: 'Revenue is on plan.',
  error: null,
  current_step: 1,
  human_prompt: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:05:00.000Z',
  finished_at: '2026-11-24T10:05:00.000Z',
  timeline: [],
};

function open(path: string, extra: Record<string, Handler>) {
  mockApi({ 'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) }, ...extra });
  return renderApp({ path, token: 'tok' });
}

it('/app/runs/<id> (a run citation) finds the run is a flow run and shows its page', async () => {
  const { router } = open('/app/runs/fr-7', {
    'GET /api/crew-runs/fr-7': { status: 404, body: { detail: 'Run not found' } },
    'GET /api/flow-runs/fr-7': { body: flowRun },
    'GET /api/flow-runs/fr-7/timeline': { body: flowRun },
  });
  expect(await screen.findByRole('heading', { name: 'Quarterly review' })).toBeInTheDocument();
  expect(await screen.findByText('Revenue is on plan.')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/app/runs/flow/fr-7');
});

it("a run that is not the reader's (404 for both kinds) shows that the record is not available", async () => {
  const { router } = open('/app/runs/r-x', {});
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  expect(screen.getByText('This run does not exist or is not yours.')).toBeInTheDocument();
  await waitFor(() => expect(router.state.location.pathname).toBe('/app/runs/r-x'));
});
