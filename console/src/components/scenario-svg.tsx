/**
 * @module console/components/scenario-svg: the scenario's picture (the `svg` string of
 * `GET /api/v1/scenarios/{id}`, drawn by the server's renderer with every text escaped) inserted as
 * markup. It is parsed as SVG and stripped of anything active (scripts, foreign objects, event
 * attributes, javascript: links) before insertion as defence in depth; the CSP would refuse inline
 * scripts anyway. Each `g.module[data-module-id]` is focusable; a click, Enter or Space selects it.
 */
import { useEffect, useRef } from 'preact/hooks';

/** Parses `markup` as SVG and returns a clean element, or null when it is not SVG. */
export function cleanSvg(markup: string): SVGSVGElement | null {
  const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length > 0) return null;
  for (const el of Array.from(root.querySelectorAll('script, foreignObject, iframe, object, embed'))) el.remove();
  for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || ((name === 'href' || name === 'xlink:href') && /^\s*javascript:/i.test(attr.value)))
        el.removeAttribute(attr.name);
    }
  }
  return document.importNode(root, true) as unknown as SVGSVGElement;
}

/**
 * The picture; `selected` is outlined; the modules of `highlighted` (an evidence path being looked
 * at) are marked `on-path`; `onSelect(moduleId)` on click, Enter or Space.
 */
export function ScenarioSvg(props: {
  svg: string;
  selected: string | null;
  highlighted?: readonly string[];
  onSelect: (moduleId: string) => void;
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;

  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    const svg = cleanSvg(props.svg);
    host.replaceChildren(...(svg ? [svg] : []));
    if (!svg) return;
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', props.label);
    for (const g of Array.from(svg.querySelectorAll<SVGGElement>('g.module[data-module-id]'))) {
      if (!g.hasAttribute('tabindex')) g.setAttribute('tabindex', '0');
      if (!g.hasAttribute('role')) g.setAttribute('role', 'button');
      if (!g.hasAttribute('aria-label')) {
        const title = g.querySelector('title')?.textContent;
        g.setAttribute('aria-label', `Module ${g.dataset['moduleId'] ?? ''}${title ? `: ${title}` : ''}`);
      }
    }
  }, [props.svg, props.label]);

  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    for (const g of Array.from(host.querySelectorAll<SVGGElement>('g.module[data-module-id]'))) {
      const on = g.dataset['moduleId'] === props.selected;
      g.classList.toggle('selected', on);
      g.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  }, [props.selected, props.svg]);

  const highlighted = (props.highlighted ?? []).join(' ');
  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    const on = new Set(highlighted === '' ? [] : highlighted.split(' '));
    for (const g of Array.from(host.querySelectorAll<SVGGElement>('g.module[data-module-id]')))
      g.classList.toggle('on-path', on.has(g.dataset['moduleId'] ?? ''));
  }, [highlighted, props.svg]);

  const target = (e: Event): string | null => {
    const el = e.target instanceof Element ? e.target.closest('g.module[data-module-id]') : null;
    return el instanceof SVGGElement ? (el.dataset['moduleId'] ?? null) : null;
  };
  return (
    <div
      ref={ref}
      class="scenario-svg"
      onClick={(e) => {
        const id = target(e);
        if (id !== null) onSelect.current(id);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        const id = target(e);
        if (id === null) return;
        e.preventDefault();
        onSelect.current(id);
      }}
    />
  );
}
