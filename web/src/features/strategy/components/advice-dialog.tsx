import type { TAdvice, TCreateAdviceRequest, TOrganization } from '@cc/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { StaleVersionBanner } from '../../../components/stale-version-banner';
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
import { notify } from '../../../lib/toast';

interface AdviceFormValues {
  advice_title: string;
  content: string;
  organization_id: string;
}

const toValues = (a: TAdvice | null): AdviceFormValues => ({
  advice_title: a?.advice_title ?? '',
  content: a?.content ?? '',
  organization_id: a?.organization_id ?? '',
});

interface AdviceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  advice: TAdvice | null;
  organizations: readonly TOrganization[];
  pending: boolean;
  onSubmit: (body: TCreateAdviceRequest) => void;
  /** The advice as stored now, after a save was refused because it changed since the form opened. */
  stale?: TAdvice | null;
  onUseTheirs?: () => void;
}

export function AdviceDialog({
  open,
  onOpenChange,
  advice,
  organizations,
  pending,
  onSubmit,
  stale,
  onUseTheirs,
}: AdviceDialogProps) {
  const { register, handleSubmit, reset } = useForm<AdviceFormValues>({ defaultValues: toValues(advice) });
  useEffect(() => {
    if (open) reset(toValues(advice));
  }, [open, advice, reset]);

  const submit = handleSubmit((v) => {
    if (!v.content.trim()) {
      notify.error('Content required');
      return;
    }
    onSubmit({
      advice_title: v.advice_title.trim() || null,
      content: v.content,
      organization_id: v.organization_id || null,
    });
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{advice ? 'Edit advice' : 'New advice'}</DialogTitle>
          <DialogDescription>The content is markdown.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {stale ? (
            <StaleVersionBanner
              fields={[
                ['Title', stale.advice_title],
                ['Content', stale.content],
              ]}
              onUseTheirs={() => onUseTheirs?.()}
            />
          ) : null}
          <FormField id="advice-title" label="Advice title">
            <Input id="advice-title" {...register('advice_title')} />
          </FormField>
          <FormField id="advice-content" label="Content (markdown)">
            <Textarea id="advice-content" className="min-h-48 font-mono text-xs" {...register('content')} />
          </FormField>
          <FormField id="advice-organization" label="Organization">
            <Select id="advice-organization" {...register('organization_id')}>
              <option value="">Personal (no organization)</option>
              {organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </Select>
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              Save advice
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
