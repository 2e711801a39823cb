import {
  FLOW_STEP_KIND_LABELS,
  FLOW_STEP_KINDS,
  type TCreateFlowRequest,
  type TFlowStepKind,
} from '@cc/contract';
import { Plus } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { useValidationMessage } from '../../../lib/use-validation-message';
import { useCreateFlow } from '../api';
import type { Agent, Tool } from '../types';
import { ShareWithOrgs, sharedOrgsField } from './share-with-orgs';
import { CreateDialog, closeOnSaved, NameVersionFields } from './create-dialog';
import { moveItem, OrderedRow } from './form-bits';

export const FLOW_REQUIRED = 'Name is required';
export const FLOW_NO_STEPS = 'A flow needs at least one step';
export const FLOW_STEP_TITLE = 'Each step needs a title';

/** The step kinds' labels (contract factory-labels: one map for the Factory and the run views). */
export const STEP_KIND_LABELS = FLOW_STEP_KIND_LABELS;

interface StepDraft {
  key: number;
  kind: TFlowStepKind;
  title: string;
  prompt: string;
  agent_id: string;
  tool_id: string;
  may_fail: boolean;
}

let keySeq = 0;
const newStep = (kind: TFlowStepKind = 'agent'): StepDraft => ({
  key: ++keySeq,
  kind,
  title: '',
  prompt: '',
  agent_id: '',
  tool_id: '',
  may_fail: false,
});

interface FlowDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  agents: readonly Agent[];
  tools: readonly Tool[];
}

