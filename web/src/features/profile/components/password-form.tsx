import { PASSWORD_CHANGE_MIN } from '@cc/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField, fieldA11y } from '../../../components/form-field';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useUpdateMe } from '../api';

interface PasswordValues {
  current_password: string;
  password: string;
}

const EMPTY: PasswordValues = { current_password: '', password: '' };

export function PasswordForm() {
  const { register, handleSubmit, reset, getValues, formState } = useForm<PasswordValues>({
    defaultValues: EMPTY,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateMe();
  const { errors } = formState;

  const onSubmit = handleSubmit(
    (values) => {
      setFailure(null);
      update.mutate(
        { password: values.password, current_password: values.current_password },
        {
          onSuccess: () => {
            reset(EMPTY);
            notify.success('Password Updated');
          },
          onError: (err) => {
            setFailure(serverDetail(err) ?? null);
            notify.error('Update Failed', 'Could not update password. Please try again.');
          },
        },
      );
    },
    () => {
      if (!getValues('password')) notify.warning('No password entered');
    },
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>
          Other devices are signed out and all your API keys are revoked when your password changes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {/* The server's answer is about what was sent: stale once a field changes. */}
        <form
          onSubmit={onSubmit}
          onChange={() => setFailure(null)}
          noValidate
          className="flex flex-col gap-5"
          aria-label="Change password"
        >
          {failure ? <Alert>{failure}</Alert> : null}
          <FormField id="current-password" label="Current password" error={errors.current_password?.message}>
            <Input
              type="password"
              autoComplete="current-password"
              {...fieldA11y('current-password', errors.current_password?.message)}
              {...register('current_password', { required: 'Current password is required' })}
            />
          </FormField>
          <FormField
            id="new-password"
            label="New password"
            error={errors.password?.message}
            hint={`At least ${PASSWORD_CHANGE_MIN} characters.`}
          >
            <Input
              type="password"
              autoComplete="new-password"
              {...fieldA11y('new-password', errors.password?.message, true)}
              {...register('password', {
                required: 'Password is required',
                minLength: { value: PASSWORD_CHANGE_MIN, message: 'Password must be at least 8 characters' },
              })}
            />
          </FormField>
          <div className="flex justify-end">
            <Button type="submit" disabled={!formState.isDirty || update.isPending}>
              {update.isPending ? <Spinner /> : null}
              {update.isPending ? 'Saving…' : 'Update password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
