/** @module render/palette: colours and labels of the scenario picture (tables, never computed per call but the app hue). */
import type { Severity } from '../engine/index.js';

/**
 * Badge fill and text label per severity. Fills are Tailwind's 700/800 shades, each at least 4.5:1
 * against the white label text (WCAG 2.1 AA 1.4.3); the label is there so colour is never the only
 * cue (WCAG 1.4.1).
 */
export const SEVERITY_BADGE: Readonly<Record<Severity, { readonly fill: string; readonly label: string }>> = {
  critical: { fill: '#991b1b', label: 'CRITICAL' },
  high: { fill: '#c2410c', label: 'HIGH' },
  medium: { fill: '#a16207', label: 'MEDIUM' },
  low: { fill: '#1d4ed8', label: 'LOW' },
  info: { fill: '#4b5563', label: 'INFO' },
};

/** The ring of a module with a failing (`fail`) finding, and of one whose findings are all waived. */
export const RING = { failing: '#dc2626', waived: '#6b7280' } as const;

/** Link strokes: flow and route links solid, error-handler links dashed (as Make draws them). */
export const LINK = { stroke: '#9ca3af', error: '#dc2626', filterFill: '#fef3c7', filterStroke: '#d97706' } as const;

/**
 * A stable colour per app (`http`, `google-sheets`): FNV-1a (32-bit) of the app name picks the hue,
 * saturation and lightness are fixed so white initials stay readable. Same app, same colour, in every
 * picture and every run.
 */
export function appColour(app: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < app.length; i++) {
    h ^= app.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `hsl(${h % 360}, 55%, 38%)`;
}
