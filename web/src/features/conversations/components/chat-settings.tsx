import {
  CONTEXT_MESSAGES_DEFAULT,
  CONTEXT_MESSAGES_MAX,
  CONTEXT_MESSAGES_MIN,
  DEFAULT_MODEL,
  OFFLINE_ENGINE_LABEL,
} from '@cc/contract';
import { ChevronDown, Settings2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useModels } from '../../../lib/queries/models';
import { cn } from '../../../lib/utils';
import type { ChatSettings } from '../use-conversation-log';

/** What the Context Messages control falls back to when its value cannot be read (spec section 9). */
export const CONTEXT_MESSAGES_FALLBACK = 2;

/** A new conversation searches the workspace: a first question about it must not get a refusal. */
export const DEFAULT_CHAT_SETTINGS: Required<ChatSettings> = {
  use_memory: false,
  use_internet: false,
  use_internal_search: true,
  model: DEFAULT_MODEL,
  context_messages: CONTEXT_MESSAGES_DEFAULT,
};

/** A typed value as a context-message count: whole, within 0 to 10, else the control's fallback. */
export function readContextMessages(value: string): number {
  const n = Number.parseInt(value, 10);
  if (Number.isNaN(n)) return CONTEXT_MESSAGES_FALLBACK;
  return Math.min(CONTEXT_MESSAGES_MAX, Math.max(CONTEXT_MESSAGES_MIN, n));
}

interface ChatSettingsPanelProps {
  value: Required<ChatSettings>;
  onChange: (next: Required<ChatSettings>) => void;
}

/** "More Settings": Internet Search, Internal Search and Memory toggles, the model and context messages. */
export function ChatSettingsPanel({ value, onChange }: ChatSettingsPanelProps) {
  const [open, setOpen] = useState(false);
  const [contextText, setContextText] = useState(String(value.context_messages));
  const models = useModels();
  const info = models.data;
  const internetUnavailable = info?.internetSearch === false;
  const id = useId();
  const set = <K extends keyof ChatSettings>(key: K, v: Required<ChatSettings>[K]) =>
    onChange({ ...value, [key]: v });
  const options = info?.models ?? [];
  const modelValue = options.includes(value.model) ? value.model : (options[0] ?? DEFAULT_MODEL);

  return (
    <div className="rounded-md border border-border">
      <Button
        variant="ghost"
        size="sm"
        className="w-full justify-between"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="inline-flex items-center gap-2">
          <Settings2 aria-hidden="true" />
          More Settings
        </span>
        <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
      </Button>
      <div id={`${id}-panel`} hidden={!open} className="grid gap-3 border-t border-border p-3 sm:grid-cols-2">
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">Tools</legend>
          <label htmlFor={`${id}-internet`} className="flex items-center gap-2 text-sm">
            <Checkbox
              id={`${id}-internet`}
              checked={value.use_internet && !internetUnavailable}
              disabled={internetUnavailable}
              onChange={(e) => set('use_internet', e.target.checked)}
            />
            Internet Search
            {internetUnavailable ? (
              <span className="text-xs text-muted-foreground">(not configured on this server)</span>
            ) : null}
          </label>
          <label htmlFor={`${id}-internal`} className="flex items-center gap-2 text-sm">
            <Checkbox
              id={`${id}-internal`}
              checked={value.use_internal_search}
              onChange={(e) => set('use_internal_search', e.target.checked)}
            />
            Internal Search
          </label>
          <label htmlFor={`${id}-memory`} className="flex items-center gap-2 text-sm">
            <Checkbox
              id={`${id}-memory`}
              checked={value.use_memory}
              onChange={(e) => set('use_memory', e.target.checked)}
            />
            Memory
          </label>
        </fieldset>
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-model`} className="text-sm font-medium">
              Model
            </label>
            <Select id={`${id}-model`} value={modelValue} onChange={(e) => set('model', e.target.value)}>
              {options.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
            {info?.offline ? <p className="text-xs text-muted-foreground">{OFFLINE_ENGINE_LABEL}</p> : null}
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-context`} className="text-sm font-medium">
              Context Messages
            </label>
            <Input
              id={`${id}-context`}
              type="number"
              inputMode="numeric"
              min={CONTEXT_MESSAGES_MIN}
              max={CONTEXT_MESSAGES_MAX}
              step={1}
              value={contextText}
              onChange={(e) => {
                setContextText(e.target.value);
                set('context_messages', readContextMessages(e.target.value));
              }}
              onBlur={() => setContextText(String(value.context_messages))}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
