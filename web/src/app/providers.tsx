import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { AuthProvider } from '../lib/auth';
import { TOAST_SHORT_MS } from '../lib/toast';

/** Everything the app needs around the router: the query cache, the session, and the toaster. */
export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <AuthProvider>{children}</AuthProvider>
      <Toaster
        theme="dark"
        position="top-right"
        richColors
        closeButton
        duration={TOAST_SHORT_MS}
        toastOptions={{ className: 'font-sans' }}
      />
    </QueryClientProvider>
  );
}
