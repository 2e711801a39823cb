import type { TAssignableUser, TUser } from '@cc/contract';

export interface Person {
  id: string;
  label: string;
}

/** The people a task can be assigned to: the caller first, then GET /api/contacts/assignable. */
export function assignablePeople(me: TUser | undefined, others: readonly TAssignableUser[]): Person[] {
  const list: Person[] = [];
  if (me) {
    const name = [me.first_name, me.last_name].filter(Boolean).join(' ').trim() || me.email;
    list.push({ id: me.id, label: `Me (${name})` });
  }
  for (const u of others) if (u.id !== me?.id) list.push({ id: u.id, label: u.name || u.email });
  return list;
}
