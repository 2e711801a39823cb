import {
  BUILTIN_TOOL_FUNCTIONS,
  TOOL_KIND_LABELS,
  TOOL_KINDS,
  type TBuiltinToolFunction,
  type TCreateToolRequest,
  type TToolKind,
  toolRequiresApprovalByDefault,
} from '@cc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { FormField } from '../../../components/form-field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Textarea } from '../../../components/ui/textarea';
import { useValidationMessage } from '../../../lib/use-validation-message';
import { useCreateTool } from '../api';
import { BUILTIN_FUNCTION_LABELS } from '../types';
import { ShareWithOrgs, sharedOrgsField } from './share-with-orgs';
import { CreateDialog, closeOnSaved } from './create-dialog';
import { type HeaderRow, headersOf, McpServerFields, readOnlyNamesOf } from './mcp-server-fields';

export const TOOL_REQUIRED = 'Name is required';
export const TOOL_URL_REQUIRED = 'An HTTP tool needs an http:// or https:// URL';
export const MCP_URL_REQUIRED = 'An MCP server needs an http:// or https:// URL';
export const TOOL_SCHEMA_INVALID = 'The input schema must be a JSON object';
export const TOOL_REQUIRES_APPROVAL_LABEL = 'Requires approval before each call';
export const TOOL_REQUIRES_APPROVAL_HINT =
  'A run pauses before calling this tool until the person running it approves the exact call.';

export const TOOL_KIND_REQUIRED = 'Choose what the tool runs';

const DEFAULT_SCHEMA = '{\n  "type": "object",\n  "properties": {}\n}';

interface ToolDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ToolDialog({ open, onOpenChange }: ToolDialogProps) {
  const create = useCreateTool();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  // No kind until the person picks one: a silent default made tools of a kind nobody chose.
  const [kind, setKind] = useState<TToolKind | null>(null);
  const [mcpUrl, setMcpUrl] = useState('');
  const [mcpHeaders, setMcpHeaders] = useState<HeaderRow[]>([]);
  const [mcpReadOnly, setMcpReadOnly] = useState('');
  const [fn, setFn] = useState<TBuiltinToolFunction>(BUILTIN_TOOL_FUNCTIONS[0]);
  const [url, setUrl] = useState('');
  const [method, setMethod] = useState<'GET' | 'POST'>('POST');
  const [schema, setSchema] = useState(DEFAULT_SCHEMA);
  // null: follow the default for the kind and method (POST endpoints are gated) until the box is touched.
  const [approval, setApproval] = useState<boolean | null>(null);
  const [sharedOrgs, setSharedOrgs] = useState<string[]>([]);
  const requiresApproval =
    approval ?? (kind !== null && toolRequiresApprovalByDefault(kind, kind === 'http' ? method : null));

  useEffect(() => {
    if (!open) return;
    setName('');
    setDescription('');
    setKind(null);
    setFn(BUILTIN_TOOL_FUNCTIONS[0]);
    setUrl('');
    setMcpUrl('');
    setMcpHeaders([]);
    setMcpReadOnly('');
    setMethod('POST');
    setSchema(DEFAULT_SCHEMA);
    setApproval(null);
    setSharedOrgs([]);
  }, [open]);

