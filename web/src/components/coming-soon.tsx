import type { LucideIcon } from 'lucide-react';
import { Sparkles } from 'lucide-react';
import { PageHeader } from './page-header';
import { Card } from './ui/card';

interface ComingSoonProps {
  title: string;
  description: string;
  icon?: LucideIcon;
}

/** A clean placeholder for a screen whose feature has not landed yet. */
export function ComingSoon({ title, description, icon: Icon = Sparkles }: ComingSoonProps) {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={title} />
      <Card className="flex flex-col items-center gap-4 px-6 py-14 text-center">
        <span className="grid size-14 place-items-center rounded-full border border-border bg-muted">
          <Icon className="size-6 text-primary" aria-hidden="true" />
        </span>
        <div className="flex flex-col gap-2">
          <p className="text-xs font-semibold tracking-[0.18em] text-primary uppercase">Coming soon</p>
          <p className="max-w-md text-sm text-muted-foreground">{description}</p>
        </div>
      </Card>
    </div>
  );
}
