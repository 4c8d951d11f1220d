/** The app's shell: who is signed in, the navigation with the unread count, and the screens. */
import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { api, setUnauthorizedHandler, type User } from '../lib/api.js';
import { Link, match, navigate, useLocation } from '../lib/router.js';
import { SessionContext, useTitle } from '../lib/session.js';
import { ErrorMessage, Loading } from '../components/ui/ui.js';
import { SignIn } from '../features/auth/sign-in.js';
import { SetPassword } from '../features/auth/set-password.js';
import { Inbox, InboxMessageScreen } from '../features/inbox/inbox.js';

// Screens past the inbox load when first opened: the first paint carries only the shell, the
// sign-in and the inbox (Vite splits each import() into its own file).
const ReportList = lazy(() => import('../features/reports/report-list.js').then((m) => ({ default: m.ReportList })));
const ReportForm = lazy(() => import('../features/reports/report-form.js').then((m) => ({ default: m.ReportForm })));
const ReportPage = lazy(() => import('../features/reports/report-page.js').then((m) => ({ default: m.ReportPage })));
const TimeEntries = lazy(() => import('../features/time/time-entries.js').then((m) => ({ default: m.TimeEntries })));
const Import = lazy(() => import('../features/import/import.js').then((m) => ({ default: m.Import })));
const Templates = lazy(() => import('../features/templates/templates.js').then((m) => ({ default: m.Templates })));
const TemplateEditor = lazy(() => import('../features/templates/templates.js').then((m) => ({ default: m.TemplateEditor })));
const Settings = lazy(() => import('../features/settings/settings.js').then((m) => ({ default: m.Settings })));
const WorkspaceList = lazy(() => import('../features/workspaces/workspace-list.js').then((m) => ({ default: m.WorkspaceList })));
const WorkspacePage = lazy(() => import('../features/workspaces/workspace-page.js').then((m) => ({ default: m.WorkspacePage })));
const Outbox = lazy(() => import('../features/mail/outbox.js').then((m) => ({ default: m.Outbox })));
const ProjectPage = lazy(() => import('../features/workspaces/project-page.js').then((m) => ({ default: m.ProjectPage })));

export function App() {
  const { path } = useLocation();
  const [me, setMe] = useState<User | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setMe(null);
    });
    api.me().then(setMe, (caught: unknown) => {
      if ((caught as { status?: number }).status === 401) setMe(null);
      else setError(caught);
    });
  }, []);

  if (match('/set-password', path)) {
    return (
      <Page title="Set your password">
        <SetPassword onSignedIn={setMe} />
      </Page>
    );
  }
  if (error) {
    return (
      <Page title="Chronicle">
        <ErrorMessage error={error} />
      </Page>
    );
  }
  if (me === undefined) {
    return (
      <Page title="Chronicle">
        <Loading what="Chronicle" />
      </Page>
    );
  }
  if (me === null) {
    return (
      <Page title="Sign in">
        <SignIn onSignedIn={setMe} />
      </Page>
    );
  }
  return <SignedIn me={me} setMe={setMe} path={path} />;
}

/** A page without navigation (sign-in, set-password). */
function Page({ title, children }: { title: string; children: ReactNode }) {
  useTitle(title);
  return (
    <main id="main" className="narrow">
      <p className="brand">Chronicle</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

const NAV: { to: string; label: string; admin?: boolean }[] = [
  { to: '/inbox', label: 'Inbox' },
  { to: '/reports', label: 'Reports' },
  { to: '/time', label: 'Time' },
  { to: '/workspaces', label: 'Workspaces' },
  { to: '/import', label: 'Import' },
  { to: '/templates', label: 'Templates', admin: true },
  { to: '/outbox', label: 'Outbox', admin: true },
  { to: '/settings', label: 'Settings' },
];

function SignedIn({ me, setMe, path }: { me: User; setMe: (user: User | null) => void; path: string }) {
  const [unread, setUnread] = useState(0);
  const refreshUnread = useCallback(() => {
    api.inbox().then(
      (messages) => {
        setUnread(messages.filter((m) => m.readAt === null).length);
      },
      () => undefined,
    );
  }, []);
  useEffect(refreshUnread, [refreshUnread, path]);

  const signOut = () => {
    api.signOut().then(
      () => {
        setMe(null);
        navigate('/', { replace: true });
      },
      () => {
        setMe(null);
      },
    );
  };

  return (
    <SessionContext.Provider value={{ me, unread, refreshUnread, setMe }}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <nav aria-label="Main">
          <Link to="/inbox" className="brand">
            Chronicle
          </Link>
          <ul>
            {NAV.filter((item) => !item.admin || me.instanceAdmin).map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={path.startsWith(item.to) ? 'page' : undefined}>
                  {item.label}
                  {item.to === '/inbox' && unread > 0 && (
                    <span className="badge">
                      {unread}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
          <button type="button" className="link" onClick={signOut}>
            Sign out <span className="sr-only">{me.name}</span>
          </button>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<Loading what="the page" />}>
          <Screen path={path} />
        </Suspense>
      </main>
    </SessionContext.Provider>
  );
}

function Screen({ path }: { path: string }) {
  let params: Record<string, string> | null;
  if (path === '/' || path === '') {
    return <Redirect to="/inbox" />;
  }
  if (match('/inbox', path)) return <Inbox />;
  if ((params = match('/inbox/:id', path))) return <InboxMessageScreen id={params.id ?? ''} />;
  if (match('/reports', path)) return <ReportList />;
  if (match('/reports/new', path)) return <ReportForm />;
  if ((params = match('/reports/:id/edit', path))) return <ReportForm id={params.id ?? ''} />;
  if ((params = match('/reports/:id', path))) return <ReportPage id={params.id ?? ''} />;
  if (match('/time', path)) return <TimeEntries />;
  if (match('/import', path)) return <Import />;
  if (match('/templates', path)) return <Templates />;
  if ((params = match('/templates/:id', path))) return <TemplateEditor id={params.id ?? ''} />;
  if (match('/workspaces', path)) return <WorkspaceList />;
  if ((params = match('/workspaces/:id', path))) return <WorkspacePage id={params.id ?? ''} />;
  if ((params = match('/workspaces/:id/projects/:projectId', path)))
    return <ProjectPage workspaceId={params.id ?? ''} projectId={params.projectId ?? ''} />;
  if (match('/settings', path)) return <Settings />;
  if (match('/outbox', path)) return <Outbox />;
  return <NotFound />;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => {
    navigate(to, { replace: true });
  }, [to]);
  return null;
}

function NotFound() {
  useTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no such page. <Link to="/inbox">Go to the inbox</Link>.
      </p>
    </>
  );
}
