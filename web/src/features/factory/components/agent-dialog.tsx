import { DEFAULT_MODEL } from '@cc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { useValidationMessage } from '../../../lib/use-validation-message';
import { useCreateAgent } from '../api';
import { ShareWithOrgs, sharedOrgsField } from './share-with-orgs';
import { CreateDialog, closeOnSaved } from './create-dialog';
import { CheckList } from './form-bits';

export const AGENT_REQUIRED = 'Name, role and goal are required';

const EMPTY = {
  name: '',
  description: '',
  role: '',
  goal: '',
  backstory: '',
  llmModel: DEFAULT_MODEL as string,
};

interface AgentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Tools and, for an MCP server, each of its tools on its own (tool-options.ts). */
  tools: readonly { id: string; name: string }[];
  models: readonly string[];
}

export function AgentDialog({ open, onOpenChange, tools, models }: AgentDialogProps) {
  const create = useCreateAgent();
  const [values, setValues] = useState(EMPTY);
  const [toolIds, setToolIds] = useState<string[]>([]);
  const [sharedOrgs, setSharedOrgs] = useState<string[]>([]);

  useEffect(() => {
    if (open) {
      setValues({
        ...EMPTY,
        llmModel: models.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : (models[0] ?? DEFAULT_MODEL),
      });
      setToolIds([]);
      setSharedOrgs([]);
    }
  }, [open, models]);

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const validation = useValidationMessage(() =>
    values.name.trim() && values.role.trim() && values.goal.trim() ? null : AGENT_REQUIRED,
  );
  const { clear } = validation;
  useEffect(() => {
    if (open) clear();
  }, [open, clear]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = values.name.trim();
    const role = values.role.trim();
    const goal = values.goal.trim();
    if (validation.check()) return;
    create.mutate(
      {
        name,
        description: values.description.trim() || null,
        role,
        goal,
        backstory: values.backstory.trim() || null,
        llmModel: values.llmModel,
        toolIds,
        ...sharedOrgsField(sharedOrgs),
      },
      closeOnSaved(onOpenChange, 'Agent created', 'Failed to save agent'),
    );
  };

  const invalid = validation.message ? true : undefined;
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={create.isPending}
      idPrefix="agent"
      title="Create New Agent"
      description="An agent is a model with a role, a goal and the tools it may use."
      submitLabel="Create Agent"
      error={validation.message}
      onSubmit={submit}
      className="max-w-xl"
    >
      <FormField id="agent-name" label="Name">
        <Input
          id="agent-name"
          aria-required="true"
          aria-invalid={invalid && !values.name.trim() ? true : undefined}
          value={values.name}
          onChange={set('name')}
        />
      </FormField>
      <FormField id="agent-description" label="Description">
        <Textarea id="agent-description" value={values.description} onChange={set('description')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="agent-role" label="Role">
          <Input
            id="agent-role"
            aria-required="true"
            aria-invalid={invalid && !values.role.trim() ? true : undefined}
            value={values.role}
            onChange={set('role')}
          />
        </FormField>
        <FormField id="agent-model" label="Model">
          <Select id="agent-model" value={values.llmModel} onChange={set('llmModel')}>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <FormField id="agent-goal" label="Goal">
        <Textarea
          id="agent-goal"
          aria-required="true"
          aria-invalid={invalid && !values.goal.trim() ? true : undefined}
          value={values.goal}
          onChange={set('goal')}
        />
      </FormField>
      <FormField id="agent-backstory" label="Backstory">
        <Textarea id="agent-backstory" value={values.backstory} onChange={set('backstory')} />
      </FormField>
      <CheckList
        idPrefix="agent-tool"
        legend="Tools"
        options={tools}
        value={toolIds}
        onChange={setToolIds}
        empty="No tools found."
      />
      <ShareWithOrgs idPrefix="agent" selected={sharedOrgs} onChange={setSharedOrgs} />
    </CreateDialog>
  );
}
