import { ALLOWED_MODELS } from '@cc/contract';
import { Bot, Users, Workflow, Wrench } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { OfflineModelBanner } from '../../../components/offline-model-banner';
import { PageHeader } from '../../../components/page-header';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useModels } from '../../../lib/queries/models';
import { useCreateConversation } from '../../../lib/queries/conversations';
import { useAgents, useCrews, useFlows, useTools } from '../../../lib/queries/factory-items';
import { useDeleteItem } from '../api';
import { AgentDialog } from '../components/agent-dialog';
import { CrewDialog } from '../components/crew-dialog';
import { DELETE_CONFIRMATIONS } from '../components/delete-texts';
import { AgentCard, CrewCard, FlowCard, ToolCard } from '../components/factory-cards';
import { FactorySection } from '../components/factory-section';
import { FlowDialog } from '../components/flow-dialog';
import { ToolDialog } from '../components/tool-dialog';
import type { FactoryKind } from '../types';
import { agentToolOptions } from '../tool-options';

/**
 * The conversation page reads this navigation state and starts the run there (asking "Enter questions"
 * first when the crew needs input), so input forms and the live timeline live in one place.
 */
export interface StartRunState {
  startRun: { kind: 'crew' | 'flow'; id: string; name: string };
}

type Deleting = { kind: FactoryKind; id: string; name: string };

export default function AiFactoryPage() {
  const navigate = useNavigate();
  const crews = useCrews();
  const flows = useFlows();
  const agents = useAgents();
  const tools = useTools();
  const models = useModels();
  const remove = useDeleteItem();
  const createConversation = useCreateConversation();

  const [dialog, setDialog] = useState<FactoryKind | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [startingId, setStartingId] = useState<string | null>(null);

  const agentList = agents.data ?? [];
  const toolList = tools.data ?? [];
  const agentNames = useMemo(() => new Map(agentList.map((a) => [a.id, a.name])), [agentList]);
  const agentTools = useMemo(() => agentToolOptions(toolList), [toolList]);
  const toolNames = useMemo(() => new Map(agentTools.map((t) => [t.id, t.name])), [agentTools]);

  const run = (kind: 'crew' | 'flow', id: string, name: string) => {
    setStartingId(id);
    createConversation.mutate(name, {
      onSuccess: (conversation) => {
        const state: StartRunState = { startRun: { kind, id, name } };
        navigate(`/app/conversations/${encodeURIComponent(conversation.id)}`, { state });
      },
      onError: (err) =>
        notify.error(kind === 'crew' ? 'Failed to start crew' : 'Failed to start flow', serverDetail(err)),
      onSettled: () => setStartingId(null),
    });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { kind: deleting.kind, id: deleting.id },
      {
        onSuccess: () => {
          notify.success(`${DELETE_CONFIRMATIONS[deleting.kind].title.replace('Delete ', '')} deleted`);
          setDeleting(null);
        },
        onError: (err) => {
          notify.error('Delete failed', err.message);
          setDeleting(null);
        },
      },
    );
  };

  const confirm = deleting ? DELETE_CONFIRMATIONS[deleting.kind] : null;

  return (
    <div className="flex flex-col gap-10">
      <div className="flex flex-col gap-3">
        <PageHeader title="AI Factory" description="Build and run your crews, flows, agents and tools." />
        <OfflineModelBanner />
      </div>

      <FactorySection
        id="factory-crews"
        title="Available Crews"
        icon={Users}
        createLabel="Create New Crew"
        onCreate={() => setDialog('crew')}
        query={crews}
        items={crews.data ?? []}
        empty="No crews found."
        renderItem={(c) => (
          <CrewCard
            key={c.id}
            crew={c}
            agentNames={agentNames}
            running={startingId === c.id}
            onRun={() => run('crew', c.id, c.name)}
            onDelete={() => setDeleting({ kind: 'crew', id: c.id, name: c.name })}
          />
        )}
      />

      <FactorySection
        id="factory-flows"
        title="Available Flows"
        icon={Workflow}
        createLabel="Create New Flow"
        createVariant="secondary"
        onCreate={() => setDialog('flow')}
        query={flows}
        items={flows.data ?? []}
        empty="No flows found."
        renderItem={(f) => (
          <FlowCard
            key={f.id}
            flow={f}
            running={startingId === f.id}
            onRun={() => run('flow', f.id, f.name)}
            onDelete={() => setDeleting({ kind: 'flow', id: f.id, name: f.name })}
          />
        )}
      />

      <FactorySection
        id="factory-agents"
        title="Available Agents"
        icon={Bot}
        createLabel="Create New Agent"
        onCreate={() => setDialog('agent')}
        query={agents}
        items={agentList}
        empty="No agents found."
        renderItem={(a) => (
          <AgentCard
            key={a.id}
            agent={a}
            toolNames={toolNames}
            onDelete={() => setDeleting({ kind: 'agent', id: a.id, name: a.name })}
          />
        )}
      />

      <FactorySection
        id="factory-tools"
        title="Available Tools"
        icon={Wrench}
        createLabel="Create New Tool"
        onCreate={() => setDialog('tool')}
        query={tools}
        items={toolList}
        empty="No tools found."
        renderItem={(t) => (
          <ToolCard
            key={t.id}
            tool={t}
            onDelete={() => setDeleting({ kind: 'tool', id: t.id, name: t.name })}
          />
        )}
      />

      <CrewDialog
        open={dialog === 'crew'}
        onOpenChange={(o) => setDialog(o ? 'crew' : null)}
        agents={agentList}
      />
      <FlowDialog
        open={dialog === 'flow'}
        onOpenChange={(o) => setDialog(o ? 'flow' : null)}
        agents={agentList}
        tools={toolList}
      />
      <AgentDialog
        open={dialog === 'agent'}
        onOpenChange={(o) => setDialog(o ? 'agent' : null)}
        tools={agentTools}
        models={models.data?.models ?? ALLOWED_MODELS}
      />
      <ToolDialog open={dialog === 'tool'} onOpenChange={(o) => setDialog(o ? 'tool' : null)} />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={confirm?.title ?? ''}
        description={confirm?.description ?? ''}
        confirmLabel={confirm?.confirm ?? 'Delete'}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
