/** @module console/components/confirm: a modal confirmation (native `<dialog>`: focus trapping and Escape come with it). */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** Asks before a destructive change; `onClose(true)` when confirmed. */
export function Confirm(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onClose: (confirmed: boolean) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onCancel={() => props.onClose(false)}>
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="row">
        <button type="button" class="danger" onClick={() => props.onClose(true)}>
          {props.confirmLabel}
        </button>
        <button type="button" onClick={() => props.onClose(false)} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
