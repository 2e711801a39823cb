import {
  DEFAULT_ADMIN_CREATED_LEVEL,
  EMAIL_PATTERN,
  PASSWORD_CHANGE_MIN,
  type TAdminCreateUserRequest,
  type TOrganization,
  type TUser,
  USER_LEVEL_LABELS,
  USER_LEVELS,
} from '@cc/contract';
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
import { Textarea } from '../../../components/ui/textarea';
import { type EditUserValues, editUserValues } from './user-rules';

const validateEmail = (v: string | undefined) => {
  if (!v?.trim()) return 'Email is required';
  return EMAIL_PATTERN.test(v.trim()) || 'Invalid email address';
};

function LevelOptions({ current }: { current?: string }) {
  const levels: string[] = [...USER_LEVELS];
  if (current && !levels.includes(current)) levels.push(current);
  return (
    <>
      {levels.map((level) => (
        <option key={level} value={level}>
          {USER_LEVEL_LABELS[level] ?? level}
        </option>
      ))}
    </>
  );
}

function OrganizationOptions({ organizations }: { organizations: TOrganization[] }) {
  return (
    <>
      <option value="">No organization</option>
      {organizations.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </>
  );
}

interface CreateValues {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  user_level: string;
  organization_id: string;
}

const EMPTY_CREATE: CreateValues = {
  email: '',
  password: '',
  first_name: '',
  last_name: '',
  user_level: DEFAULT_ADMIN_CREATED_LEVEL,
  organization_id: '',
};

interface CreateUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizations: TOrganization[];
  pending: boolean;
  onSubmit: (body: TAdminCreateUserRequest) => void;
}

export function CreateUserDialog({
  open,
  onOpenChange,
  organizations,
  pending,
  onSubmit,
}: CreateUserDialogProps) {
  const { register, handleSubmit, reset, formState } = useForm<CreateValues>({ defaultValues: EMPTY_CREATE });
  const { errors } = formState;

  useEffect(() => {
    if (open) reset(EMPTY_CREATE);
  }, [open, reset]);

  const submit = handleSubmit((v) =>
    onSubmit({
      email: v.email.trim(),
      password: v.password,
      first_name: v.first_name.trim() || null,
      last_name: v.last_name.trim() || null,
      user_level: v.user_level as TAdminCreateUserRequest['user_level'],
      organization_id: v.organization_id || null,
    }),
  );

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create User</DialogTitle>
          <DialogDescription>New accounts are waitlisted unless you choose another level.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <FormField id="create-email" label="Email" error={errors.email?.message}>
            <Input
              type="email"
              autoComplete="off"
              {...fieldA11y('create-email', errors.email?.message)}
              {...register('email', { validate: validateEmail })}
            />
          </FormField>
          <FormField id="create-password" label="Password" error={errors.password?.message}>
            <Input
              type="password"
              autoComplete="new-password"
              {...fieldA11y('create-password', errors.password?.message)}
              {...register('password', {
                required: 'Password is required',
                minLength: { value: PASSWORD_CHANGE_MIN, message: 'Password must be at least 8 characters' },
              })}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="create-first" label="First name">
              <Input id="create-first" autoComplete="off" {...register('first_name')} />
            </FormField>
            <FormField id="create-last" label="Last name">
              <Input id="create-last" autoComplete="off" {...register('last_name')} />
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="create-level" label="User level">
              <Select id="create-level" {...register('user_level')}>
                <LevelOptions />
              </Select>
            </FormField>
            <FormField id="create-org" label="Organization">
              <Select id="create-org" {...register('organization_id')}>
                <OrganizationOptions organizations={organizations} />
              </Select>
            </FormField>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              Create User
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

interface EditUserDialogProps {
  user: TUser | null;
  onOpenChange: (open: boolean) => void;
  organizations: TOrganization[];
  isSelf: boolean;
  pending: boolean;
  onSubmit: (user: TUser, values: EditUserValues) => void;
}

export function EditUserDialog({
  user,
  onOpenChange,
  organizations,
  isSelf,
  pending,
  onSubmit,
}: EditUserDialogProps) {
  const { register, handleSubmit, reset, formState } = useForm<EditUserValues>({
    defaultValues: user ? editUserValues(user) : undefined,
  });
  const { errors } = formState;

  useEffect(() => {
    if (user) reset(editUserValues(user));
  }, [user, reset]);

  return (
    <Dialog open={user !== null} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>
            {user ? `${user.email}: only the fields you change are saved.` : null}
          </DialogDescription>
        </DialogHeader>
        {user ? (
          <form onSubmit={handleSubmit((v) => onSubmit(user, v))} noValidate className="flex flex-col gap-4">
            <FormField id="edit-email" label="Email" error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="off"
                {...fieldA11y('edit-email', errors.email?.message)}
                {...register('email', { validate: validateEmail })}
              />
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id="edit-first" label="First name">
                <Input id="edit-first" autoComplete="off" {...register('first_name')} />
              </FormField>
              <FormField id="edit-last" label="Last name">
                <Input id="edit-last" autoComplete="off" {...register('last_name')} />
              </FormField>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id="edit-level"
                label="User level"
                error={errors.user_level?.message}
                hint={isSelf ? 'You cannot change your own user level.' : undefined}
              >
                <Select
                  disabled={isSelf}
                  {...fieldA11y('edit-level', errors.user_level?.message, isSelf)}
                  {...register('user_level', { required: 'User level is required' })}
                >
                  <LevelOptions current={user.user_level} />
                </Select>
              </FormField>
              <FormField id="edit-org" label="Organization">
                <Select id="edit-org" {...register('organization_id')}>
                  <OrganizationOptions organizations={organizations} />
                </Select>
              </FormField>
            </div>
            <FormField id="edit-role" label="Role">
              <Input id="edit-role" autoComplete="off" {...register('role')} />
            </FormField>
            <FormField id="edit-objectives" label="Objectives" hint="One objective per line.">
              <Textarea
                id="edit-objectives"
                rows={3}
                aria-describedby="edit-objectives-hint"
                {...register('objectives')}
              />
            </FormField>
            <FormField id="edit-prompts" label="Custom prompts (JSON)" hint="Invalid JSON is saved as {}.">
              <Textarea
                id="edit-prompts"
                rows={4}
                spellCheck={false}
                className="font-mono text-xs"
                aria-describedby="edit-prompts-hint"
                {...register('custom_prompts')}
              />
            </FormField>
            <FormField
              id="edit-password"
              label="New password"
              error={errors.password?.message}
              hint="Optional. Leave blank to keep the current password."
            >
              <Input
                type="password"
                autoComplete="new-password"
                {...fieldA11y('edit-password', errors.password?.message, true)}
                {...register('password', {
                  validate: (v) =>
                    !v || v.length >= PASSWORD_CHANGE_MIN || 'Password must be at least 8 characters',
                })}
              />
            </FormField>
            {/* Stays at the bottom of the scrolling dialog, so Save is in view on a short screen. */}
            <DialogFooter className="sticky -bottom-5 z-10 -mx-5 -mb-5 border-t border-border bg-popover px-5 py-3 sm:-bottom-6 sm:-mx-6 sm:-mb-6 sm:px-6">
              <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? <Spinner /> : null}
                Save changes
              </Button>
            </DialogFooter>
          </form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
