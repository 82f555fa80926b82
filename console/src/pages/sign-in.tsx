/** @module console/pages/sign-in: the sign-in form; shows the lockout (429) with its wait, and a busy server (429) as such. */
import { useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { signIn } from '../session.js';
import type { SessionUser } from '../types.js';
import { PageTitle } from '../components/common.js';

/** Why sign-in failed, in words. */
function message(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 429 && err.error === 'Too many sign-ins in progress') {
      // The server verifies only a few passwords at once (SIGN_IN_CONCURRENCY): a moment's wait, not a lockout.
      const s = Math.max(1, err.retryAfterS ?? 1);
      return `The server is busy with other sign-ins. Try again in ${s} second${s === 1 ? '' : 's'}.`;
    }
    if (err.status === 429) {
      const mins = err.retryAfterS !== null ? Math.max(1, Math.ceil(err.retryAfterS / 60)) : null;
      return `Too many sign-in attempts: this account is locked${mins !== null ? ` for ${mins} minute${mins === 1 ? '' : 's'}` : ' for a while'}. Try again later.`;
    }
    if (err.status === 401) return 'Invalid email or password.';
    return err.describe();
  }
  return 'The server could not be reached. Try again.';
}

/** The sign-in page. */
export function SignIn(props: { onSignedIn: (user: SessionUser) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await signIn(email, password));
    } catch (err) {
      setError(message(err));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <PageTitle>Sign in to the governance console</PageTitle>
      <form onSubmit={(e) => void submit(e)} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error !== null && (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
