import { PublicLayout } from '../../../components/public-layout';

export default function AboutPage() {
  return (
    <PublicLayout>
      <section className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight">About</h1>
        <p className="text-muted-foreground">
          Command Centre is an executive AI workspace, currently in private beta. More about the team and the
          product will follow here soon.
        </p>
      </section>
    </PublicLayout>
  );
}
