import { lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject, ScrollRestoration } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RequireAuth, RequireLevel } from './guards';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-prefetch';
import { loadCeoDashboardRoute, prefetchCeoDashboard } from './routes/ceo-dashboard-prefetch';
import { prefetchBrief, prefetchConversations } from './routes/page-prefetch';
import { ADMIN_LEVELS, FACTORY_LEVELS } from '../lib/access';

// Every page is its own chunk: the public pages never download the signed-in app.
const LandingPage = lazy(() => import('../features/landing/pages/landing-page'));
const AboutPage = lazy(() => import('../features/landing/pages/about-page'));
const LoginPage = lazy(() => import('../features/auth/pages/login-page'));
const SignupPage = lazy(() => import('../features/auth/pages/signup-page'));
const WaitlistPage = lazy(() => import('../features/auth/pages/waitlist-page'));
const ConfirmEmailPage = lazy(() => import('../features/auth/pages/confirm-email-page'));
const InvitationLinkPage = lazy(() => import('../features/organization/pages/invitation-link-page'));
const AcceptInvitationPage = lazy(() => import('../features/organization/pages/accept-invitation-page'));
const AppShell = lazy(() => import('./shell/app-shell'));
const CeoDashboardPage = lazy(loadCeoDashboardRoute);
const BriefPage = lazy(() => import('../features/brief/pages/brief-page'));
const StrategyPage = lazy(() => import('../features/strategy/pages/strategy-page'));
const MyTasksPage = lazy(() => import('./routes/my-tasks-route'));
const RunPage = lazy(() => import('../features/conversations/pages/run-page'));
const ConversationsPage = lazy(() => import('../features/conversations/pages/conversations-page'));
const ConversationPage = lazy(() => import('./routes/conversation-route'));
const TestRunPage = lazy(() => import('../features/runs/pages/test-run-page'));
const InboxPage = lazy(() => import('../features/inbox/pages/inbox-page'));
const RunDetailPage = lazy(() => import('../features/runs/pages/run-detail-page'));
const RunLinkPage = lazy(() => import('../features/runs/pages/run-link-page'));
const NotesPage = lazy(() => import('../features/notes/pages/notes-page'));
const FilesPage = lazy(() => import('../features/files/pages/files-page'));
const CommsPage = lazy(() => import('../features/comms/pages/comms-page'));
const ContactsPage = lazy(() => import('../features/contacts/pages/contacts-page'));
const AiFactoryPage = lazy(() => import('../features/factory/pages/ai-factory-page'));
const ProfilePage = lazy(() => import('./routes/profile-route'));
const OrganizationPage = lazy(() => import('./routes/organization-route'));
const AdminPage = lazy(() => import('./routes/admin-route'));
const ActivityPage = lazy(() => import('../features/activity/pages/activity-page'));
const NotFoundPage = lazy(() => import('./not-found-page'));

function RootLayout() {
  return (
    <>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/waitlist', element: <WaitlistPage /> },
      { path: '/confirm-email', element: <ConfirmEmailPage /> },
      { path: '/invitation', element: <InvitationLinkPage /> },
      {
        path: '/app',
        element: <RequireAuth />,
        children: [
          {
            element: <AppShell />,
            children: [
              { index: true, element: <Navigate to="/app/ceodashboard" replace /> },
              {
                path: 'ceodashboard',
                element: <CeoDashboardPage />,
                handle: { prefetch: prefetchCeoDashboard } satisfies RouteHandle,
              },
              {
                path: 'brief',
                element: <BriefPage />,
                handle: { prefetch: prefetchBrief } satisfies RouteHandle,
              },
              { path: 'strategy', element: <StrategyPage /> },
              { path: 'my-tasks', element: <MyTasksPage /> },
              {
                path: 'run',
                element: <RunPage />,
                handle: { prefetch: prefetchConversations } satisfies RouteHandle,
              },
              {
                path: 'conversations',
                element: <ConversationsPage />,
                handle: { prefetch: prefetchConversations } satisfies RouteHandle,
              },
              { path: 'conversations/:conversationId', element: <ConversationPage /> },
              { path: 'test-run', element: <TestRunPage /> },
              { path: 'inbox', element: <InboxPage /> },
              { path: 'runs/:kind/:runId', element: <RunDetailPage /> },
              { path: 'runs/:runId', element: <RunLinkPage /> },
              { path: 'notes', element: <NotesPage /> },
              { path: 'files', element: <FilesPage /> },
              { path: 'comms', element: <CommsPage /> },
              { path: 'contacts', element: <ContactsPage /> },
              { path: 'profile', element: <ProfilePage /> },
              { path: 'organization', element: <OrganizationPage /> },
              { path: 'invitation', element: <AcceptInvitationPage /> },
              { path: 'activity', element: <ActivityPage /> },
              {
                element: <RequireLevel levels={FACTORY_LEVELS} />,
                children: [{ path: 'ai-factory', element: <AiFactoryPage /> }],
              },
              {
                element: <RequireLevel levels={ADMIN_LEVELS} />,
                children: [{ path: 'admin', element: <AdminPage /> }],
              },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
