import { z } from 'zod';

/** A record an AI output or a tool result is based on, with the address of the screen that opens it. */
export const ZCitation = z.object({
  type: z.string(),
  id: z.string(),
  title: z.string(),
  url: z.string(),
});
export type TCitation = z.infer<typeof ZCitation>;

const SCREEN_OF_TYPE: Record<string, [path: string, param: string]> = {
  goal: ['/app/strategy', 'goal'],
  advice: ['/app/strategy', 'advice'],
  kpi: ['/app/strategy', 'goal'],
  task: ['/app/my-tasks', 'task'],
  note: ['/app/notes', 'note'],
  contact: ['/app/contacts', 'contact'],
  file: ['/app/files', 'file'],
  thread: ['/app/comms', 'thread'],
  conversation: ['/app/conversations', ''],
};

/** The in-app address of a record: the screen of its kind, pointed at the record. */
export function recordUrl(type: string, id: string): string {
  const screen = SCREEN_OF_TYPE[type];
  if (!screen) return '/app/ceodashboard';
  const [path, param] = screen;
  return param ? `${path}?${param}=${encodeURIComponent(id)}` : `${path}/${encodeURIComponent(id)}`;
}
