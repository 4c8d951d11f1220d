/** The app's shell: who is signed in, the navigation with the unread count, and the screens. */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, setUnauthorizedHandler, type User } from './api.js';
import { Link, match, navigate, useLocation } from './router.js';
import { ErrorMessage, Loading } from './ui.js';
import { SignIn } from './screens/sign-in.js';
import { SetPassword } from './screens/set-password.js';
import { Inbox, InboxMessageScreen } from './screens/inbox.js';
import { ReportList } from './screens/reports.js';
import { ReportForm } from './screens/report-form.js';
import { ReportPage } from './screens/report-page.js';
import { TimeEntries } from './screens/time-entries.js';
import { Templates, TemplateEditor } from './screens/templates.js';
import { Settings } from './screens/settings.js';

interface Session {
  me: User;
  unread: number;
  refreshUnread: () => void;
  setMe: (user: User) => void;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in user and the inbox's unread count. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in app');
  return session;
}

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

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Chronicle`;
  }, [title]);
}

const NAV: { to: string; label: string; admin?: boolean }[] = [
  { to: '/inbox', label: 'Inbox' },
  { to: '/reports', label: 'Reports' },
  { to: '/time', label: 'Time' },
  { to: '/templates', label: 'Templates', admin: true },
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
        <Screen path={path} />
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
  if (match('/templates', path)) return <Templates />;
  if ((params = match('/templates/:id', path))) return <TemplateEditor id={params.id ?? ''} />;
  if (match('/settings', path)) return <Settings />;
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
