/**
 * What every screen may ask of the signed-in app: the session (who is signed in, the inbox's
 * unread count) and the document title. The app shell (app/app.tsx) provides the session;
 * features read it here, so no feature imports the shell.
 */
import { createContext, useContext, useEffect } from 'react';
import type { User } from './api.js';

export interface Session {
  me: User;
  unread: number;
  refreshUnread: () => void;
  setMe: (user: User) => void;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in user and the inbox's unread count. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in app');
  return session;
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Chronicle`;
  }, [title]);
}
