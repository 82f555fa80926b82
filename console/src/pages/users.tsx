/**
 * @module console/pages/users: the organization's console accounts (owner only; `GET/POST
 * /api/v1/users`): list, and create one with a role; a generated password is shown once.
 */
import { useState } from 'preact/hooks';
import { get, send } from '../api.js';
import type { ConsoleUser, Role, SessionUser } from '../types.js';
import { CopyField, ErrorNote, Loaded, PageTitle, When, useLoad } from '../components/common.js';

const ROLES: readonly Role[] = ['member', 'admin', 'owner'];

/** The users page. */
export function UsersPage(props: { user: SessionUser }) {
  const owner = props.user.role === 'owner';
  const [load, reload] = useLoad(
    () => (owner ? get<{ users: ConsoleUser[] }>('/users').then((d) => d.users) : Promise.resolve([])),
    [owner],
  );
  const [created, setCreated] = useState<ConsoleUser | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setCreated(await send<ConsoleUser>('POST', '/users', { body: { email: email.trim(), role } }));
      setEmail('');
    } catch (err) {
      setError(err as Error);
    }
    reload();
  };

  return (
    <>
      <PageTitle>Users</PageTitle>
      {!owner && (
        <p class="notice" role="note">
          Managing users needs the owner role. You are signed in as a {props.user.role}.
        </p>
      )}
      <ErrorNote error={error} />
      {created?.password && (
        <section class="secret-panel" aria-labelledby="created-title">
          <h2 id="created-title">Account created: pass the password on now</h2>
          <p class="warning" role="alert">
            This is the only time this password is shown. Give it to {created.email} over a safe channel.
          </p>
          <CopyField id="created-password" label="Password" value={created.password} />
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </section>
      )}
      <section aria-labelledby="create-user-title">
        <h2 id="create-user-title">Add a user</h2>
        <form onSubmit={(e) => void submit(e)} class="stack">
          <fieldset disabled={!owner}>
            <legend class="visually-hidden">New user</legend>
            <label for="user-email">Email</label>
            <input
              id="user-email"
              type="email"
              required
              maxLength={254}
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
            <label for="user-role">Role</label>
            <select id="user-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            <button type="submit" disabled={!owner || email.trim() === ''}>
              Add user
            </button>
          </fieldset>
        </form>
      </section>
      {owner && (
        <section aria-labelledby="users-title">
          <h2 id="users-title">Accounts</h2>
          <Loaded load={load}>
            {(users) => (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {users.map((u) => (
                    <tr key={u.user_id}>
                      <th scope="row">{u.email}</th>
                      <td>{u.role}</td>
                      <td>
                        <When iso={u.created_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Loaded>
        </section>
      )}
    </>
  );
}
