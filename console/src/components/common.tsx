/** @module console/components/common: small shared pieces: page heading, loading and error states, badges, dates. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/** The page's h1; takes focus after navigation so screen readers announce the new page. */
export function PageTitle(props: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {props.children}
    </h1>
  );
}

/** The state of an asynchronous load. */
export type Load<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly error: ApiError | Error }
  | { readonly state: 'ready'; readonly value: T };

/** Runs `fetcher` whenever `deps` change; `reload()` runs it again. */
export function useLoad<T>(fetcher: () => Promise<T>, deps: readonly unknown[]): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    fetcher().then(
      (value) => live && setLoad({ state: 'ready', value }),
      (error: unknown) =>
        live && setLoad({ state: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return [load, () => setTick((t) => t + 1)];
}

/** A refused or failed call, announced to screen readers. */
export function ErrorNote(props: { error: Error | null }) {
  if (props.error === null) return null;
  const text = props.error instanceof ApiError ? props.error.describe() : props.error.message;
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

/** Renders `load`: a status line while loading, the error, or `children(value)`. */
export function Loaded<T>(props: { load: Load<T>; children: (value: T) => ComponentChildren }) {
  if (props.load.state === 'loading')
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    );
  if (props.load.state === 'error') return <ErrorNote error={props.load.error} />;
  return <>{props.children(props.load.value)}</>;
}

/** A severity or badge chip (text, not colour alone). */
export function Badge(props: { value: string | null }) {
  const v = props.value ?? 'not_evaluated';
  return <span class={`badge badge-${v}`}>{v.replace('_', ' ')}</span>;
}

/** An ISO time as a readable local time in a `<time>` element. */
export function When(props: { iso: string | null | undefined }) {
  if (!props.iso) return <span class="muted">—</span>;
  const d = new Date(props.iso);
  return (
    <time dateTime={props.iso}>
      {Number.isNaN(d.getTime()) ? props.iso : d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

/** A text field whose value is copied with one button (secrets shown once). */
export function CopyField(props: { label: string; value: string; id: string }) {
  const [copied, setCopied] = useState<string>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('Copied');
    } catch {
      const el = document.getElementById(props.id) as HTMLInputElement | null;
      el?.select();
      setCopied('Selected: press Ctrl+C to copy');
    }
  };
  return (
    <div class="copy-field">
      <label for={props.id}>{props.label}</label>
      <div class="row">
        <input id={props.id} type="text" readOnly value={props.value} class="mono" spellcheck={false} />
        <button type="button" onClick={() => void copy()}>
          Copy<span class="visually-hidden"> {props.label}</span>
        </button>
        <span role="status" class="muted">
          {copied}
        </span>
      </div>
    </div>
  );
}
