/**
 * @module console/pages/governance: waivers (list, create, revoke) and the organization's policy
 * settings (view, edit with `If-Match` on the version read). Changes for admins; members read.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, get, send } from '../api.js';
import { isAdmin } from '../session.js';
import type { SessionUser, Settings, Waiver } from '../types.js';
import { Badge, ErrorNote, Loaded, PageTitle, When, useLoad } from '../components/common.js';
import { Confirm } from '../components/confirm.js';
import { Link } from '../components/link.js';

/** The governance page. */
export function GovernancePage(props: { user: SessionUser }) {
  const admin = isAdmin(props.user);
  return (
    <>
      <PageTitle>Waivers and policy settings</PageTitle>
      {!admin && <p class="notice">You can read waivers and settings; changing them needs the admin role.</p>}
      <Waivers admin={admin} />
      <SettingsEditor admin={admin} />
    </>
  );
}

function Waivers(props: { admin: boolean }) {
  const [load, reload] = useLoad(
    () => get<{ waivers: Waiver[] }>('/waivers', { limit: 100 }).then((d) => d.waivers),
    [],
  );
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState('');
  const [revoking, setRevoking] = useState<Waiver | null>(null);
  const [form, setForm] = useState({ scenario_id: '', policy: '', reason: '', expires: '', module_id: '' });
  const field = (k: keyof typeof form) => ({
    value: form[k],
    onInput: (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value }),
  });
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const w = await send<Waiver>('POST', '/waivers', {
        body: {
          scenario_id: form.scenario_id.trim(),
          policy: form.policy.trim(),
          reason: form.reason.trim(),
          expires_at: new Date(`${form.expires}T23:59:59Z`).toISOString(),
          ...(form.module_id.trim() ? { module_id: form.module_id.trim() } : {}),
        },
      });
      setDone(`Waiver ${w.waiver_id} created; the scenario is being re-evaluated.`);
      setForm({ scenario_id: '', policy: '', reason: '', expires: '', module_id: '' });
      reload();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <section aria-labelledby="waivers-title">
      <h2 id="waivers-title">Waivers</h2>
      <ErrorNote error={error} />
      <p role="status" class="muted">
        {done}
      </p>
      <Loaded load={load}>
        {(waivers) =>
          waivers.length === 0 ? (
            <p class="muted">No waivers.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Scenario</th>
                  <th scope="col">Policy</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Status</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {waivers.map((w) => (
                  <tr key={w.waiver_id}>
                    <th scope="row">
                      <Link to={`scenarios/${encodeURIComponent(w.scenario_id)}`}>{w.scenario_id}</Link>
                      {w.module_id && <div class="muted">module {w.module_id}</div>}
                    </th>
                    <td class="mono">{w.policy}</td>
                    <td>{w.reason}</td>
                    <td>{w.status}</td>
                    <td>
                      <When iso={w.expires_at} />
                    </td>
                    <td>
                      {props.admin && w.status === 'active' && (
                        <button type="button" class="danger" onClick={() => setRevoking(w)}>
                          Revoke<span class="visually-hidden"> waiver {w.waiver_id}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <h3>Create a waiver</h3>
      <form onSubmit={(e) => void create(e)} class="stack">
        <fieldset disabled={!props.admin}>
          <legend class="visually-hidden">New waiver</legend>
          <label for="wv-scenario">Scenario id</label>
          <input id="wv-scenario" required {...field('scenario_id')} />
          <label for="wv-policy">Policy code</label>
          <input id="wv-policy" required placeholder="e.g. SEC-1" {...field('policy')} />
          <label for="wv-module">Module id (optional: the whole scenario when empty)</label>
          <input id="wv-module" {...field('module_id')} />
          <label for="wv-reason">Reason</label>
          <textarea
            id="wv-reason"
            required
            rows={2}
            value={form.reason}
            onInput={(e) => setForm({ ...form, reason: e.currentTarget.value })}
          />
          <label for="wv-expires">Expires on (at most a year ahead)</label>
          <input id="wv-expires" type="date" required {...field('expires')} />
          <button type="submit">Create waiver</button>
        </fieldset>
      </form>
      {revoking && (
        <Confirm
          title="Revoke this waiver?"
          confirmLabel="Revoke waiver"
          onClose={(yes) => {
            const w = revoking;
            setRevoking(null);
            if (yes)
              send('DELETE', `/waivers/${encodeURIComponent(w.waiver_id)}`).then(reload, (err: Error) => setError(err));
          }}
        >
          <p>
            The finding of <span class="mono">{revoking.policy}</span> on scenario {revoking.scenario_id} counts again
            after the re-evaluation.
          </p>
        </Confirm>
      )}
    </section>
  );
}

/** Text forms of the settings for editing. */
interface Draft {
  disabled: string;
  overrides: string;
  parameters: string;
}

function toDraft(s: Settings): Draft {
  return {
    disabled: s.disabled_policies.join(', '),
    overrides: Object.entries(s.severity_overrides)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    parameters: JSON.stringify(s.parameters, null, 2),
  };
}

function SettingsEditor(props: { admin: boolean }) {
  const [load, reload] = useLoad(async () => {
    const a = await call<Settings>('GET', '/governance/settings');
    return a.data;
  }, []);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => {
    if (load.state === 'ready') setDraft(toDraft(load.value));
  }, [load]);
  const save = async (e: Event, current: Settings) => {
    e.preventDefault();
    if (!draft) return;
    setError(null);
    try {
      const overrides: Record<string, string> = {};
      for (const line of draft.overrides.split('\n')) {
        const [code, sev] = line.split('=').map((x) => x.trim());
        if (code && sev) overrides[code] = sev;
      }
      const parameters = draft.parameters.trim() ? (JSON.parse(draft.parameters) as unknown) : {};
      const s = await send<Settings>('PUT', '/governance/settings', {
        headers: { 'if-match': `"${current.version}"` },
        body: {
          disabled_policies: draft.disabled
            .split(/[\s,]+/)
            .map((x) => x.trim())
            .filter(Boolean),
          severity_overrides: overrides,
          parameters,
        },
      });
      setSaved(`Saved as version ${s.version}.`);
      reload();
    } catch (err) {
      setError(err instanceof SyntaxError ? new Error(`Parameters: ${err.message}`) : (err as Error));
    }
  };
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Policy settings</h2>
      <ErrorNote error={error} />
      <p role="status" class="muted">
        {saved}
      </p>
      <Loaded load={load}>
        {(s) => (
          <>
            <p>
              Version {s.version}
              {s.updated_at && (
                <>
                  , updated <When iso={s.updated_at} /> by <span class="mono">{s.updated_by}</span>
                </>
              )}
              .
            </p>
            {Object.keys(s.severity_overrides).length > 0 && (
              <ul class="inline-list">
                {Object.entries(s.severity_overrides).map(([k, v]) => (
                  <li key={k}>
                    <span class="mono">{k}</span> → <Badge value={v} />
                  </li>
                ))}
              </ul>
            )}
            {draft && (
              <form onSubmit={(e) => void save(e, s)} class="stack">
                <fieldset disabled={!props.admin}>
                  <legend class="visually-hidden">Settings</legend>
                  <label for="st-disabled">Disabled policies (codes, comma separated)</label>
                  <input
                    id="st-disabled"
                    value={draft.disabled}
                    onInput={(e) => setDraft({ ...draft, disabled: e.currentTarget.value })}
                  />
                  <label for="st-overrides">Severity overrides (one CODE=severity per line)</label>
                  <textarea
                    id="st-overrides"
                    rows={4}
                    class="mono"
                    value={draft.overrides}
                    onInput={(e) => setDraft({ ...draft, overrides: e.currentTarget.value })}
                  />
                  <label for="st-params">Parameters (JSON, by policy code)</label>
                  <textarea
                    id="st-params"
                    rows={6}
                    class="mono"
                    value={draft.parameters}
                    onInput={(e) => setDraft({ ...draft, parameters: e.currentTarget.value })}
                  />
                  <button type="submit">Save settings</button>
                </fieldset>
              </form>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
