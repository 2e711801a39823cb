import { Building2, Mail, Phone, UserX } from 'lucide-react';
import { useId } from 'react';
import { cn } from '../../../lib/utils';
import type { Contact } from '../api';

export type ContactsView = 'grid' | 'list';

/** The initial avatar. */
export function ContactAvatar({ contact, className }: { contact: Contact; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-11 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-[#1f3a66] to-[#13213d] text-base font-semibold text-primary ring-1 ring-[#2f4572]',
        className,
      )}
    >
      {contact.avatar_initial || contact.name.charAt(0).toUpperCase() || '?'}
    </span>
  );
}

export function NotAppUserIcon() {
  return (
    <span role="img" aria-label="not an app user" title="not an app user" className="inline-flex">
      <UserX className="size-4 text-muted-foreground" aria-hidden="true" />
    </span>
  );
}

/** A contact in the directory: the whole card is one button that opens the details. */
export function ContactCard({
  contact,
  sharedWith,
  view,
  onOpen,
}: {
  contact: Contact;
  sharedWith: string[];
  view: ContactsView;
  onOpen: () => void;
}) {
  const nameId = useId();
  const detailsId = useId();
  const email = contact.emails[0];
  const phone = contact.phones[0];
  const list = view === 'list';

  return (
    <button
      type="button"
      onClick={onOpen}
      aria-labelledby={nameId}
      aria-describedby={detailsId}
      data-testid="contact-card"
      className={cn(
        'group flex w-full min-w-0 content-start justify-start rounded-xl border border-border bg-card text-left text-card-foreground shadow-sm shadow-black/20 transition-colors hover:border-[#3a4a6d] hover:bg-[#111b31] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        list ? 'flex-col gap-3 p-4 sm:flex-row sm:items-center sm:gap-5' : 'flex-col gap-4 p-5',
      )}
    >
      {/* Grows only in the list's row: in a grid card it would stretch with the card and centre the
          name at a different height in each card of a row. */}
      <span className={cn('flex min-w-0 items-center gap-3', list && 'sm:min-w-56 sm:flex-1')}>
        <ContactAvatar contact={contact} />
        <span className="flex min-w-0 flex-col">
          <span className="flex min-w-0 items-center gap-1.5">
            <span id={nameId} className="truncate font-semibold">
              {contact.name}
            </span>
            {!contact.is_user ? <NotAppUserIcon /> : null}
          </span>
          <span className="truncate text-sm text-muted-foreground">{contact.role || 'N/A'}</span>
        </span>
      </span>
      <span id={detailsId} className={cn('flex min-w-0 flex-col gap-1.5 text-sm', list && 'sm:flex-[1.4]')}>
        <span className="sr-only">{!contact.is_user ? 'not an app user. ' : ''}</span>
        <span className="flex min-w-0 items-center gap-2 text-muted-foreground">
          <Mail className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="sr-only">Email: </span>
          <span className="truncate text-foreground/90">{email || '—'}</span>
        </span>
        <span className="flex min-w-0 items-center gap-2 text-muted-foreground">
          <Phone className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="sr-only">Phone: </span>
          <span className="truncate text-foreground/90">{phone || '—'}</span>
        </span>
        {contact.notes && !list ? (
          <span className="line-clamp-2 text-muted-foreground">{contact.notes}</span>
        ) : null}
        {sharedWith.length > 0 ? (
          <span className="flex min-w-0 items-start gap-2 text-xs text-muted-foreground">
            <Building2 className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <span className="line-clamp-2">Shared with: {sharedWith.join(', ')}</span>
          </span>
        ) : null}
      </span>
      {contact.notes && list ? (
        <span className="line-clamp-2 min-w-0 text-sm text-muted-foreground sm:flex-1">{contact.notes}</span>
      ) : null}
    </button>
  );
}
