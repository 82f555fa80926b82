/**
 * @module console/router: the SPA's routes under /console/ (history API; the server answers
 * index.html for every unknown sub-path, src/server/console/static.ts).
 */
import { useEffect, useState } from 'preact/hooks';

/** The console's base path. */
export const BASE = '/console/';

/** A matched route: the page name and its path parameters. */
export type Route =
  | { readonly page: 'overview' }
  | { readonly page: 'scenarios' }
  | { readonly page: 'scenario'; readonly id: string }
  | { readonly page: 'keys' }
  | { readonly page: 'webhooks' }
  | { readonly page: 'governance' }
  | { readonly page: 'audit' }
  | { readonly page: 'users' }
  | { readonly page: 'not-found' };

/** Maps a location pathname to a route. */
export function match(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname === '/console' ? '' : null;
  if (rest === null) return { page: 'not-found' };
  const parts = rest.split('/').filter((p) => p !== '');
  const [first, second] = parts;
  if (first === undefined) return { page: 'overview' };
  if (first === 'scenarios' && second !== undefined && parts.length === 2)
    return { page: 'scenario', id: decodeURIComponent(second) };
  if (
    parts.length === 1 &&
    (first === 'scenarios' ||
      first === 'keys' ||
      first === 'webhooks' ||
      first === 'governance' ||
      first === 'audit' ||
      first === 'users')
  )
    return { page: first };
  return { page: 'not-found' };
}

const listeners = new Set<() => void>();

/** Goes to `path` (relative to the console, e.g. `scenarios/42`) without a reload. */
export function navigate(path: string): void {
  window.history.pushState(null, '', `${BASE}${path}`);
  for (const l of listeners) l();
}

/** The current route; re-renders on navigation and on back/forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => match(window.location.pathname));
  useEffect(() => {
    const update = (): void => setRoute(match(window.location.pathname));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Click handler of an in-app link: plain clicks navigate in place, modified clicks keep the browser's behaviour. */
export function onLinkClick(e: MouseEvent, path: string): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(path);
}
