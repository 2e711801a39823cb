import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort, killOnExit, stopChild, waitForPort } from './real-server.ts';

/** The mail user's ids: Dovecot refuses to deliver mail as root (uid 0). */
const NOBODY = { uid: 65534, gid: 65534 };

export interface DovecotServer {
  host: string;
  port: number;
  /** The account the product signs in with (its commands are logged apart, see `productCommands`). */
  user: string;
  password: string;
  /** Appends a raw RFC 822 message to INBOX as a second login sharing the same mailbox. */
  seed(raw: string, opts?: { date?: Date }): Promise<void>;
  /** Every command line the product's login sent after signing in (Dovecot's rawlog of that user). */
  productCommands(): string[];
  /** How many times the product's login signed in (one rawlog per session). */
  productSessions(): number;
  stop(): Promise<void>;
}

/**
 * A real Dovecot IMAP server for tests: plain auth on 127.0.0.1, a throwaway directory, a passwd-file
 * with two logins on one mailbox — `exec` for the product, `seeder` for fixtures — so the product's
 * own commands (its rawlog) show exactly what it sent. Killed on stop and when the test process exits.
 */
export async function startDovecot(): Promise<DovecotServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-dovecot-'));
  // Dovecot's auth and mail processes run as other users: they must reach the files inside.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'imap-pass-1';
  for (const d of ['run', 'state', 'home', 'rawlog/exec']) mkdirSync(path.join(dir, d), { recursive: true });
  for (const d of ['home', 'rawlog', 'rawlog/exec']) chownSync(path.join(dir, d), NOBODY.uid, NOBODY.gid);
  writeFileSync(path.join(dir, 'passwd'), `exec:{PLAIN}${password}\nseeder:{PLAIN}${password}\n`);
  writeFileSync(
    path.join(dir, 'dovecot.conf'),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/home/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${NOBODY.uid} gid=${NOBODY.gid} home=${dir}/home
}
protocol imap {
  rawlog_dir = ${dir}/rawlog/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn('/usr/sbin/dovecot', ['-F', '-c', path.join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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
      () => `${stderr}${readLog(dir)}`,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    host: '127.0.0.1',
    port,
    user: 'exec',
    password,
    async seed(raw, opts = {}) {
      const client = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { user: 'seeder', pass: password },
        logger: false,
      });
      await client.connect();
      try {
        await client.append('INBOX', raw, [], opts.date);
      } finally {
        await client.logout();
      }
    },
    productSessions() {
      const logDir = path.join(dir, 'rawlog', 'exec');
      return existsSync(logDir) ? readdirSync(logDir).filter((f) => f.endsWith('.in')).length : 0;
    },
    productCommands() {
      const logDir = path.join(dir, 'rawlog', 'exec');
      if (!existsSync(logDir)) return [];
      return (
        readdirSync(logDir)
          .filter((f) => f.endsWith('.in'))
          .flatMap((f) => readFileSync(path.join(logDir, f), 'utf8').split(/\r?\n/))
          // Each line starts with the time it was read ("1795955273.648712 8 EXAMINE INBOX").
          .map((line) => line.replace(/^\d+\.\d+ /, ''))
          .filter(Boolean)
      );
    },
    stop,
  };
}

function readLog(dir: string): string {
  try {
    return readFileSync(path.join(dir, 'dovecot.log'), 'utf8');
  } catch {
    return '';
  }
}
