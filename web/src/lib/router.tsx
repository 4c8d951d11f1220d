/** A small History API router: the app's screens are paths under /app/. */
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/app';

const listeners = new Set<() => void>();

/** Goes to an app path such as `/reports/123` (without the /app prefix). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${path}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : window.location.pathname;
  return path === '' ? '/' : path;
}

/** The current app path and query, re-rendering on navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => {
      setTick((n) => n + 1);
    };
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: currentPath(), search: new URLSearchParams(window.location.search) };
}

/** Matches `/reports/:id` against a path; the params, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const parts = pattern.split('/');
  const actual = path.replace(/\/+$/, '').split('/');
  if (parts.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    const value = actual[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

/** An in-app link: a real <a href> (so it opens in a new tab too) that navigates without a reload. */
export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...props} href={`${BASE}${to}`} onClick={onClick} />;
}
