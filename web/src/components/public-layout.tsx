import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/utils';
import { Brand } from './brand';
import { buttonVariants } from './ui/button';

interface PublicLayoutProps {
  children: ReactNode;
  /** Which call to action the header offers besides the brand. */
  nav?: 'login' | 'signup' | 'both' | 'none';
}

/** The frame of the public pages: a slim header and a centred main column. */
export function PublicLayout({ children, nav = 'both' }: PublicLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <header className="border-b border-border/70">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          <Link to="/" className="rounded-md" aria-label="Command Centre home">
            <Brand />
          </Link>
          <nav aria-label="Account" className="flex items-center gap-2">
            {nav === 'login' || nav === 'both' ? (
              <Link to="/login" className={cn(buttonVariants({ variant: 'ghost', size: 'sm' }))}>
                Login
              </Link>
            ) : null}
            {nav === 'signup' || nav === 'both' ? (
              <Link to="/signup" className={cn(buttonVariants({ size: 'sm' }))}>
                Sign Up
              </Link>
            ) : null}
          </nav>
        </div>
      </header>
      <main id="main" className="flex flex-1 flex-col">
        {children}
      </main>
    </div>
  );
}
