import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What the mock model saw of one request, in this process's performance.now() time. */
export interface UpstreamTimes {
  receivedAt: number;
  contentSentAt: number[];
}

export interface MockModelProcess {
  url: string;
  script(steps: unknown[]): Promise<void>;
  /** The request whose body carries `marker`, or null. */
  find(marker: string): Promise<UpstreamTimes | null>;
  close(): Promise<void>;
}

/** Starts bench/src/mock-model-child.ts in a process of its own (see there why). */
export async function startMockModelProcess(): Promise<MockModelProcess> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./mock-model-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (msg: Record<string, unknown>) => void>();
  let next = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the mock model process exited (${code})`)));
    child.on('message', (msg: Record<string, unknown>) => {
      if (typeof msg.ready === 'string') return resolve(msg.ready);
      waiting.get(msg.id as number)?.(msg);
      waiting.delete(msg.id as number);
    });
  });
  const ask = (msg: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.send({ ...msg, id });
    });
  const local = (abs: number) => abs - performance.timeOrigin;
  return {
    url,
    script: async (steps) => {
      await ask({ op: 'script', steps });
    },
    find: async (marker) => {
      const { found } = (await ask({ op: 'find', marker })) as { found: UpstreamTimes | null };
      return found
        ? { receivedAt: local(found.receivedAt), contentSentAt: found.contentSentAt.map(local) }
        : null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.send({ op: 'close' });
      }),
  };
}
