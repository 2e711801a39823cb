import {
  ArrowRight,
  Bot,
  CalendarClock,
  FileLock2,
  Handshake,
  ListChecks,
  type LucideIcon,
  MessagesSquare,
  NotebookPen,
  ShieldCheck,
  Target,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { PublicLayout } from '../../../components/public-layout';
import { buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { usePublicConfig } from '../../../lib/queries/public-config';

const BETA_FACTS: { value: string; label: string }[] = [
  { value: '7', label: 'companies in the private beta' },
  { value: '3', label: 'seats left' },
  { value: '60 min', label: 'briefing to get started' },
  { value: '14 days', label: 'to onboard your data, under NDA' },
];

const BENEFITS: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Target,
    title: 'Strategy with numbers',
    text: 'Strategic goals with KPIs and live progress, grouped by organization, on one dashboard.',
  },
  {
    icon: ListChecks,
    title: 'Tasks that move',
    text: 'AI-suggested tasks you approve, assign and share with your teams, with urgent work surfaced first.',
  },
  {
    icon: Bot,
    title: 'AI crews and flows',
    text: 'Conversations with your own AI crews that research, draft and report back, with you in the loop.',
  },
  {
    icon: NotebookPen,
    title: 'Notes and memory',
    text: 'A private journal and a memory the assistant draws on, so advice reflects how your company works.',
  },
  {
    icon: MessagesSquare,
    title: 'Comms and contacts',
    text: 'A contacts directory and a comms centre for the conversations that matter, with suggested replies.',
  },
  {
    icon: ShieldCheck,
    title: 'Private by design',
    text: 'Your data stays in your workspace, shared only with the organizations you choose.',
  },
];

const STEPS: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Users,
    title: 'Apply for a seat',
    text: 'Sign up to join the waitlist. We review every application personally.',
  },
  {
    icon: CalendarClock,
    title: '60-minute briefing',
    text: 'One hour with our team to map your priorities, goals and the decisions you want support with.',
  },
  {
    icon: FileLock2,
    title: 'Data onboarding under NDA',
    text: 'Within 14 days we connect your data and set up your command centre, covered by a mutual NDA.',
  },
  {
    icon: Handshake,
    title: 'Performance-based economics',
    text: 'You pay for results: our fees are tied to the outcomes we agree on together.',
  },
];

export default function LandingPage() {
  const { data: config, isPending } = usePublicConfig();

  return (
    <PublicLayout>
      {/* Hero */}
      <section className="relative overflow-hidden border-b border-border/70">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_85%_-10%,rgba(242,181,68,0.13),transparent_60%),radial-gradient(50rem_30rem_at_0%_110%,rgba(59,92,170,0.22),transparent_60%)]"
        />
        <div className="relative mx-auto grid w-full max-w-6xl gap-10 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.3fr_1fr] lg:items-center">
          <div className="flex flex-col gap-6">
            <p className="inline-flex w-fit items-center gap-2 rounded-full border border-[#5c4516] bg-[#21190a] px-3 py-1 text-xs font-semibold tracking-wide text-primary">
              <span className="size-1.5 rounded-full bg-primary" aria-hidden="true" />
              Private beta · three seats left
            </p>
            <h1 className="text-4xl leading-[1.08] font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl">
              The AI command centre for executives who run on results.
            </h1>
            <p className="max-w-xl text-lg text-pretty text-muted-foreground">
              Goals, KPIs, tasks, notes, contacts and AI crews in one private workspace. We are onboarding
              seven companies, and admitting one new beta company every two weeks.
            </p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Link to="/signup" className={cn(buttonVariants({ size: 'lg' }))}>
                Apply for the beta
                <ArrowRight aria-hidden="true" />
              </Link>
              <Link to="/login" className={cn(buttonVariants({ variant: 'outline', size: 'lg' }))}>
                Login
              </Link>
            </div>
          </div>

          <section
            aria-labelledby="beta-facts"
            className="rounded-2xl border border-border bg-card/80 p-6 shadow-xl shadow-black/30 backdrop-blur sm:p-7"
          >
            <h2
              id="beta-facts"
              className="text-sm font-semibold tracking-[0.16em] text-muted-foreground uppercase"
            >
              The beta at a glance
            </h2>
            <dl className="mt-5 grid grid-cols-2 gap-4">
              {BETA_FACTS.map((f) => (
                <div key={f.label} className="rounded-xl border border-border bg-background/60 p-4">
                  <dt className="sr-only">{f.label}</dt>
                  <dd className="text-2xl font-semibold text-primary sm:text-3xl">{f.value}</dd>
                  <dd className="mt-1 text-sm text-muted-foreground">{f.label}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-5 text-sm text-muted-foreground">
              Performance-based economics: you pay for the results we deliver, not for seats.
            </p>
          </section>
        </div>
      </section>

      {/* Benefits */}
      <section aria-labelledby="benefits" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="max-w-2xl">
          <h2 id="benefits" className="text-3xl font-semibold tracking-tight">
            Everything you steer, in one place
          </h2>
          <p className="mt-3 text-muted-foreground">
            One workspace for you and your leadership team, with an assistant that knows your goals.
          </p>
        </div>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-border bg-card p-6">
              <span className="grid size-10 place-items-center rounded-lg bg-muted">
                <Icon className="size-5 text-primary" aria-hidden="true" />
              </span>
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      {/* How the beta works */}
      <section aria-labelledby="how-it-works" className="border-y border-border/70 bg-card/40">
        <div className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <h2 id="how-it-works" className="text-3xl font-semibold tracking-tight">
            How the beta works
          </h2>
          <ol className="mt-10 grid gap-4 md:grid-cols-2 lg:grid-cols-4">
            {STEPS.map(({ icon: Icon, title, text }, i) => (
              <li key={title} className="relative rounded-xl border border-border bg-background p-6">
                <span className="text-xs font-semibold tracking-[0.16em] text-primary uppercase">
                  Step {i + 1}
                </span>
                <Icon className="mt-3 size-6 text-foreground" aria-hidden="true" />
                <h3 className="mt-3 font-semibold">{title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{text}</p>
              </li>
            ))}
          </ol>
          <p className="mt-8 text-sm text-muted-foreground">
            Seven companies, three seats left. We admit one new beta company every two weeks, so each one gets
            our full attention.
          </p>
        </div>
      </section>

      {/* Call to action */}
      <section className="mx-auto flex w-full max-w-6xl flex-col items-start gap-5 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 className="text-2xl font-semibold tracking-tight">Ready for a seat in the beta?</h2>
          <p className="mt-2 text-muted-foreground">Apply today and book your 60-minute briefing.</p>
        </div>
        <Link to="/signup" className={cn(buttonVariants({ size: 'lg' }))}>
          Sign Up
          <ArrowRight aria-hidden="true" />
        </Link>
      </section>

      <footer className="border-t border-border/70">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {new Date().getFullYear()} Command Centre</p>
          <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
            <Link to="/about" className="hover:text-foreground">
              About
            </Link>
            {config?.contact_email ? (
              <p>
                Contact:{' '}
                <a
                  href={`mailto:${config.contact_email}`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {config.contact_email}
                </a>
              </p>
            ) : isPending ? (
              <span aria-hidden="true" className="inline-block h-4 w-52 animate-pulse rounded bg-muted" />
            ) : null}
          </div>
        </div>
      </footer>
    </PublicLayout>
  );
}
