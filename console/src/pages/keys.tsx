/**
 * @module console/pages/keys: API keys of the organization: list, create (key and signing secret
 * shown once), rotate with an overlap, revoke with confirmation. Admin and owner only; the page
 * says so to members and the server refuses them anyway (403).
 */
import { useState } from 'preact/hooks';
import { send, get } from '../api.js';
import { isAdmin } from '../session.js';
import { PERMISSIONS, type IssuedKey, type KeyView, type SessionUser } from '../types.js';
import { CopyField, ErrorNote, Loaded, PageTitle, When, useLoad } from '../components/common.js';
import { Confirm } from '../components/confirm.js';

/** Overlaps offered when rotating, in seconds. */
const OVERLAPS: readonly [number, string][] = [
  [0, 'None: the old key stops now'],
  [3600, '1 hour'],
  [86_400, '24 hours'],
  [604_800, '7 days'],
];

/** The keys page. */
export function KeysPage(props: { user: SessionUser }) {
  const admin = isAdmin(props.user);
  const org = props.user.org_id;
  const [load, reload] = useLoad(
    () => (admin ? get<{ keys: KeyView[] }>('/keys', { org_id: org }).then((d) => d.keys) : Promise.resolve([])),
    [admin, org],
  );
  const [issued, setIssued] = useState<{ key: IssuedKey; how: 'created' | 'rotated' } | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [revoking, setRevoking] = useState<KeyView | null>(null);
  const [rotating, setRotating] = useState<KeyView | null>(null);

  const run = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err as Error);
    }
    reload();
  };

  return (
    <>
      <PageTitle>API keys</PageTitle>
      {!admin && (
        <p class="notice" role="note">
          Key administration needs the admin role. You are signed in as a {props.user.role}: ask an admin of your
          organization to create, rotate or revoke keys.
        </p>
      )}
      <ErrorNote error={error} />
      {issued && (
        <section class="secret-panel" aria-labelledby="issued-title">
          <h2 id="issued-title">{issued.how === 'created' ? 'Key created' : 'Key rotated'}: copy it now</h2>
          <p class="warning" role="alert">
            This is the only time the key and its signing secret are shown. Store both in your secret manager before
            leaving this page; they cannot be retrieved later.
          </p>
          <CopyField id="issued-key" label="API key" value={issued.key.api_key} />
          <CopyField id="issued-secret" label="Signing secret" value={issued.key.signing_secret} />
          <button type="button" onClick={() => setIssued(null)}>
            I have stored them
          </button>
        </section>
      )}
      <CreateKey
        disabled={!admin}
        onCreate={(body) =>
          run(async () =>
            setIssued({
              key: await send<IssuedKey>('POST', '/keys', { body: { org_id: org, ...body } }),
              how: 'created',
            }),
          )
        }
      />
      {admin && (
        <section aria-labelledby="keys-title">
          <h2 id="keys-title">Keys</h2>
          <Loaded load={load}>
            {(keys) => (
              <div class="table-wrap">
                <table>
                  <caption class="visually-hidden">API keys of the organization</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Prefix</th>
                      <th scope="col">State</th>
                      <th scope="col">Permissions</th>
                      <th scope="col">IP allowlist</th>
                      <th scope="col">Limits</th>
                      <th scope="col">Created</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {keys.map((k) => (
                      <tr key={k.key_id} data-key-id={k.key_id}>
                        <th scope="row">{k.name}</th>
                        <td class="mono">{k.display_prefix}</td>
                        <td>
                          <span class={`state state-${k.state}`}>{k.state}</span>
                        </td>
                        <td>{k.permissions.join(', ')}</td>
                        <td>{k.allow_ips.length ? k.allow_ips.join(', ') : <span class="muted">any address</span>}</td>
                        <td>
                          {k.per_minute}/min, {k.per_hour}/h
                        </td>
                        <td>
                          <When iso={k.created_at} />
                        </td>
                        <td>{k.expires_at ? <When iso={k.expires_at} /> : <span class="muted">never</span>}</td>
                        <td>{k.last_used_at ? <When iso={k.last_used_at} /> : <span class="muted">never</span>}</td>
                        <td class="actions">
                          {k.state === 'active' && (
                            <>
                              <button type="button" onClick={() => setRotating(k)}>
                                Rotate<span class="visually-hidden"> {k.name}</span>
                              </button>
                              <button type="button" class="danger" onClick={() => setRevoking(k)}>
                                Revoke<span class="visually-hidden"> {k.name}</span>
                              </button>
                            </>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {keys.length === 0 && <p class="muted">No keys yet.</p>}
              </div>
            )}
          </Loaded>
        </section>
      )}
      {revoking && (
        <Confirm
          title={`Revoke key “${revoking.name}”?`}
          confirmLabel="Revoke key"
          onClose={(yes) => {
            const k = revoking;
            setRevoking(null);
            if (yes)
              void run(
                async () =>
                  void (await send('POST', `/keys/${encodeURIComponent(k.key_id)}/revoke`, { body: { org_id: org } })),
              );
          }}
        >
          <p>
            Every call signed with <span class="mono">{revoking.display_prefix}…</span> is refused within a second. This
            cannot be undone.
          </p>
        </Confirm>
      )}
      {rotating && (
        <Rotate
          keyView={rotating}
          onClose={(overlap) => {
            const k = rotating;
            setRotating(null);
            if (overlap !== null)
              void run(async () =>
                setIssued({
                  key: await send<IssuedKey>('POST', `/keys/${encodeURIComponent(k.key_id)}/rotate`, {
                    body: { org_id: org, overlap_seconds: overlap },
                  }),
                  how: 'rotated',
                }),
              );
          }}
        />
      )}
    </>
  );
}

/** The create form (disabled for members). */
function CreateKey(props: { disabled: boolean; onCreate: (body: Record<string, unknown>) => Promise<void> }) {
  const [name, setName] = useState('');
  const [perms, setPerms] = useState<string[]>([...PERMISSIONS]);
  const [expires, setExpires] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    void props
      .onCreate({
        name: name.trim() || 'console',
        permissions: perms,
        ...(expires ? { expires_at: new Date(`${expires}T23:59:59Z`).toISOString() } : {}),
      })
      .then(() => setName(''));
  };
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <form onSubmit={submit} class="stack">
        <fieldset disabled={props.disabled}>
          <legend class="visually-hidden">New key</legend>
          <label for="key-name">Name</label>
          <input
            id="key-name"
            value={name}
            maxLength={100}
            onInput={(e) => setName(e.currentTarget.value)}
            placeholder="e.g. ci-pipeline"
          />
          <fieldset>
            <legend>Permissions</legend>
            {PERMISSIONS.map((p) => (
              <label key={p} class="check">
                <input
                  type="checkbox"
                  checked={perms.includes(p)}
                  onChange={(e) => setPerms(e.currentTarget.checked ? [...perms, p] : perms.filter((x) => x !== p))}
                />{' '}
                {p}
              </label>
            ))}
          </fieldset>
          <label for="key-expires">Expires on (optional)</label>
          <input id="key-expires" type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
          <button type="submit" disabled={props.disabled || perms.length === 0}>
            Create key
          </button>
        </fieldset>
      </form>
    </section>
  );
}

/** The rotate dialog: choose the overlap during which the old key still works. */
function Rotate(props: { keyView: KeyView; onClose: (overlapS: number | null) => void }) {
  const [overlap, setOverlap] = useState(3600);
  return (
    <Confirm
      title={`Rotate key “${props.keyView.name}”?`}
      confirmLabel="Rotate key"
      onClose={(yes) => props.onClose(yes ? overlap : null)}
    >
      <p>A new key and signing secret are issued. The old key keeps working for the overlap, then expires.</p>
      <label for="rotate-overlap">Overlap</label>
      <select id="rotate-overlap" value={overlap} onChange={(e) => setOverlap(Number(e.currentTarget.value))}>
        {OVERLAPS.map(([s, label]) => (
          <option key={s} value={s}>
            {label}
          </option>
        ))}
      </select>
    </Confirm>
  );
}
