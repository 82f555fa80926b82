/**
 * @module render/svg: a scenario drawn as a picture (issue 18): one self-contained SVG string,
 * modules as Make draws them (round icons coloured by app, app and module name below), links with
 * their filter labels, each module's worst badge and failing or waived mark. No script, no event
 * handler, no external reference and no `<style>` element or `style` attribute (presentation
 * attributes only), so it embeds under a `default-src 'self'` CSP; hooks for the console's own
 * script are `data-module-id` and focusable `role="button"` groups.
 */
import type { GraphEdge, ModuleFilter, ModuleNode, ScenarioGraph } from '../engine/index.js';
import type { ModuleMark, RenderViolation } from './marks.js';
import type { Point } from './layout.js';
import { humanizeModuleType } from '../engine/index.js';
import { escapeXml as esc, num, shorten } from './escape.js';
import { layoutScenario, MODULE_RADIUS as R } from './layout.js';
import { moduleMarks } from './marks.js';
import { appColour, LINK, RING, SEVERITY_BADGE } from './palette.js';

export type { RenderViolation } from './marks.js';

/** Options of `renderScenarioSvg`. */
export interface RenderOptions {
  /**
   * Prefix of the ids inside the SVG (`<prefix>-title`, `<prefix>-desc`), so that several pictures
   * can share one page. Characters other than `A-Z a-z 0-9 _ -` become `_`. Default `scenario`.
   */
  readonly idPrefix?: string;
  /**
   * `auto` (default): the export's canvas positions when usable (see `layoutScenario`), else a
   * computed layout; `computed`: always computed.
   */
  readonly layout?: 'auto' | 'computed';
}

/** Label lines under a circle: at most this many characters (the full text is in the module's `<title>`). */
const LABEL_CHARS = 26;
/** Filter tags on links: at most this many characters. */
const FILTER_CHARS = 16;
/** Width of one character at font size 11, rounded up (for the viewBox, which must contain every label). */
const CHAR_WIDTH = 6.6;
/** Margin around the drawing, in user units. */
const MARGIN = 16;
/** Tooltip line of a module not connected to the flow (`metadata.designer.orphans`). */
const ORPHAN_NOTE = 'not connected to the flow: Make skips it';
/** Reasons listed in a module's tooltip; the rest are counted. */
const TOOLTIP_REASONS = 6;

/**
 * Draws `graph` with the marks `violations` give its modules (`moduleMarks`): the same input gives
 * the same bytes. Module names come from tenants: every text and attribute is escaped.
 * @param graph the parsed scenario (`parseBlueprint(json).graph`).
 * @param violations the engine's, the stored results' or the scanner's violations; a waived finding
 *   (`waived` set on it or on its violation) marks its module waived, and counts in no badge.
 * @returns an `<svg>` element as a string, sized at scale 1 (1 user unit = 1 px), `viewBox`
 *   containing every module, label, badge and filter tag.
 */
export function renderScenarioSvg(
  graph: ScenarioGraph,
  violations: readonly RenderViolation[],
  options: RenderOptions = {},
): string {
  const prefix = (options.idPrefix ?? 'scenario').replace(/[^A-Za-z0-9_-]/g, '_');
  const layout = layoutScenario(graph, options.layout ?? 'auto');
  const marks = moduleMarks(violations);
  const box = new Bounds();
  const links: string[] = [];
  const tags: string[] = [];
  for (const edge of graph.edges) {
    const from = layout.centres.get(edge.from);
    const to = layout.centres.get(edge.to);
    const target = graph.byId.get(edge.to);
    if (!from || !to || !target) continue;
    links.push(link(edge, from, to, disabledFlow(graph, edge)));
    // A branch link carries its branch's condition (Make draws it there), other links their target's filter.
    const condition =
      edge.kind === 'branch' && edge.routeIndex !== undefined
        ? graph.byId.get(edge.from)?.branches[edge.routeIndex]?.condition
        : undefined;
    const filter = condition ?? (edge.kind === 'merge' ? null : target.filter);
    if (filter) tags.push(filterTag(target.id, filter, from, to, box));
  }
  const modules = graph.modules.map((m) => moduleGroup(m, layout.centres.get(m.id)!, marks.get(m.id), box));
  if (graph.modules.length === 0) box.add(0, 0, 240, 40);
  const [x, y, w, h] = box.viewBox();
  const flagged = graph.modules.filter((m) => marks.get(m.id)?.failing).length;
  const title = `Scenario ${graph.name}: ${graph.modules.length} modules, ${flagged} failing`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="scenario" role="group" aria-labelledby="${prefix}-title" aria-describedby="${prefix}-desc"`,
    ` viewBox="${num(x)} ${num(y)} ${num(w)} ${num(h)}" width="${num(w)}" height="${num(h)}" font-family="system-ui, sans-serif">`,
    `<title id="${prefix}-title">${esc(title)}</title>`,
    `<desc id="${prefix}-desc">${esc(describe(layout.source))}</desc>`,
    graph.modules.length === 0 ? `<text x="120" y="24" text-anchor="middle" font-size="13">No modules</text>` : '',
    `<g class="links" fill="none">${links.join('')}</g>`,
    `<g class="filters">${tags.join('')}</g>`,
    `<g class="modules">${modules.join('')}</g>`,
    '</svg>',
  ].join('\n');
}

function describe(source: 'canvas' | 'computed'): string {
  return `Modules as circles coloured by app, ${source === 'canvas' ? "placed as on the scenario's canvas" : 'flow left to right, router routes and if/else branches one row each, error handlers and agent tools below, modules not connected to the flow at the bottom'}; each module's worst finding as a badge, failing modules ringed in red, waived ones in dashed grey, modules not connected to the flow faded.`;
}

