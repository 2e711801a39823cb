import type { LucideIcon } from 'lucide-react';
import { Bot, Plus, Users, Workflow, Wrench } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import {
  ALLOWED_MODELS,
  useAgents,
  useCreateConversation,
  useCrews,
  useDeleteItem,
  useFlows,
  useModels,
  useTools,
} from '../api';
import { AgentDialog } from '../components/agent-dialog';
import { CrewDialog } from '../components/crew-dialog';
import { DELETE_CONFIRMATIONS } from '../components/delete-texts';
import { AgentCard, CrewCard, FlowCard, ToolCard } from '../components/factory-cards';
import { FlowDialog } from '../components/flow-dialog';
import { ToolDialog } from '../components/tool-dialog';
import type { FactoryKind } from '../types';

/**
 * The conversation page reads this navigation state and starts the run there (asking "Enter questions"
 * first when the crew needs input), so input forms and the live timeline live in one place.
 */
export interface StartRunState {
  startRun: { kind: 'crew' | 'flow'; id: string; name: string };
}

interface SectionProps {
  id: string;
  title: string;
  icon: LucideIcon;
  action?: ReactNode;
  query: { isPending: boolean; isError: boolean; error: Error | null };
  count: number;
  empty: string;
  children: ReactNode;
}

function Section({ id, title, icon: Icon, action, query, count, empty, children }: SectionProps) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 text-xl font-semibold">
          <Icon className="size-5 text-primary" aria-hidden="true" />
          {title}
        </h2>
        {action}
      </div>
      {query.isPending ? (
        <div role="status" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          <span className="sr-only">Loading {title}…</span>
          <Skeleton className="h-[340px]" />
          <Skeleton className="hidden h-[340px] md:block" />
        </div>
      ) : query.isError ? (
        <Alert>{query.error?.message ?? 'Failed to load'}</Alert>
      ) : count === 0 ? (
        <Card className="px-6 py-10 text-center text-sm text-muted-foreground">{empty}</Card>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">{children}</div>
      )}
    </section>
  );
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
  const toolNames = useMemo(() => new Map(toolList.map((t) => [t.id, t.name])), [toolList]);

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
      <PageHeader title="AI Factory" description="Build and run your crews, flows, agents and tools." />

      <Section
        id="factory-crews"
        title="Available Crews"
        icon={Users}
        query={crews}
        count={crews.data?.length ?? 0}
        empty="No crews found."
        action={
          <Button onClick={() => setDialog('crew')}>
            <Plus aria-hidden="true" />
            Create New Crew
          </Button>
        }
      >
        {(crews.data ?? []).map((c) => (
          <CrewCard
            key={c.id}
            crew={c}
            agentNames={agentNames}
            running={startingId === c.id}
            onRun={() => run('crew', c.id, c.name)}
            onDelete={() => setDeleting({ kind: 'crew', id: c.id, name: c.name })}
          />
        ))}
      </Section>

      <Section
        id="factory-flows"
        title="Available Flows"
        icon={Workflow}
        query={flows}
        count={flows.data?.length ?? 0}
        empty="No flows found."
        action={
          <Button variant="secondary" onClick={() => setDialog('flow')}>
            <Plus aria-hidden="true" />
            Create New Flow
          </Button>
        }
      >
        {(flows.data ?? []).map((f) => (
          <FlowCard
            key={f.id}
            flow={f}
            running={startingId === f.id}
            onRun={() => run('flow', f.id, f.name)}
            onDelete={() => setDeleting({ kind: 'flow', id: f.id, name: f.name })}
          />
        ))}
      </Section>

      <Section
        id="factory-agents"
        title="Available Agents"
        icon={Bot}
        query={agents}
        count={agentList.length}
        empty="No agents found."
        action={
          <Button onClick={() => setDialog('agent')}>
            <Plus aria-hidden="true" />
            Create New Agent
          </Button>
        }
      >
        {agentList.map((a) => (
          <AgentCard
            key={a.id}
            agent={a}
            toolNames={toolNames}
            onDelete={() => setDeleting({ kind: 'agent', id: a.id, name: a.name })}
          />
        ))}
      </Section>

      <Section
        id="factory-tools"
        title="Available Tools"
        icon={Wrench}
        query={tools}
        count={toolList.length}
        empty="No tools found."
        action={
          <Button onClick={() => setDialog('tool')}>
            <Plus aria-hidden="true" />
            Create New Tool
          </Button>
        }
      >
        {toolList.map((t) => (
          <ToolCard
            key={t.id}
            tool={t}
            onDelete={() => setDeleting({ kind: 'tool', id: t.id, name: t.name })}
          />
        ))}
      </Section>

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
        tools={toolList}
        models={models.data ?? ALLOWED_MODELS}
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
