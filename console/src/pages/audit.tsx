/** @module console/pages/audit: the organization's audit log (`GET /api/v1/audit`), newest first, paged by cursor. */
import { useState } from 'preact/hooks';
import { get } from '../api.js';
import type { AuditEntry } from '../types.js';
import { ErrorNote, Loaded, PageTitle, When, useLoad } from '../components/common.js';

/** Entries per page. */
const PAGE_SIZE = 50;

/** The audit log page. */
export function AuditPage() {
  const [first] = useLoad(
    () => get<{ entries: AuditEntry[]; next_cursor: string | null }>('/audit', { limit: PAGE_SIZE }),
    [],
  );
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<Error | null>(null);
  const loadMore = async (cursor: string) => {
    try {
      const page = await get<{ entries: AuditEntry[]; next_cursor: string | null }>('/audit', {
        limit: PAGE_SIZE,
        cursor,
      });
      setMore([...more, ...page.entries]);
      setNext(page.next_cursor);
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <p class="muted">Sign-ins, sign-outs and every change of keys, webhooks, waivers, settings, rules and users.</p>
      <ErrorNote error={error} />
      <Loaded load={first}>
        {(page) => {
          const entries = [...page.entries, ...more];
          const cursor = next === undefined ? page.next_cursor : next;
          return (
            <>
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Actor</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e, i) => (
                    <tr key={`${e.at}-${i}`}>
                      <th scope="row">
                        <When iso={e.at} />
                      </th>
                      <td class="mono">{e.actor}</td>
                      <td>{e.action}</td>
                      <td class="mono">{e.target ?? ''}</td>
                      <td class="mono small">
                        {e.detail === null || e.detail === undefined
                          ? ''
                          : typeof e.detail === 'string'
                            ? e.detail
                            : JSON.stringify(e.detail)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {entries.length === 0 && <p class="muted">No entries.</p>}
              {cursor && (
                <button type="button" onClick={() => void loadMore(cursor)}>
                  Load older entries
                </button>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}
