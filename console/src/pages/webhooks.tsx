/** @module console/pages/webhooks: webhook endpoints, their recent deliveries and redelivery; changes for admins. */
import { useState } from 'preact/hooks';
import { get, send } from '../api.js';
import { isAdmin } from '../session.js';
import type { Delivery, SessionUser, Webhook, WebhookList } from '../types.js';
import { CopyField, ErrorNote, Loaded, PageTitle, When, useLoad } from '../components/common.js';
import { Confirm } from '../components/confirm.js';

/** Events an endpoint can subscribe to (docs/api.md "Webhooks"). */
const EVENTS = ['evaluation.complete', 'waiver.expiring'] as const;

/** The webhooks page. */
export function WebhooksPage(props: { user: SessionUser }) {
  const admin = isAdmin(props.user);
  const [load, reload] = useLoad(() => get<WebhookList>('/webhooks').then((d) => d.webhooks), []);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['evaluation.complete']);
  const [description, setDescription] = useState('');

  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const w = await send<Webhook & { secret: string }>('POST', '/webhooks', {
        body: { url, events, ...(description ? { description } : {}) },
      });
      setSecret(w.secret);
      setUrl('');
      setDescription('');
      reload();
    } catch (err) {
      setError(err as Error);
    }
  };

  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <ErrorNote error={error} />
      {secret && (
        <section class="secret-panel" aria-labelledby="wh-secret-title">
          <h2 id="wh-secret-title">Endpoint registered: copy its signing secret now</h2>
          <p class="warning" role="alert">
            The secret is shown only once. Your receiver uses it to verify the{' '}
            <span class="mono">webhook-signature</span> header.
          </p>
          <CopyField id="wh-secret" label="Webhook signing secret" value={secret} />
          <button type="button" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </section>
      )}
      <section aria-labelledby="wh-list-title">
        <h2 id="wh-list-title">Endpoints</h2>
        <Loaded load={load}>
          {(hooks) =>
            hooks.length === 0 ? (
              <p class="muted">No endpoints.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {hooks.map((w) => (
                    <tr key={w.webhook_id}>
                      <th scope="row" class="mono">
                        {w.url}
                        {w.description && <div class="muted">{w.description}</div>}
                      </th>
                      <td>{w.events.join(', ')}</td>
                      <td>
                        {w.status}
                        {w.disabled_reason && <div class="muted">{w.disabled_reason}</div>}
                      </td>
                      <td>
                        <When iso={w.created_at} />
                      </td>
                      <td class="actions">
                        <button
                          type="button"
                          aria-expanded={open === w.webhook_id}
                          onClick={() => setOpen(open === w.webhook_id ? null : w.webhook_id)}
                        >
                          Deliveries
                        </button>
                        {admin && (
                          <button type="button" class="danger" onClick={() => setRemoving(w)}>
                            Delete
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
      </section>
      {open && <Deliveries webhookId={open} admin={admin} onError={setError} />}
      <section aria-labelledby="wh-new-title">
        <h2 id="wh-new-title">Register an endpoint</h2>
        {!admin && <p class="notice">Registering and deleting endpoints needs the admin role.</p>}
        <form onSubmit={(e) => void create(e)} class="stack">
          <fieldset disabled={!admin}>
            <legend class="visually-hidden">New endpoint</legend>
            <label for="wh-url">HTTPS URL</label>
            <input
              id="wh-url"
              type="url"
              required
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
              placeholder="https://example.com/hooks/governance"
            />
            <fieldset>
              <legend>Events</legend>
              {EVENTS.map((ev) => (
                <label key={ev} class="check">
                  <input
                    type="checkbox"
                    checked={events.includes(ev)}
                    onChange={(e) =>
                      setEvents(e.currentTarget.checked ? [...events, ev] : events.filter((x) => x !== ev))
                    }
                  />{' '}
                  {ev}
                </label>
              ))}
            </fieldset>
            <label for="wh-desc">Description (optional)</label>
            <input id="wh-desc" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
            <button type="submit" disabled={events.length === 0}>
              Register endpoint
            </button>
          </fieldset>
        </form>
      </section>
      {removing && (
        <Confirm
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          onClose={(yes) => {
            const w = removing;
            setRemoving(null);
            if (!yes) return;
            send('DELETE', `/webhooks/${encodeURIComponent(w.webhook_id)}`).then(reload, (err: Error) => setError(err));
          }}
        >
          <p>
            <span class="mono">{removing.url}</span> receives nothing more; its pending deliveries are dropped.
          </p>
        </Confirm>
      )}
    </>
  );
}

/** Recent deliveries of one endpoint, with redelivery for admins. */
function Deliveries(props: { webhookId: string; admin: boolean; onError: (e: Error) => void }) {
  const id = encodeURIComponent(props.webhookId);
  const [load, reload] = useLoad(
    () => get<{ deliveries: Delivery[] }>(`/webhooks/${id}/deliveries`).then((d) => d.deliveries),
    [id],
  );
  const [queued, setQueued] = useState('');
  const redeliver = (d: Delivery) =>
    send('POST', `/webhooks/${id}/deliveries/${encodeURIComponent(d.delivery_id)}/redeliver`).then(
      () => {
        setQueued(`Delivery ${d.delivery_id} queued again.`);
        reload();
      },
      (err: Error) => props.onError(err),
    );
  return (
    <section aria-labelledby="deliveries-title" class="panel">
      <h2 id="deliveries-title">Recent deliveries</h2>
      <p role="status" class="muted">
        {queued}
      </p>
      <Loaded load={load}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No deliveries yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Delivery</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last attempt</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((d) => {
                  const last = d.attempts[d.attempts.length - 1];
                  return (
                    <tr key={d.delivery_id}>
                      <th scope="row" class="mono">
                        {d.delivery_id}
                        <div class="muted">{d.event ?? d.type}</div>
                      </th>
                      <td>{d.status}</td>
                      <td>{d.attempts.length}</td>
                      <td>
                        {last ? (
                          <>
                            <When iso={last.at} /> {last.status_code ?? ''}{' '}
                            <span class="muted">{last.error ?? ''}</span>
                          </>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td>
                        {props.admin && (
                          <button type="button" onClick={() => void redeliver(d)}>
                            Redeliver<span class="visually-hidden"> {d.delivery_id}</span>
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </section>
  );
}
