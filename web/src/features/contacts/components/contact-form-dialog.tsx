import {
  CONTACT_NAME_REQUIRED,
  dropBlank,
  EMAIL_PATTERN,
  MAX_CONTACT_EMAILS,
  MAX_CONTACT_PHONES,
  type TCreateContactRequest,
  type TUpdateContactRequest,
} from '@cc/contract';
import { Plus, X } from 'lucide-react';
import { useEffect } from 'react';
import { type UseFormRegister, useFieldArray, useForm } from 'react-hook-form';
import { StaleVersionBanner } from '../../../components/stale-version-banner';
import { FormField, fieldA11y } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import type { Contact, OrganizationRef } from '../api';

interface FormValues {
  name: string;
  role: string;
  emails: { value: string }[];
  phones: { value: string }[];
  notes: string;
  shared: string[];
}

function defaults(contact: Contact | null | undefined, ownerOrgId: string | null): FormValues {
  const rows = (list: string[] | undefined) =>
    list && list.length > 0 ? list.map((value) => ({ value })) : [{ value: '' }];
  return {
    name: contact?.name ?? '',
    role: contact?.role ?? '',
    emails: rows(contact?.emails),
    phones: rows(contact?.phones),
    notes: contact?.notes ?? '',
    shared: contact ? [...contact.shared_org_ids] : ownerOrgId ? [ownerOrgId] : [],
  };
}

/** The owner organization is always shared (its checkbox is checked and disabled). */
const withOwner = (ids: readonly string[] | false | undefined, owner: string | null) => {
  const list = Array.isArray(ids) ? ids : [];
  return [...new Set(owner ? [owner, ...list] : list)];
};

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * The create payload: name and role trimmed, blank e-mails and phones dropped, notes only when not
 * blank (spec section 5).
 */
export function createPayload(v: FormValues, ownerOrgId: string | null): TCreateContactRequest {
  const body: TCreateContactRequest = {
    name: v.name.trim(),
    role: v.role.trim(),
    emails: dropBlank(v.emails.map((e) => e.value)),
    phones: dropBlank(v.phones.map((p) => p.value)),
    organization_id: ownerOrgId,
    shared_org_ids: withOwner(v.shared, ownerOrgId),
  };
  if (v.notes.trim() !== '') body.notes = v.notes;
  return body;
}

/** The edit payload: changed fields only; sharing only when the caller owns the contact. */
export function updatePayload(v: FormValues, contact: Contact): TUpdateContactRequest {
  const body: TUpdateContactRequest = {};
  const name = v.name.trim();
  const role = v.role.trim();
  const emails = dropBlank(v.emails.map((e) => e.value));
  const phones = dropBlank(v.phones.map((p) => p.value));
  if (name !== contact.name) body.name = name;
  if (role !== (contact.role ?? '')) body.role = role;
  if (emails.join('\n') !== contact.emails.join('\n')) body.emails = emails;
  if (phones.join('\n') !== contact.phones.join('\n')) body.phones = phones;
  if (v.notes !== (contact.notes ?? '')) {
    if (v.notes.trim() !== '') body.notes = v.notes;
    else if (contact.notes) body.notes = null;
  }
  const shared = withOwner(v.shared, contact.organization_id);
  if (contact.can_delete && !sameSet(shared, contact.shared_org_ids)) body.shared_org_ids = shared;
  return body;
}

interface ContactFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The contact being edited; absent when creating. */
  contact?: Contact | null;
  /** Organizations the caller belongs to (the sharing choices). */
  organizations: OrganizationRef[];
  /** The owner organization of a new contact (the caller's primary organization). */
  defaultOwnerOrgId: string | null;
  pending: boolean;
  onCreate: (body: TCreateContactRequest) => void;
  onUpdate: (body: TUpdateContactRequest) => void;
  /** The contact as stored now, after a save was refused because it changed since the form opened. */
  stale?: Contact | null;
  onUseTheirs?: () => void;
}

