import type { TPastInteraction } from '@cc/contract';
import { Building2, CalendarDays, Mail, Pencil, Phone, Plus, Trash2 } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { type Contact, formatDate } from '../api';
import { ContactAvatar, NotAppUserIcon } from './contact-card';
import { GeneralNotes } from './general-notes';

interface ContactDetailDialogProps {
  contact: Contact | null;
  sharedWith: string[];
  onOpenChange: (open: boolean) => void;
  notesPending: boolean;
  onSaveNotes: (notes: string | null) => void;
  onEdit: () => void;
  onDelete: () => void;
  onAddInteraction: () => void;
  onEditInteraction: (interaction: TPastInteraction) => void;
  onDeleteInteraction: (interaction: TPastInteraction) => void;
}

export function ContactDetailDialog({
  contact,
  sharedWith,
  onOpenChange,
  notesPending,
  onSaveNotes,
  onEdit,
  onDelete,
  onAddInteraction,
  onEditInteraction,
  onDeleteInteraction,
}: ContactDetailDialogProps) {
  return (
    <Dialog open={contact !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        {contact ? (
          <>
            <DialogHeader className="flex-row items-center gap-4">
              <ContactAvatar contact={contact} className="size-14 text-xl" />
              <div className="flex min-w-0 flex-col gap-1">
                <DialogTitle className="flex items-center gap-2 break-words">
                  {contact.name}
                  {!contact.is_user ? <NotAppUserIcon /> : null}
                </DialogTitle>
                <DialogDescription>{contact.role || 'N/A'}</DialogDescription>
              </div>
            </DialogHeader>

            <dl className="grid grid-cols-1 gap-3 rounded-lg border border-border bg-card/60 p-4 text-sm sm:grid-cols-2">
              <div className="flex min-w-0 flex-col gap-1">
                <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                  <Mail className="size-3.5 shrink-0" aria-hidden="true" />
                  Email
                </dt>
                <dd className="break-all">
                  {contact.emails[0] ? (
                    <a className="text-primary hover:underline" href={`mailto:${contact.emails[0]}`}>
                      {contact.emails[0]}
                    </a>
                  ) : (
                    'N/A'
                  )}
                </dd>
              </div>
              <div className="flex min-w-0 flex-col gap-1">
                <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                  <Phone className="size-3.5 shrink-0" aria-hidden="true" />
                  Phone
                </dt>
                <dd className="break-all">{contact.phones[0] || 'N/A'}</dd>
              </div>
              <div className="flex min-w-0 flex-col gap-1 sm:col-span-2">
                <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                  <Building2 className="size-3.5 shrink-0" aria-hidden="true" />
                  Shared with
                </dt>
                <dd className="flex flex-wrap gap-1.5">
                  {sharedWith.length > 0 ? (
                    sharedWith.map((name) => (
                      <Badge key={name} variant="secondary">
                        {name}
                      </Badge>
                    ))
                  ) : (
                    <span className="text-muted-foreground">Only you</span>
                  )}
                </dd>
              </div>
            </dl>

            <GeneralNotes
              notes={contact.notes}
              canEdit={contact.can_edit}
              pending={notesPending}
              onSave={onSaveNotes}
            />

            <section aria-labelledby="contact-past-interactions" className="flex flex-col gap-3">
              <div className="flex items-center justify-between gap-2">
                <h3 id="contact-past-interactions" className="text-sm font-semibold">
                  Past Interactions
                </h3>
                {contact.can_edit ? (
                  <Button variant="outline" size="sm" onClick={onAddInteraction}>
                    <Plus aria-hidden="true" />
                    Add Interaction
                  </Button>
                ) : null}
              </div>
              {contact.past_interactions.length === 0 ? (
                <p className="rounded-md border border-dashed border-border px-3 py-4 text-center text-sm text-muted-foreground">
                  No past interactions recorded.
                </p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {contact.past_interactions.map((i) => (
                    <li
                      key={i.id}
                      className="flex flex-col gap-1.5 rounded-md border border-border bg-card/60 p-3"
                    >
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <div className="flex min-w-0 flex-col gap-0.5">
                          <span className="font-medium break-words">{i.summary}</span>
                          <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
                            <CalendarDays className="size-3.5" aria-hidden="true" />
                            <time dateTime={i.date}>{formatDate(i.date)}</time>
                          </span>
                        </div>
                        {contact.can_edit ? (
                          <div className="flex gap-1">
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              aria-label={`Edit interaction ${i.summary}`}
                              onClick={() => onEditInteraction(i)}
                            >
                              <Pencil aria-hidden="true" />
                            </Button>
                            <Button
                              variant="ghost"
                              size="icon-sm"
                              className="text-danger-text"
                              aria-label={`Delete interaction ${i.summary}`}
                              onClick={() => onDeleteInteraction(i)}
                            >
                              <Trash2 aria-hidden="true" />
                            </Button>
                          </div>
                        ) : null}
                      </div>
                      {i.notes ? (
                        <p className="text-sm whitespace-pre-wrap break-words text-muted-foreground">
                          {i.notes}
                        </p>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </section>

            <DialogFooter className="border-t border-border pt-4">
              {contact.can_delete ? (
                <Button variant="outline" className="text-danger-text sm:mr-auto" onClick={onDelete}>
                  <Trash2 aria-hidden="true" />
                  Delete Contact
                </Button>
              ) : null}
              {contact.can_edit ? (
                <Button variant="outline" onClick={onEdit}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
              ) : null}
              <Button onClick={() => onOpenChange(false)}>Close</Button>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