export function FlowDialog({ open, onOpenChange, agents, tools }: FlowDialogProps) {
  const create = useCreateFlow();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [version, setVersion] = useState('1.0');
  const [steps, setSteps] = useState<StepDraft[]>([]);
  const [sharedOrgs, setSharedOrgs] = useState<string[]>([]);

  useEffect(() => {
    if (!open) return;
    setName('');
    setSharedOrgs([]);
    setDescription('');
    setVersion('1.0');
    setSteps([newStep()]);
  }, [open]);

  const patch = (i: number, p: Partial<StepDraft>) =>
    setSteps((ss) => ss.map((s, j) => (j === i ? { ...s, ...p } : s)));

  const validation = useValidationMessage(() => {
    if (!name.trim()) return FLOW_REQUIRED;
    if (steps.length === 0) return FLOW_NO_STEPS;
    if (steps.some((s) => !s.title.trim())) return FLOW_STEP_TITLE;
    return null;
  });
  const { clear } = validation;
  useEffect(() => {
    if (open) clear();
  }, [open, clear]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (validation.check()) return;
    const body: TCreateFlowRequest = {
      name: name.trim(),
      description: description.trim() || null,
      version: version.trim() || '1.0',
      steps: steps.map((s) => ({
        title: s.title.trim(),
        kind: s.kind,
        prompt: s.prompt.trim() || null,
        agent_id: s.kind === 'agent' && s.agent_id ? s.agent_id : null,
        tool_id: (s.kind === 'agent' || s.kind === 'tool') && s.tool_id ? s.tool_id : null,
        may_fail: (s.kind === 'agent' || s.kind === 'tool') && s.may_fail,
      })),
      ...sharedOrgsField(sharedOrgs),
    };
    create.mutate(body, closeOnSaved(onOpenChange, 'Flow created', 'Failed to save flow'));
  };

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={create.isPending}
      idPrefix="flow"
      title="Create New Flow"
      description="A flow runs its steps in order: agents, tools, and pauses for a person to answer."
      submitLabel="Create Flow"
      error={validation.message}
      onSubmit={submit}
      className="max-w-2xl"
    >
      <NameVersionFields
        idPrefix="flow"
        name={name}
        onName={setName}
        version={version}
        onVersion={setVersion}
        description={description}
        onDescription={setDescription}
      />
      <section aria-labelledby="flow-steps-heading" className="flex flex-col gap-2">
        <h3 id="flow-steps-heading" className="text-sm font-medium">
          Steps (run in this order)
        </h3>
        <ol className="flex flex-col gap-3">
          {steps.map((s, i) => {
            const id = `flow-step-${s.key}`;
            const human = s.kind === 'wait_for_human';
            return (
              <OrderedRow
                key={s.key}
                index={i}
                count={steps.length}
                noun="Step"
                onMove={(from, to) => setSteps((ss) => moveItem(ss, from, to))}
                onRemove={(idx) => setSteps((ss) => ss.filter((_, j) => j !== idx))}
              >
                <div className="grid gap-3 sm:grid-cols-2">
                  <FormField id={`${id}-title`} label={`Step ${i + 1} title`}>
                    <Input
                      id={`${id}-title`}
                      value={s.title}
                      onChange={(e) => patch(i, { title: e.target.value })}
                    />
                  </FormField>
                  <FormField id={`${id}-kind`} label={`Step ${i + 1} kind`}>
                    <Select
                      id={`${id}-kind`}
                      value={s.kind}
                      onChange={(e) => patch(i, { kind: e.target.value as TFlowStepKind })}
                    >
                      {FLOW_STEP_KINDS.map((k) => (
                        <option key={k} value={k}>
                          {STEP_KIND_LABELS[k]}
                        </option>
                      ))}
                    </Select>
                  </FormField>
                </div>
                {s.kind === 'agent' || s.kind === 'tool' ? (
                  <div className="grid gap-3 sm:grid-cols-2">
                    {s.kind === 'agent' ? (
                      <FormField id={`${id}-agent`} label={`Step ${i + 1} agent`}>
                        <Select
                          id={`${id}-agent`}
                          value={s.agent_id}
                          onChange={(e) => patch(i, { agent_id: e.target.value })}
                        >
                          <option value="">Default agent</option>
                          {agents.map((a) => (
                            <option key={a.id} value={a.id}>
                              {a.name}
                            </option>
                          ))}
                        </Select>
                      </FormField>
                    ) : null}
                    <FormField id={`${id}-tool`} label={`Step ${i + 1} tool`}>
                      <Select
                        id={`${id}-tool`}
                        value={s.tool_id}
                        onChange={(e) => patch(i, { tool_id: e.target.value })}
                      >
                        <option value="">{s.kind === 'agent' ? "The agent's tools" : 'Choose a tool'}</option>
                        {tools.map((t) => (
                          <option key={t.id} value={t.id}>
                            {t.name}
                          </option>
                        ))}
                      </Select>
                    </FormField>
                  </div>
                ) : null}
                {s.kind === 'agent' || s.kind === 'tool' ? (
                  <div className="flex items-center gap-2 text-sm">
                    <Checkbox
                      id={`${id}-may-fail`}
                      checked={s.may_fail}
                      onChange={(e) => patch(i, { may_fail: e.target.checked })}
                    />
                    <label htmlFor={`${id}-may-fail`} className="cursor-pointer">
                      Step {i + 1} may fail: a failed tool call does not stop the flow
                    </label>
                  </div>
                ) : null}
                <FormField
                  id={`${id}-prompt`}
                  label={human ? `Step ${i + 1} question for the person` : `Step ${i + 1} instructions`}
                >
                  <Textarea
                    id={`${id}-prompt`}
                    value={s.prompt}
                    onChange={(e) => patch(i, { prompt: e.target.value })}
                  />
                </FormField>
              </OrderedRow>
            );
          })}
        </ol>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => setSteps((ss) => [...ss, newStep()])}>
            <Plus aria-hidden="true" />
            Add step
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setSteps((ss) => [...ss, newStep('wait_for_human')])}
          >
            <Plus aria-hidden="true" />
            Add human step
          </Button>
        </div>
      </section>
      <ShareWithOrgs idPrefix="flow" selected={sharedOrgs} onChange={setSharedOrgs} />
    </CreateDialog>
  );
}