export function ContactFormDialog({
  open,
  onOpenChange,
  contact,
  organizations,
  defaultOwnerOrgId,
  pending,
  onCreate,
  onUpdate,
  stale,
  onUseTheirs,
}: ContactFormDialogProps) {
  const editing = Boolean(contact);
  const ownerOrgId = contact ? contact.organization_id : defaultOwnerOrgId;
  const canShare = !contact || contact.can_delete;
  const { register, control, handleSubmit, reset, formState, watch, setValue } = useForm<FormValues>({
    defaultValues: defaults(contact, ownerOrgId),
  });
  const emails = useFieldArray({ control, name: 'emails' });
  const phones = useFieldArray({ control, name: 'phones' });

  useEffect(() => {
    if (open) reset(defaults(contact, ownerOrgId));
  }, [open, contact, ownerOrgId, reset]);

  const nameError = formState.errors.name?.message;
  const shared = watch('shared');
  const toggleShared = (id: string, on: boolean) =>
    setValue('shared', on ? [...shared.filter((x) => x !== id), id] : shared.filter((x) => x !== id), {
      shouldDirty: true,
    });
  const choices = [...organizations];
  // The contact's own organization is always listed, even when the caller is not a member of it.
  if (contact?.organization_id && !choices.some((o) => o.id === contact.organization_id)) {
    const own = contact.shared_organizations.find((o) => o.id === contact.organization_id);
    if (own) choices.unshift({ id: own.id, name: own.name, my_access_level: null });
  }

  const submit = handleSubmit((v) => {
    if (contact) onUpdate(updatePayload(v, contact));
    else onCreate(createPayload(v, ownerOrgId));
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Contact' : 'Create New Contact'}</DialogTitle>
          <DialogDescription>
            {editing ? 'Update the details of this contact.' : 'Add a person to your contacts directory.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-5">
          {stale ? (
            <StaleVersionBanner
              fields={[
                ['Name', stale.name],
                ['Role', stale.role],
                ['Emails', stale.emails.join(', ')],
                ['Phones', stale.phones.join(', ')],
                ['Notes', stale.notes],
              ]}
              onUseTheirs={() => onUseTheirs?.()}
            />
          ) : null}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField id="contact-name" label="Name" error={nameError}>
              <Input
                autoComplete="off"
                aria-required="true"
                {...fieldA11y('contact-name', nameError)}
                {...register('name', { validate: (v) => v.trim() !== '' || CONTACT_NAME_REQUIRED })}
              />
            </FormField>
            <FormField id="contact-role" label="Role/Title">
              <Input autoComplete="off" id="contact-role" {...register('role')} />
            </FormField>
          </div>

          <RowsField
            legend="Email Addresses"
            noun="email address"
            type="email"
            name="emails"
            fields={emails.fields}
            register={register}
            errors={formState.errors.emails?.map?.((e) => e?.value?.message) ?? []}
            max={MAX_CONTACT_EMAILS}
            onAdd={() => emails.append({ value: '' })}
            onRemove={(i) => emails.remove(i)}
          />
          <RowsField
            legend="Phone Numbers"
            noun="phone number"
            type="tel"
            name="phones"
            fields={phones.fields}
            register={register}
            errors={[]}
            max={MAX_CONTACT_PHONES}
            onAdd={() => phones.append({ value: '' })}
            onRemove={(i) => phones.remove(i)}
          />

          <FormField id="contact-notes" label="General Notes">
            <Textarea id="contact-notes" rows={3} {...register('notes')} />
          </FormField>

          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium">Share with Organizations</legend>
            {choices.length === 0 ? (
              <p className="text-xs text-muted-foreground">You do not belong to an organization yet.</p>
            ) : (
              <div className="flex flex-col gap-1 rounded-md border border-border p-2">
                {choices.map((org) => {
                  const owner = org.id === ownerOrgId;
                  const id = `contact-share-${org.id}`;
                  return (
                    <label
                      key={org.id}
                      htmlFor={id}
                      className="flex cursor-pointer items-center gap-3 rounded px-2 py-1.5 text-sm hover:bg-muted has-disabled:cursor-default"
                    >
                      <input
                        id={id}
                        type="checkbox"
                        checked={owner || shared.includes(org.id)}
                        onChange={(e) => toggleShared(org.id, e.target.checked)}
                        disabled={owner || !canShare}
                        className="size-4 accent-[#f5b83d] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                      />
                      <span className="min-w-0 break-words">
                        {org.name}
                        {owner ? <span className="ml-1 text-muted-foreground">(Owner)</span> : null}
                      </span>
                    </label>
                  );
                })}
              </div>
            )}
            {!canShare ? (
              <p className="text-xs text-muted-foreground">
                Only the owner of this contact can change its sharing.
              </p>
            ) : null}
          </fieldset>

          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              {editing ? 'Save Changes' : 'Create Contact'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RowsField({
  legend,
  noun,
  type,
  name,
  fields,
  register,
  errors,
  max,
  onAdd,
  onRemove,
}: {
  legend: string;
  noun: string;
  type: 'email' | 'tel';
  name: 'emails' | 'phones';
  fields: { id: string }[];
  register: UseFormRegister<FormValues>;
  errors: (string | undefined)[];
  max: number;
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {fields.map((field, i) => {
        const id = `contact-${name}-${i}`;
        const error = errors[i];
        return (
          <div key={field.id} className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <label htmlFor={id} className="sr-only">
                {`${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${i + 1}`}
              </label>
              <Input
                type={type}
                autoComplete="off"
                inputMode={type === 'email' ? 'email' : 'tel'}
                placeholder={type === 'email' ? 'name@company.com' : '+1 555 0100'}
                {...fieldA11y(id, error)}
                {...register(
                  `${name}.${i}.value`,
                  type === 'email'
                    ? {
                        validate: (v) =>
                          v.trim() === '' || EMAIL_PATTERN.test(v.trim()) || 'Invalid email address',
                      }
                    : undefined,
                )}
              />
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Remove ${noun} ${i + 1}`}
                disabled={fields.length <= 1}
                onClick={() => onRemove(i)}
              >
                <X aria-hidden="true" />
              </Button>
            </div>
            {error ? (
              <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger-text">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div>
        <Button variant="outline" size="sm" onClick={onAdd} disabled={fields.length >= max}>
          <Plus aria-hidden="true" />
          {`Add ${noun}`}
        </Button>
      </div>
    </fieldset>
  );
}
