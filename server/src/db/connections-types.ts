/** Profile → Connections (migration 0041): a person's calendars and mailboxes, and what they import. */
export interface ConnectionsTable {
  id: string;
  user_id: string;
  kind: string;
  name: string;
  url: string | null;
  host: string;
  port: number | null;
  /** 1/0 (IMAP only) */
  tls: number | null;
  username: string | null;
  /** The password or the secret ICS address, sealed with SECRETS_KEY. */
  secret_sealed: string | null;
  mail_days: number | null;
  status: string;
  last_synced_at: string | null;
  last_error: string | null;
  /** JSON: the kind's sync cursor. */
  sync_state: string | null;
  next_sync_at: string;
  failures: number;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface CalendarEventsTable {
  id: string;
  connection_id: string;
  user_id: string;
  uid: string;
  href: string | null;
  starts_at: string;
  ends_at: string;
  /** 1/0 */
  all_day: number;
  time_zone: string | null;
  title: string;
  location: string | null;
  description: string | null;
  organizer: string | null;
  /** JSON: [{email, name}] */
  attendees: string;
  updated_at: string;
}

export interface MailMessagesTable {
  id: string;
  connection_id: string;
  user_id: string;
  message_id: string;
  mailbox: string;
  uid: number;
  from_address: string | null;
  from_name: string | null;
  /** JSON: [{email, name}] */
  to_addresses: string;
  cc_addresses: string;
  subject: string;
  sent_at: string | null;
  in_reply_to: string | null;
  text_body: string;
  /** JSON: [file name] */
  attachment_names: string;
  size: number;
  imported_at: string;
}

export interface ConnectionsTables {
  connections: ConnectionsTable;
  calendar_events: CalendarEventsTable;
  mail_messages: MailMessagesTable;
}
