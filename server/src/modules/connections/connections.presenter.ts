import type { TConnection, TConnectionKind, TConnectionStatus } from '@cc/contract';
import type { ConnectionRow } from './connections.repository.ts';

/** A connection as its owner sees it: the credentials (password, secret ICS address) never leave. */
export function presentConnection(row: ConnectionRow): TConnection {
  const kind = row.kind as TConnectionKind;
  return {
    id: row.id,
    kind,
    name: row.name,
    url: kind === 'caldav' ? row.url : null,
    host: row.host,
    port: row.port,
    tls: row.tls === null ? null : row.tls === 1,
    username: row.username,
    has_password: kind !== 'ics' && row.secret_sealed !== null,
    mail_days: row.mail_days,
    status: row.status as TConnectionStatus,
    last_synced_at: row.last_synced_at,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
