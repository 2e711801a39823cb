import { INITIAL_GOAL_LABEL, type TCreateCrewRequest } from '@cc/contract';
import { Plus, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { useValidationMessage } from '../../../lib/use-validation-message';
import { useCreateCrew } from '../api';
import type { Agent } from '../types';
import { ShareWithOrgs, sharedOrgsField } from './share-with-orgs';
import { CreateDialog, closeOnSaved, NameVersionFields } from './create-dialog';
import { CheckList, moveItem, OrderedRow } from './form-bits';

export const CREW_REQUIRED = 'Name and version are required';
export const CREW_TASK_REQUIRED = 'Each task needs a description';
export const CREW_FIELD_NAME_INVALID = 'Input field names use letters, digits, spaces, _ and -';

interface TaskDraft {
  key: number;
  /** Blank: the server names it "Task N". */
  name: string;
  description: string;
  expected_output: string;
  agent_id: string;
  human_input: boolean;
}
interface FieldDraft {
  key: number;
  name: string;
  required: boolean;
}

let keySeq = 0;
const newTask = (): TaskDraft => ({
  key: ++keySeq,
  name: '',
  description: '',
  expected_output: '',
  agent_id: '',
  human_input: false,
});
const newField = (): FieldDraft => ({ key: ++keySeq, name: '', required: true });

interface CrewDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  agents: readonly Agent[];
}

