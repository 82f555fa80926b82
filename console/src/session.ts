/** @module console/session: signing in and out, and the reload's session check (`GET /api/v1/session`). */
import { ApiError, get, send, setCsrfToken } from './api.js';
import type { SessionData, SessionUser } from './types.js';

/** Signs in; keeps the CSRF token in memory and returns the user. @throws ApiError 401 / 429 (locked, with Retry-After). */
export async function signIn(email: string, password: string): Promise<SessionUser> {
  const data = await send<SessionData & { session_token?: string }>('POST', '/session', { body: { email, password } });
  setCsrfToken(data.csrf_token ?? null);
  return data.user;
}

/** The current session's user (after a reload), or null when signed out. */
export async function currentUser(): Promise<SessionUser | null> {
  try {
    const data = await get<SessionData>('/session');
    setCsrfToken(data.csrf_token ?? null);
    return data.user;
  } catch (err) {
    // 401: no session. 404/405: a server without GET /session yet: sign in again.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) return null;
    throw err;
  }
}

/** Signs out (the server clears the cookie); forgets the CSRF token either way. */
export async function signOut(): Promise<void> {
  try {
    await send('DELETE', '/session');
  } finally {
    setCsrfToken(null);
  }
}

/** Whether `user` may make admin changes (keys, webhooks, waivers, settings). The server decides again on every call. */
export function isAdmin(user: SessionUser): boolean {
  return user.role === 'admin' || user.role === 'owner';
}