/** Bounding box of what is drawn. */
class Bounds {
  private x0 = Infinity;
  private y0 = Infinity;
  private x1 = -Infinity;
  private y1 = -Infinity;
  add(x0: number, y0: number, x1: number, y1: number): void {
    this.x0 = Math.min(this.x0, x0);
    this.y0 = Math.min(this.y0, y0);
    this.x1 = Math.max(this.x1, x1);
    this.y1 = Math.max(this.y1, y1);
  }
  viewBox(): [number, number, number, number] {
    const x = Math.floor(this.x0 - MARGIN);
    const y = Math.floor(this.y0 - MARGIN);
    return [x, y, Math.ceil(this.x1 + MARGIN) - x, Math.ceil(this.y1 + MARGIN) - y];
  }
}

/** True for a link into a disabled router route or if/else branch. */
function disabledFlow(graph: ScenarioGraph, edge: GraphEdge): boolean {
  if (edge.routeIndex === undefined) return false;
  const from = graph.byId.get(edge.from);
  if (edge.kind === 'route') return from?.routes[edge.routeIndex]?.disabled === true;
  if (edge.kind === 'branch') return from?.branches[edge.routeIndex]?.disabled === true;
  return false;
}

/**
 * A link as a cubic curve: horizontal tangents for flow, route, branch and merge links, vertical ones
 * for error and tool links (both hang below their module); error links red and dashed, tool links dotted.
 */
function link(edge: GraphEdge, a: Point, b: Point, disabled: boolean): string {
  const below = edge.kind === 'error' || edge.kind === 'tool';
  const d = below
    ? `M${num(a.x)} ${num(a.y)}C${num(a.x)} ${num((a.y + b.y) / 2)} ${num(b.x)} ${num((a.y + b.y) / 2)} ${num(b.x)} ${num(b.y)}`
    : `M${num(a.x)} ${num(a.y)}C${num((a.x + b.x) / 2)} ${num(a.y)} ${num((a.x + b.x) / 2)} ${num(b.y)} ${num(b.x)} ${num(b.y)}`;
  const route = edge.routeIndex !== undefined ? ` data-route="${edge.routeIndex}"` : '';
  const look =
    edge.kind === 'error'
      ? `stroke="${LINK.error}" stroke-width="2" stroke-dasharray="6 4"`
      : edge.kind === 'tool'
        ? `stroke="${LINK.stroke}" stroke-width="2" stroke-dasharray="1 4" stroke-linecap="round"`
        : `stroke="${LINK.stroke}" stroke-width="2"${disabled ? ' stroke-dasharray="2 4" opacity="0.5"' : ''}`;
  return `<path class="link ${edge.kind}${disabled ? ' disabled' : ''}" data-from="${esc(edge.from)}" data-to="${esc(edge.to)}"${route} d="${d}" ${look}/>`;
}

/** A filter's (or branch condition's) name on its link, a tag at the curve's midpoint (which, for these curves, is the chord's). */
function filterTag(targetId: string, filter: ModuleFilter, a: Point, b: Point, box: Bounds): string {
  const name = filter.name.trim() || 'filter';
  const text = shorten(name, FILTER_CHARS);
  const w = Array.from(text).length * 6 + 12;
  const cx = (a.x + b.x) / 2;
  const cy = (a.y + b.y) / 2;
  box.add(cx - w / 2, cy - 9, cx + w / 2, cy + 9);
  const groups = filter.conditions.length;
  return (
    `<g class="filter" data-to="${esc(targetId)}"><title>${esc(`Filter: ${name} (${groups} condition group${groups === 1 ? '' : 's'})`)}</title>` +
    `<rect x="${num(cx - w / 2)}" y="${num(cy - 8)}" width="${num(w)}" height="16" rx="4" fill="${LINK.filterFill}" stroke="${LINK.filterStroke}"/>` +
    `<text x="${num(cx)}" y="${num(cy + 3.5)}" text-anchor="middle" font-size="10" fill="#78350f">${esc(text)}</text></g>`
  );
}

/** App and module name as shown under the circle: the app's display name, then the label or the action. */
function names(m: ModuleNode): { app: string; name: string } {
  const [app = m.app, action = m.action] = humanizeModuleType(m.type).split(' · ');
  return { app, name: m.label ?? action };
}

/**
 * `HIGH, 2 findings, failing` / `waived findings only (1)` / `no findings`: in the order the pill and
 * the count are drawn, so the accessible name holds the drawn words in sequence (WCAG 2.5.3).
 */