export function CrewDialog({ open, onOpenChange, agents }: CrewDialogProps) {
  const create = useCreateCrew();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [version, setVersion] = useState('1.0');
  const [agentIds, setAgentIds] = useState<string[]>([]);
  const [tasks, setTasks] = useState<TaskDraft[]>([]);
  const [requiresInput, setRequiresInput] = useState(false);
  const [fields, setFields] = useState<FieldDraft[]>([]);
  const [sharedOrgs, setSharedOrgs] = useState<string[]>([]);

  useEffect(() => {
    if (!open) return;
    setName('');
    setSharedOrgs([]);
    setDescription('');
    setVersion('1.0');
    setAgentIds([]);
    setTasks([newTask()]);
    setRequiresInput(false);
    setFields([]);
  }, [open]);

  const patchTask = (i: number, patch: Partial<TaskDraft>) =>
    setTasks((ts) => ts.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  const patchField = (i: number, patch: Partial<FieldDraft>) =>
    setFields((fs) => fs.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  // A blank task row that was never filled in is dropped; a half-filled one must have a description.
  const used = tasks.filter(
    (t) => t.name.trim() || t.description.trim() || t.expected_output.trim() || t.agent_id,
  );
  const usedFields = requiresInput ? fields.filter((f) => f.name.trim()) : [];
  const validation = useValidationMessage(() => {
    if (!name.trim() || !version.trim()) return CREW_REQUIRED;
    if (used.some((t) => !t.description.trim())) return CREW_TASK_REQUIRED;
    if (usedFields.some((f) => !/^[A-Za-z_][A-Za-z0-9_ -]*$/.test(f.name.trim()))) {
      return CREW_FIELD_NAME_INVALID;
    }
    return null;
  });
  const { clear } = validation;
  useEffect(() => {
    if (open) clear();
  }, [open, clear]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (validation.check()) return;
    // Every agent a task names belongs to the crew.
    const ids = [...agentIds];
    for (const t of used) if (t.agent_id && !ids.includes(t.agent_id)) ids.push(t.agent_id);
    const body: TCreateCrewRequest = {
      name: name.trim(),
      version: version.trim(),
      description: description.trim() || null,
      agentIds: ids,
      requires_input: requiresInput,
      input_fields: usedFields.map((f) => ({ name: f.name.trim(), required: f.required })),
      ...(used.length
        ? {
            tasks: used.map((t) => ({
              ...(t.name.trim() ? { name: t.name.trim() } : {}),
              description: t.description.trim(),
              expected_output: t.expected_output.trim() || null,
              agent_id: t.agent_id || null,
              human_input: t.human_input,
            })),
          }
        : {}),
      ...sharedOrgsField(sharedOrgs),
    };
    create.mutate(body, closeOnSaved(onOpenChange, 'Crew created', 'Failed to save crew'));
  };

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={create.isPending}
      idPrefix="crew"
      title="Create New Crew"
      description="A crew runs its tasks in order; each task is done by an agent and sees the previous outputs."
      submitLabel="Create Crew"
      error={validation.message}
      onSubmit={submit}
      className="max-w-2xl"
    >
      <NameVersionFields
        idPrefix="crew"
        name={name}
        onName={setName}
        version={version}
        onVersion={setVersion}
        versionRequired
        description={description}
        onDescription={setDescription}
      />
      <CheckList
        idPrefix="crew-agent"
        legend="Agents"
        options={agents}
        value={agentIds}
        onChange={setAgentIds}
        empty="No agents found."
      />

      <section aria-labelledby="crew-tasks-heading" className="flex flex-col gap-2">
        <h3 id="crew-tasks-heading" className="text-sm font-medium">
          Tasks (run in this order)
        </h3>
        <ol className="flex flex-col gap-3">
          {tasks.map((t, i) => (
            <OrderedRow
              key={t.key}
              index={i}
              count={tasks.length}
              noun="Task"
              onMove={(from, to) => setTasks((ts) => moveItem(ts, from, to))}
              onRemove={(idx) => setTasks((ts) => ts.filter((_, j) => j !== idx))}
            >
              <FormField id={`crew-task-${t.key}-name`} label={`Task ${i + 1} name`}>
                <Input
                  id={`crew-task-${t.key}-name`}
                  value={t.name}
                  maxLength={200}
                  placeholder={`Task ${i + 1}`}
                  onChange={(e) => patchTask(i, { name: e.target.value })}
                />
              </FormField>
              <FormField id={`crew-task-${t.key}-description`} label={`Task ${i + 1} description`}>
                <Textarea
                  id={`crew-task-${t.key}-description`}
                  value={t.description}
                  onChange={(e) => patchTask(i, { description: e.target.value })}
                />
              </FormField>
              <div className="grid gap-3 sm:grid-cols-2">
                <FormField id={`crew-task-${t.key}-output`} label={`Task ${i + 1} expected output`}>
                  <Input
                    id={`crew-task-${t.key}-output`}
                    value={t.expected_output}
                    onChange={(e) => patchTask(i, { expected_output: e.target.value })}
                  />
                </FormField>
                <FormField id={`crew-task-${t.key}-agent`} label={`Task ${i + 1} agent`}>
                  <Select
                    id={`crew-task-${t.key}-agent`}
                    value={t.agent_id}
                    onChange={(e) => patchTask(i, { agent_id: e.target.value })}
                  >
                    <option value="">Any agent of the crew</option>
                    {agents.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.name}
                      </option>
                    ))}
                  </Select>
                </FormField>
              </div>
              <div className="flex items-center gap-2 text-sm">
                <Checkbox
                  id={`crew-task-${t.key}-human`}
                  checked={t.human_input}
                  onChange={(e) => patchTask(i, { human_input: e.target.checked })}
                />
                <label htmlFor={`crew-task-${t.key}-human`} className="cursor-pointer">
                  Ask a person before task {i + 1}
                </label>
              </div>
            </OrderedRow>
          ))}
        </ol>
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          onClick={() => setTasks((ts) => [...ts, newTask()])}
        >
          <Plus aria-hidden="true" />
          Add task
        </Button>
      </section>

      <div className="flex items-center gap-2 text-sm">
        <Checkbox
          id="crew-requires-input"
          checked={requiresInput}
          onChange={(e) => setRequiresInput(e.target.checked)}
        />
        <label htmlFor="crew-requires-input" className="cursor-pointer">
          Requires input before it starts
        </label>
      </div>
      {requiresInput ? (
        <section aria-labelledby="crew-fields-heading" className="flex flex-col gap-2">
          <h3 id="crew-fields-heading" className="text-sm font-medium">
            Input fields
          </h3>
          <p className="text-xs text-muted-foreground">
            Without fields the crew asks for one free-text answer, “{INITIAL_GOAL_LABEL}”.
          </p>
          <ul className="flex flex-col gap-2">
            {fields.map((f, i) => (
              <li key={f.key} className="flex flex-wrap items-end gap-3">
                <FormField
                  id={`crew-field-${f.key}`}
                  label={`Field ${i + 1} name`}
                  className="min-w-0 flex-1"
                >
                  <Input
                    id={`crew-field-${f.key}`}
                    value={f.name}
                    onChange={(e) => patchField(i, { name: e.target.value })}
                  />
                </FormField>
                <div className="flex h-10 items-center gap-2 text-sm">
                  <Checkbox
                    id={`crew-field-${f.key}-required`}
                    checked={f.required}
                    onChange={(e) => patchField(i, { required: e.target.checked })}
                  />
                  <label htmlFor={`crew-field-${f.key}-required`} className="cursor-pointer">
                    Required
                  </label>
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove field ${i + 1}`}
                  onClick={() => setFields((fs) => fs.filter((_, j) => j !== i))}
                >
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
          <Button
            variant="outline"
            size="sm"
            className="self-start"
            onClick={() => setFields((fs) => [...fs, newField()])}
          >
            <Plus aria-hidden="true" />
            Add input field
          </Button>
        </section>
      ) : null}
      <ShareWithOrgs idPrefix="crew" selected={sharedOrgs} onChange={setSharedOrgs} />
    </CreateDialog>
  );
}