  const inputSchema = kind === 'http' ? parseSchema(schema) : undefined;
  const validation = useValidationMessage(() => {
    if (!name.trim()) return TOOL_REQUIRED;
    if (kind === null) return TOOL_KIND_REQUIRED;
    if (kind === 'mcp') return /^https?:\/\/\S+$/i.test(mcpUrl.trim()) ? null : MCP_URL_REQUIRED;
    if (kind !== 'http') return null;
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return TOOL_URL_REQUIRED;
    return inputSchema ? null : TOOL_SCHEMA_INVALID;
  });
  const { clear } = validation;
  useEffect(() => {
    if (open) clear();
  }, [open, clear]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (validation.check() || kind === null) return;
    const common = {
      name: name.trim(),
      description: description.trim() || null,
      requires_approval: requiresApproval,
      ...sharedOrgsField(sharedOrgs),
    };
    const body: TCreateToolRequest =
      kind === 'builtin'
        ? { ...common, kind, function_name: fn }
        : kind === 'mcp'
          ? {
              ...common,
              kind,
              mcp: {
                url: mcpUrl.trim(),
                headers: headersOf(mcpHeaders),
                read_only_tools: readOnlyNamesOf(mcpReadOnly),
              },
            }
          : { ...common, kind, http: { url: url.trim(), method }, input_schema: inputSchema };
    create.mutate(body, closeOnSaved(onOpenChange, 'Tool created', 'Failed to save tool'));
  };

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={create.isPending}
      idPrefix="tool"
      title="Create New Tool"
      description="A tool runs a built-in function, calls an HTTP endpoint or offers an MCP server's tools to an agent."
      submitLabel="Create Tool"
      error={validation.message}
      onSubmit={submit}
      className="max-w-xl"
    >
      <FormField id="tool-name" label="Name">
        <Input id="tool-name" aria-required="true" value={name} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <FormField id="tool-description" label="Description">
        <Textarea
          id="tool-description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">What it runs</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {TOOL_KINDS.map((value) => (
            <label key={value} className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                name="tool-kind"
                className="accent-primary"
                checked={kind === value}
                onChange={() => setKind(value)}
              />
              {TOOL_KIND_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>
      {kind === null ? null : kind === 'builtin' ? (
        <FormField id="tool-function" label="Function">
          <Select
            id="tool-function"
            value={fn}
            onChange={(e) => setFn(e.target.value as TBuiltinToolFunction)}
          >
            {BUILTIN_TOOL_FUNCTIONS.map((f) => (
              <option key={f} value={f}>
                {BUILTIN_FUNCTION_LABELS[f] ?? f}
              </option>
            ))}
          </Select>
        </FormField>
      ) : kind === 'mcp' ? (
        <McpServerFields
          url={mcpUrl}
          onUrlChange={setMcpUrl}
          headers={mcpHeaders}
          onHeadersChange={setMcpHeaders}
          readOnly={mcpReadOnly}
          onReadOnlyChange={setMcpReadOnly}
        />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
            <FormField id="tool-url" label="Endpoint URL">
              <Input
                id="tool-url"
                type="url"
                inputMode="url"
                placeholder="https://api.example.com/lookup"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
              />
            </FormField>
            <FormField id="tool-method" label="Method">
              <Select
                id="tool-method"
                value={method}
                onChange={(e) => setMethod(e.target.value as 'GET' | 'POST')}
              >
                <option value="POST">POST</option>
                <option value="GET">GET</option>
              </Select>
            </FormField>
          </div>
          <FormField id="tool-schema" label="Input schema (JSON)">
            <Textarea
              id="tool-schema"
              className="min-h-32 font-mono text-xs"
              spellCheck={false}
              value={schema}
              onChange={(e) => setSchema(e.target.value)}
            />
          </FormField>
        </>
      )}
      <div className="flex flex-col gap-0.5 text-sm">
        <label className="flex cursor-pointer items-center gap-2 font-medium">
          <input
            type="checkbox"
            className="accent-primary"
            checked={requiresApproval}
            onChange={(e) => setApproval(e.target.checked)}
            aria-describedby="tool-approval-hint"
          />
          {TOOL_REQUIRES_APPROVAL_LABEL}
        </label>
        <p id="tool-approval-hint" className="text-xs text-muted-foreground">
          {TOOL_REQUIRES_APPROVAL_HINT}
        </p>
      </div>
      <ShareWithOrgs idPrefix="tool" selected={sharedOrgs} onChange={setSharedOrgs} />
    </CreateDialog>
  );
}

/** The input schema as typed: a JSON object, else undefined. */
function parseSchema(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
