/** @module console/components/link: an in-app link (a real `<a href>`, so it works with the keyboard, new tabs and screen readers). */
import type { ComponentChildren } from 'preact';
import { BASE, onLinkClick } from '../router.js';

/** A link to a console path such as `scenarios/42`. */
export function Link(props: { to: string; children: ComponentChildren; current?: boolean; class?: string }) {
  return (
    <a
      href={`${BASE}${props.to}`}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => onLinkClick(e, props.to)}
    >
      {props.children}
    </a>
  );
}
