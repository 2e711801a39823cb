import { describe, expect, it } from 'vitest';
import { completeContactEntry, contactListJson, presentContact } from './contacts.presenter.ts';
import type { ContactRow } from './contacts.repository.ts';

const row = {
  id: 'c-1',
  user_id: 'u-owner',
  organization_id: 'o-1',
  name: 'Ada "the" Lovelace',
  role: 'Advisor',
  avatar_initial: 'A',
  emails: '["ada@example.com"]',
  phones: '[]',
  notes: 'line\nbreak',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-02T00:00:00.000Z',
  owner_email: 'owner@example.com',
  owner_first_name: 'Olive',
  owner_last_name: 'Owner',
} as ContactRow;

const shares = [{ contact_id: 'c-1', organization_id: 'o-1', name: 'Acme' }];

describe('completeContactEntry', () => {
  // The list page is text assembled from the stored entry: it must be byte for byte what the
  // presenter would have serialized, in every combination of linked user and rights.
  for (const linkedUserId of [null, 'u-linked', 'u-"odd"\\id']) {
    for (const canEdit of [false, true]) {
      for (const canDelete of [false, true]) {
        it(`equals presentContact's JSON (linked ${linkedUserId}, edit ${canEdit}, delete ${canDelete})`, () => {
          const extras = { linkedUserId, canEdit, canDelete };
          const text = completeContactEntry(contactListJson(row, shares, []), extras);
          expect(text).toBe(JSON.stringify(presentContact(row, { shares, interactions: [], ...extras })));
        });
      }
    }
  }
});
