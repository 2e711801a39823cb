import { z } from 'zod';
import { EMAIL_PATTERN, MAX_PAGE_SIZE, ZRefId, ZSkip } from './common.ts';
import { ZDateOnly, ZOptionalBody, ZOptionalText, ZOrgIds, ZSearch, ZUserRef } from './fields.ts';

export const CONTACT_NAME_REQUIRED = 'Name is required.';
export const INTERACTION_TITLE_REQUIRED = 'Title is required.';
export const INTERACTION_DATE_REQUIRED = 'Date is required.';
export const MAX_CONTACT_EMAILS = 20;
export const MAX_CONTACT_PHONES = 20;
export const MAX_INTERACTIONS_PER_CONTACT = 100;

/** The avatar letter: the first letter of the name, upper-cased ("?" when there is none). */
export function contactInitial(name: string): string {
  const c = name.trim().charAt(0);
  return c ? c.toUpperCase() : '?';
}

/** Trims each entry and drops the blank ones (spec: blank emails and phones are dropped). */
export function dropBlank(values: readonly (string | null | undefined)[]): string[] {
  return values.map((v) => (v ?? '').trim()).filter((v) => v !== '');
}

export const ZPastInteraction = z.object({
  id: z.string(),
  /** YYYY-MM-DD */
  date: z.string(),
  /** Shown as Title. */
  summary: z.string(),
  notes: z.string().nullable(),
  /** The interaction's version (its If-Match when edited). */
  updated_at: z.string(),
});
export type TPastInteraction = z.infer<typeof ZPastInteraction>;

/** A shared organization of a contact; is_owner marks the contact's own organization. */
export const ZContactOrganization = z.object({ id: z.string(), name: z.string(), is_owner: z.boolean() });
export type TContactOrganization = z.infer<typeof ZContactOrganization>;

export const ZContact = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  avatar_initial: z.string(),
  emails: z.array(z.string()),
  phones: z.array(z.string()),
  notes: z.string().nullable(),
  /** The contact's own organization (always among shared_org_ids), or null. */
  organization_id: z.string().nullable(),
  /** The owner. */
  user_id: z.string(),
  /** True when one of the e-mails belongs to an app user (linked_user_id names them). */
  is_user: z.boolean(),
  linked_user_id: z.string().nullable(),
  created_by_user: ZUserRef.nullable(),
  shared_org_ids: z.array(z.string()),
  shared_organizations: z.array(ZContactOrganization),
  /** Newest date first. */
  past_interactions: z.array(ZPastInteraction),
  /** The owner may edit and delete; an admin/manager of a shared organization may edit. */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TContact = z.infer<typeof ZContact>;

const ZContactName = z
  .string({ message: CONTACT_NAME_REQUIRED })
  .trim()
  .min(1, CONTACT_NAME_REQUIRED)
  .max(200);

/** E-mails: blank entries dropped, the rest must look like e-mails; stored lower-case, no duplicates. */
const ZContactEmails = z
  .array(z.string().max(254).nullable())
  .transform(dropBlank)
  .pipe(
    z
      .array(z.string().regex(EMAIL_PATTERN, 'Invalid email address'))
      .max(MAX_CONTACT_EMAILS, `At most ${MAX_CONTACT_EMAILS} e-mail addresses`),
  )
  .transform((list) => [...new Set(list.map((e) => e.toLowerCase()))]);

const ZContactPhones = z
  .array(z.string().max(50).nullable())
  .transform(dropBlank)
  .pipe(z.array(z.string()).max(MAX_CONTACT_PHONES, `At most ${MAX_CONTACT_PHONES} phone numbers`));

const contactFields = {
  name: ZContactName,
  /** Trimmed; blank becomes null. */
  role: ZOptionalText(200).optional(),
  /** Defaults to the first letter of the name. */
  avatar_initial: ZOptionalText(4).optional(),
  emails: ZContactEmails.optional(),
  phones: ZContactPhones.optional(),
  /** Blank becomes null. */
  notes: ZOptionalBody(20_000).optional(),
  /** The contact's own organization: one you belong to, or null. Owner only. */
  organization_id: ZRefId.nullable().optional(),
  /** The complete set of shared organizations: only organizations you belong to. Owner only. */
  shared_org_ids: ZOrgIds.optional(),
  /** Accepted (spec payload) and ignored: the owner is the caller. */
  user_id: ZRefId.nullable().optional(),
};

/** POST /api/contacts/. */
export const ZCreateContactRequest = z.strictObject(contactFields);
export type TCreateContactRequest = z.input<typeof ZCreateContactRequest>;

/** PATCH /api/contacts/{id}: changed fields only. */
export const ZUpdateContactRequest = z.strictObject({ ...contactFields, name: ZContactName.optional() });
export type TUpdateContactRequest = z.input<typeof ZUpdateContactRequest>;

/** POST /api/contacts/{id}/past-interactions and PUT …/{interactionId}. */
export const ZInteractionRequest = z.strictObject({
  date: z
    .string({ message: INTERACTION_DATE_REQUIRED })
    .trim()
    .min(1, INTERACTION_DATE_REQUIRED)
    .pipe(ZDateOnly),
  summary: z
    .string({ message: INTERACTION_TITLE_REQUIRED })
    .trim()
    .min(1, INTERACTION_TITLE_REQUIRED)
    .max(300),
  /** The dialog's Content field; blank becomes null. */
  notes: ZOptionalBody(20_000).optional(),
});
export type TInteractionRequest = z.input<typeof ZInteractionRequest>;

export const ZContactListQuery = z.object({
  /** Name, role or any e-mail, case-insensitive. */
  search: ZSearch,
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
export type TContactListQuery = z.input<typeof ZContactListQuery>;

/** GET /api/contacts/assignable: app users you can assign tasks to or message. */
export const ZAssignableUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string().nullable(),
  /** Organizations you share with this person. */
  organization_ids: z.array(z.string()),
});
export type TAssignableUser = z.infer<typeof ZAssignableUser>;

export const ZAssignableQuery = z.object({
  /** Name, role or e-mail, case-insensitive. */
  search: ZSearch,
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE),
});
export type TAssignableQuery = z.input<typeof ZAssignableQuery>;
