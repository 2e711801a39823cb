import type { TConversationMessage, TMessageSender, TMessageStatus, TRecordCitation } from '@cc/contract';

/** A message as the log shows it: the server's, or a local one (the sent text, the "thinking..." placeholder). */
export interface ChatMessage {
  id: string;
  sender: TMessageSender;
  text: string;
  status: TMessageStatus;
  timestamp: string;
  position: number;
  crew_run_id: string | null;
  /** Set on the lines a flow run writes (labelled "Flow", not "Crew"). */
  flow_run_id?: string | null;
  /** Not yet confirmed by the server. */
  local?: boolean;
  /** The records an assistant answer used (none on local messages). */
  citations?: TRecordCitation[];
}

type Listener = () => void;

/** Replies whose tokens may arrive before the reply: a conversation streams one reply at a time. */
const MAX_EARLY = 8;

/**
 * The log of one conversation outside React state: rows subscribe to their own message, so a token
 * re-renders only the streaming row, and the list re-renders only when messages are added or removed.
 */
export class MessageStore {
  private readonly byId = new Map<string, ChatMessage>();
  private ids: string[] = [];
  private readonly listListeners = new Set<Listener>();
  private readonly messageListeners = new Map<string, Set<Listener>>();
  private localCount = 0;
  /**
   * Replies whose first tokens came before the reply itself: the server sends a reply's tokens while
   * its row is still being written. Their text is kept (and shown on this tab's reply placeholder,
   * when it has one) until the message arrives. At most {@link MAX_EARLY} replies are remembered.
   */
  private readonly early = new Map<string, { text: string; placeholder?: string }>();

  subscribeList = (fn: Listener) => {
    this.listListeners.add(fn);
    return () => this.listListeners.delete(fn);
  };

  /** The ids in log order; the same array until the list changes. */
  getIds = () => this.ids;

  subscribeMessage(id: string, fn: Listener) {
    let set = this.messageListeners.get(id);
    if (!set) {
      set = new Set();
      this.messageListeners.set(id, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.messageListeners.delete(id);
    };
  }

  get(id: string): ChatMessage | undefined {
    return this.byId.get(id);
  }

  /** Messages in log order (tests, and finding the latest reply). */
  all(): ChatMessage[] {
    return this.ids.map((id) => this.byId.get(id) as ChatMessage);
  }

  private emitList() {
    this.ids = [...this.byId.values()].sort(compare).map((m) => m.id);
    for (const fn of [...this.listListeners]) fn();
  }

  private emitMessage(id: string) {
    for (const fn of [...(this.messageListeners.get(id) ?? [])]) fn();
  }

  /** Adds or replaces server messages (a page, or stream events). */
  upsert(messages: readonly TConversationMessage[]) {
    let listChanged = false;
    for (const m of messages) {
      const early = this.early.get(m.id);
      this.early.delete(m.id);
      const prev = this.byId.get(m.id) ?? (early ? { text: early.text } : undefined);
      const next = fromServer(m);
      // A reload can carry a streaming reply shorter than what the deltas already showed.
      if (prev && m.status === 'streaming' && prev.text.length > next.text.length) next.text = prev.text;
      if (!this.byId.has(m.id)) {
        listChanged = true;
        if (m.sender === 'user') this.dropLocal((l) => l.sender === 'user' && l.text === m.text);
        if (early?.placeholder && this.byId.get(early.placeholder)?.local)
          this.byId.delete(early.placeholder);
        else if (m.sender === 'assistant')
          this.dropLocal((l) => l.sender === 'assistant' && l.status === 'streaming');
      }
      const known = this.byId.has(m.id);
      this.byId.set(m.id, next);
      if (known) this.emitMessage(m.id);
    }
    if (listChanged) this.emitList();
  }

  /** Text appended to a streaming reply; `offset` is its length before, so repeats are skipped. */
  applyDelta(id: string, offset: number, text: string) {
    const m = this.byId.get(id);
    if (!m) {
      this.applyEarlyDelta(id, offset, text);
      return;
    }
    const have = m.text.length;
    if (offset > have) return; // a gap: the final message fills it
    const add = text.slice(have - offset);
    if (!add) return;
    this.byId.set(id, { ...m, text: m.text + add });
    this.emitMessage(id);
  }

  /** A token of a reply not seen yet: kept for it, and shown on this tab's unclaimed reply placeholder. */
  private applyEarlyDelta(id: string, offset: number, text: string) {
    let e = this.early.get(id);
    if (!e) {
      if (offset !== 0) return; // the reply's message will carry what came before
      if (this.early.size >= MAX_EARLY) this.early.delete(this.early.keys().next().value as string);
      const claimed = new Set([...this.early.values()].map((x) => x.placeholder));
      const placeholder = [...this.byId.values()].find(
        (l) => l.local && l.sender === 'assistant' && l.status === 'streaming' && !claimed.has(l.id),
      );
      e = { text: '', placeholder: placeholder?.id };
      this.early.set(id, e);
    }
    if (offset > e.text.length) return;
    const add = text.slice(e.text.length - offset);
    if (!add) return;
    e.text += add;
    const shown = e.placeholder ? this.byId.get(e.placeholder) : undefined;
    if (shown && e.placeholder) {
      this.byId.set(e.placeholder, { ...shown, text: e.text });
      this.emitMessage(e.placeholder);
    }
  }

  /** A local message shown at once (position after everything the server sent). */
  addLocal(sender: TMessageSender, text: string, status: TMessageStatus): string {
    this.localCount += 1;
    const id = `local-${this.localCount}`;
    this.byId.set(id, {
      id,
      sender,
      text,
      status,
      timestamp: new Date().toISOString(),
      position: Number.MAX_SAFE_INTEGER - 1000 + this.localCount,
      crew_run_id: null,
      local: true,
    });
    this.emitList();
    return id;
  }

  /** Changes one message (local or not) in place. */
  patch(id: string, change: Partial<ChatMessage>) {
    const m = this.byId.get(id);
    if (!m) return;
    this.byId.set(id, { ...m, ...change });
    this.emitMessage(id);
  }

  remove(id: string) {
    if (this.byId.delete(id)) this.emitList();
  }

  private dropLocal(match: (m: ChatMessage) => boolean) {
    for (const m of this.byId.values()) {
      if (m.local && match(m)) {
        this.byId.delete(m.id);
        return;
      }
    }
  }
}

function compare(a: ChatMessage, b: ChatMessage) {
  return a.position - b.position;
}

function fromServer(m: TConversationMessage): ChatMessage {
  return {
    id: m.id,
    sender: m.sender,
    text: m.text,
    status: m.status,
    timestamp: m.timestamp,
    position: m.position,
    crew_run_id: m.crew_run_id,
    flow_run_id: m.flow_run_id,
    citations: m.citations ?? [],
  };
}
