import type { TUser } from '@cc/contract';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { notify } from '../../../lib/toast';
import { useUpdateMe } from '../api';
import { isValidPromptsJson, type ProfileValues, profileChanges, profileValues } from './profile-changes';

export function ProfileForm({ user, isAdmin }: { user: TUser; isAdmin: boolean }) {
  const form = useForm<ProfileValues>({ defaultValues: profileValues(user) });
  const { register, handleSubmit, reset, watch, formState } = form;
  const update = useUpdateMe();
  const prompts = isAdmin ? watch('custom_prompts') : '';
  const promptsInvalid = isAdmin && prompts.trim() !== '' && !isValidPromptsJson(prompts);

  const onSubmit = handleSubmit((values) => {
    const changes = profileChanges(user, values, isAdmin);
    if (Object.keys(changes).length === 0) {
      reset(profileValues(user));
      notify.info('No Changes', 'No user information was changed.');
      return;
    }
    update.mutate(changes, {
      onSuccess: (updated) => {
        reset(profileValues(updated));
        notify.success('Profile Updated');
      },
      onError: () => notify.error('Update Failed', 'Could not update profile.'),
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Edit profile</CardTitle>
        <CardDescription>What the assistant knows about you and how you work.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Edit profile">
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField id="profile-email" label="Email" hint="Your e-mail address cannot be changed here.">
              <Input id="profile-email" value={user.email} readOnly aria-describedby="profile-email-hint" />
            </FormField>
            <FormField id="profile-name" label="Name">
              <Input id="profile-name" autoComplete="name" {...register('name')} />
            </FormField>
          </div>
          <FormField id="profile-role" label="Role">
            <Input id="profile-role" autoComplete="organization-title" {...register('role')} />
          </FormField>
          <FormField id="profile-objectives" label="Objectives" hint="One objective per line.">
            <Textarea
              id="profile-objectives"
              rows={4}
              aria-describedby="profile-objectives-hint"
              {...register('objectives')}
            />
          </FormField>
          <FormField id="profile-behavior" label="Behavior notes">
            <Textarea id="profile-behavior" rows={3} {...register('behavior_notes')} />
          </FormField>
          <FormField id="profile-knowledge" label="Knowledge summary">
            <Textarea id="profile-knowledge" rows={4} {...register('knowledge_summary')} />
          </FormField>
          {isAdmin ? (
            <FormField
              id="profile-prompts"
              label="Custom prompts (JSON)"
              hint={
                promptsInvalid ? (
                  <span className="text-[#fcd34d]">
                    This is not a JSON object: it will be saved as {'{}'}.
                  </span>
                ) : (
                  'A JSON object of prompt overrides. Only administrators can see and edit this.'
                )
              }
            >
              <Textarea
                id="profile-prompts"
                rows={6}
                spellCheck={false}
                className="font-mono text-xs"
                aria-describedby="profile-prompts-hint"
                {...register('custom_prompts')}
              />
            </FormField>
          ) : null}
          <div className="flex justify-end">
            <Button type="submit" disabled={!formState.isDirty || update.isPending}>
              {update.isPending ? <Spinner /> : null}
              {update.isPending ? 'Saving…' : 'Save profile'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
