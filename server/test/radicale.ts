import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, killOnExit, stopChild, waitForPort } from './real-server.ts';

export interface RadicaleServer {
  /** The server's root (a CalDAV client discovers the user's calendars from here). */
  url: string;
  user: string;
  password: string;
  /** Creates the calendar `name` of the user; returns its URL. */
  makeCalendar(name: string): Promise<string>;
  /** Stores (or replaces) one iCalendar object in a calendar made by `makeCalendar`. */
  putEvent(calendarUrl: string, uid: string, ics: string): Promise<void>;
  deleteEvent(calendarUrl: string, uid: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real Radicale CalDAV server for tests: htpasswd auth (one user), throwaway storage, 127.0.0.1 on a
 * free port. Killed on stop and when the test process exits.
 */
export async function startRadicale(): Promise<RadicaleServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-radicale-'));
  const port = await freePort();
  const user = 'exec';
  const password = 'cal-pass-1';
  writeFileSync(path.join(dir, 'users'), `${user}:${password}\n`);
  const child: ChildProcess = spawn(
    '/usr/bin/radicale',
    [
      '--config',
      '',
      '--server-hosts',
      `127.0.0.1:${port}`,
      '--storage-filesystem-folder',
      path.join(dir, 'collections'),
      '--auth-type',
      'htpasswd',
      '--auth-htpasswd-filename',
      path.join(dir, 'users'),
      '--auth-htpasswd-encryption',
      'plain',
      '--rights-type',
      'owner_only',
      '--logging-level',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const dismissWatchdog = killOnExit(child, dir);
  const stop = async () => {
    dismissWatchdog();
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(
      port,
      () => child.exitCode !== null,
      () => stderr,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const url = `http://127.0.0.1:${port}/`;
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const call = async (method: string, target: string, body?: string, expected = [200, 201, 204]) => {
    const res = await fetch(target, {
      method,
      headers: { authorization, ...(body ? { 'content-type': 'text/calendar; charset=utf-8' } : {}) },
      body,
    });
    if (!expected.includes(res.status))
      throw new Error(`${method} ${target}: ${res.status} ${await res.text()}`);
  };
  return {
    url,
    user,
    password,
    async makeCalendar(name) {
      const target = `${url}${user}/${name}/`;
      await call('MKCALENDAR', target);
      return target;
    },
    putEvent: (calendarUrl, uid, ics) => call('PUT', `${calendarUrl}${uid}.ics`, ics),
    deleteEvent: (calendarUrl, uid) => call('DELETE', `${calendarUrl}${uid}.ics`),
    stop,
  };
}