function markText(mark: ModuleMark | undefined): string {
  if (!mark || (mark.findings === 0 && mark.waived === 0)) return 'no findings';
  if (mark.badge === null) return `waived findings only (${mark.waived})`;
  const count = `${mark.findings} finding${mark.findings === 1 ? '' : 's'}`;
  const waived = mark.waived > 0 ? `, ${mark.waived} waived` : '';
  return `${SEVERITY_BADGE[mark.badge].label}, ${count}, ${mark.failing ? 'failing' : 'warning only'}${waived}`;
}

function moduleGroup(m: ModuleNode, c: Point, mark: ModuleMark | undefined, box: Bounds): string {
  const { app, name } = names(m);
  const appLine = shorten(app, LABEL_CHARS);
  const nameLine = shorten(name, LABEL_CHARS);
  const half = Math.max(R + 8, (Math.max(Array.from(appLine).length, Array.from(nameLine).length) * CHAR_WIDTH) / 2);
  const status = markText(mark);
  const waivedOnly = mark !== undefined && mark.badge === null && mark.waived > 0;
  const orphan = m.container === 'orphan';
  const classes = [
    'module',
    ...(mark?.failing ? ['failing'] : []),
    ...(waivedOnly ? ['waived'] : []),
    ...(orphan ? ['orphan'] : []),
  ].join(' ');
  const tooltip = [
    `${app} · ${name} (module ${m.id})`,
    ...(orphan ? [ORPHAN_NOTE] : []),
    status,
    ...(mark?.reasons ?? []).slice(0, TOOLTIP_REASONS),
  ];
  if (mark && mark.reasons.length > TOOLTIP_REASONS)
    tooltip.push(`… and ${mark.reasons.length - TOOLTIP_REASONS} more`);
  const parts: string[] = [`<title>${esc(tooltip.map((t) => shorten(t, 200)).join('\n'))}</title>`];
  if (mark?.failing)
    parts.push(
      `<circle class="ring failing" cx="${num(c.x)}" cy="${num(c.y)}" r="${R + 5}" fill="none" stroke="${RING.failing}" stroke-width="4"/>`,
    );
  else if (waivedOnly)
    parts.push(
      `<circle class="ring waived" cx="${num(c.x)}" cy="${num(c.y)}" r="${R + 5}" fill="none" stroke="${RING.waived}" stroke-width="2" stroke-dasharray="4 3"/>`,
    );
  parts.push(
    `<circle class="icon" cx="${num(c.x)}" cy="${num(c.y)}" r="${R}" fill="${appColour(m.app)}" stroke="#ffffff" stroke-width="2"/>`,
    `<text class="app" x="${num(c.x)}" y="${num(c.y + R + 18)}" text-anchor="middle" font-size="11" fill="#4b5563">${esc(appLine)}</text>`,
    `<text class="name" x="${num(c.x)}" y="${num(c.y + R + 32)}" text-anchor="middle" font-size="11" font-weight="600" fill="#111827">${esc(nameLine)}</text>`,
  );
  box.add(c.x - half, c.y - R - 18, c.x + half, c.y + R + 38);
  const pill = mark?.badge ? SEVERITY_BADGE[mark.badge] : waivedOnly ? { fill: RING.waived, label: 'WAIVED' } : null;
  if (pill) {
    const w = pill.label.length * 6.2 + 10;
    const x = c.x + R * 0.4;
    const y = c.y - R - 16;
    parts.push(
      `<g class="badge" data-severity="${mark?.badge ?? 'waived'}"><rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="16" rx="8" fill="${pill.fill}"/>` +
        `<text x="${num(x + w / 2)}" y="${num(y + 11.5)}" text-anchor="middle" font-size="9.5" font-weight="700" fill="#ffffff">${pill.label}</text></g>`,
    );
    box.add(x, y, x + w, y + 16);
  }
  if (mark && mark.findings > 0) {
    const x = c.x + R * 0.8;
    const y = c.y + R * 0.8;
    parts.push(
      `<g class="count"><circle cx="${num(x)}" cy="${num(y)}" r="10" fill="${mark.failing ? RING.failing : '#4b5563'}" stroke="#ffffff" stroke-width="1.5"/>` +
        `<text x="${num(x)}" y="${num(y + 3.5)}" text-anchor="middle" font-size="10" font-weight="700" fill="#ffffff">${mark.findings}</text></g>`,
    );
  }
  const badge = mark?.badge ? ` data-badge="${mark.badge}"` : waivedOnly ? ' data-badge="waived"' : '';
  // The accessible name starts with the drawn words in their order (app line, name line, then the
  // pill and the count, which markText repeats): WCAG 2.5.3 "Label in Name". A shortened line is
  // followed by the full names.
  const shortened = appLine !== app || nameLine !== name;
  const label = `${appLine} ${nameLine}: ${status}${shortened ? ` (${app} · ${name})` : ''}`;
  const faded = orphan ? ' opacity="0.55"' : '';
  return `<g class="${classes}" data-module-id="${esc(m.id)}"${badge}${faded} tabindex="0" role="button" aria-label="${esc(label)}">${parts.join(' ')}</g>`;
}
