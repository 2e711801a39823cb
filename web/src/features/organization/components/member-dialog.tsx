import { EMAIL_PATTERN, ORG_ACCESS_LEVELS, PASSWORD_CHANGE_MIN, type TOrgMember } from '@cc/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
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
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { type MemberValues, memberValues } from './member-changes';

export const ACCESS_LEVEL_LABELS: Record<string, string> = {
  user: 'User',
  manager: 'Manager',
  admin: 'Admin',
};

interface MemberDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The member being edited; absent when adding one. */
  member?: TOrgMember;
  /**
   * When true, only the access level may change: the row's `can_edit_account` is false (an account this
   * organization does not manage), so the e-mail, name and password fields are not offered at all.
   */
  accountLocked?: boolean;
  pending: boolean;
  onSubmit: (values: MemberValues) => void;
}

/** Add or edit an organization member. */
export function MemberDialog({
  open,
  onOpenChange,
  member,
  accountLocked = false,
  pending,
  onSubmit,
}: MemberDialogProps) {
  const editing = Boolean(member);
  const { register, handleSubmit, reset, formState } = useForm<MemberValues>({
    defaultValues: memberValues(member),
  });
  const { errors } = formState;

  useEffect(() => {
    if (open) reset(memberValues(member));
  }, [open, member, reset]);

  const idp = editing ? 'edit-member' : 'add-member';

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit member' : 'Add member'}</DialogTitle>
          <DialogDescription>
            {editing
              ? 'Only the fields you change are saved.'
              : 'Invite someone by e-mail. They join once they accept the invitation.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
          {accountLocked ? (
            <p className="rounded-md border border-border bg-muted px-3 py-2 text-xs text-muted-foreground">
              {member?.email}: this account is not managed by this organization, so only its owner or a
              platform administrator can change its e-mail, name or password. You can change the access level.
            </p>
          ) : (
            <FormField id={`${idp}-email`} label="Email" error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="off"
                {...fieldA11y(`${idp}-email`, errors.email?.message)}
                {...register('email', {
                  validate: (v) => {
                    if (!v?.trim()) return 'Email is required';
                    if (!EMAIL_PATTERN.test(v.trim())) return 'Invalid email address';
                    return true;
                  },
                })}
              />
            </FormField>
          )}
          {editing && !accountLocked ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id={`${idp}-first`} label="First name">
                <Input id={`${idp}-first`} autoComplete="off" {...register('first_name')} />
              </FormField>
              <FormField id={`${idp}-last`} label="Last name">
                <Input id={`${idp}-last`} autoComplete="off" {...register('last_name')} />
              </FormField>
            </div>
          ) : null}
          <FormField id={`${idp}-level`} label="Access level" error={errors.org_access_level?.message}>
            <Select
              {...fieldA11y(`${idp}-level`, errors.org_access_level?.message)}
              {...register('org_access_level', { required: 'Access level is required' })}
            >
              {ORG_ACCESS_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {ACCESS_LEVEL_LABELS[level]}
                </option>
              ))}
            </Select>
          </FormField>
          {editing && !accountLocked ? (
            <FormField
              id={`${idp}-password`}
              label="New password"
              error={errors.password?.message}
              hint="Optional. Leave blank to keep the current password."
            >
              <Input
                type="password"
                autoComplete="new-password"
                {...fieldA11y(`${idp}-password`, errors.password?.message, true)}
                {...register('password', {
                  validate: (v) =>
                    !v || v.length >= PASSWORD_CHANGE_MIN || 'Password must be at least 8 characters',
                })}
              />
            </FormField>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              {editing ? 'Save changes' : 'Add member'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
