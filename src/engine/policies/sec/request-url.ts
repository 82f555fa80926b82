/**
 * @module engine/policies/sec/request-url: which part of an HTTP module's URL a mapping chooses, and
 * which AI modules wrote the text that chooses it (SEC-6, and AI-2's "its output becomes an address
 * the scenario requests"). Sources: RFC 3986 §3.2 (authority), OWASP SSRF Prevention Cheat Sheet
 * (allow-list the host, never the path), Make documentation, HTTP app (the `url` of *Make a request*
 * is mapped like any other field).
 */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { DataFlow } from '../../dataflow.js';
import type { FieldRef } from '../../blueprint/expressions.js';
import { classify, moduleUrl } from '../../blueprint/classify.js';
import { extractRefs } from '../../blueprint/expressions.js';

/** Where a mapped value sits in a URL template, and so what it lets its author choose. */
export type UrlPart = 'whole URL' | 'host';

/**
 * Output fields an AI app fills with a URL it issued itself (`images[].url` of a generated image,
 * `data[].url`, `audio_url`): a file on the provider's storage, not text the model wrote.
 */
const PROVIDER_URL_FIELD = /(?:^|[._])(?:url|uri|href)$|[a-z](?:Url|Uri)$/;

/**
 * Index where the host of a URL template is fixed: the first `/`, `?` or `#` outside `{{ }}` that
 * follows the authority (`scheme://` is skipped), or the length when none does. Anything mapped
 * before that point can add `@evil.example/` or `evil.example/#` and so chooses the host
 * (RFC 3986 §3.2). Linear scan.
 */
export function hostEnd(url: string): number {
  let depth = 0;
  for (let i = 0; i < url.length; i++) {
    if (url.startsWith('{{', i)) {
      depth++;
      i++;
      continue;
    }
    if (depth > 0) {
      if (url.startsWith('}}', i)) {
        depth--;
        i++;
      }
      continue;
    }
    if (url.startsWith('://', i)) {
      i += 2;
      continue;
    }
    const c = url[i];
    if (c === '/' || c === '?' || c === '#') return i;
  }
  return url.length;
}

/** What the first mapping of a URL template chooses: the whole URL, the host, or nothing (`null`: path or query on a fixed host). */
export function mappedUrlPart(url: string): UrlPart | null {
  const open = url.indexOf('{{');
  if (open < 0 || open >= hostEnd(url)) return null;
  return url.slice(0, open).trim() === '' ? 'whole URL' : 'host';
}

/** The `url` an HTTP module calls and its JSON Pointer (mapper first, as `moduleUrl` reads it), or `null`. */
export function urlField(m: ModuleNode): { value: string; pointer: string } | null {
  const value = moduleUrl(m);
  if (value === null) return null;
  return { value, pointer: `${m.pointer}/${typeof m.mapper?.['url'] === 'string' ? 'mapper' : 'parameters'}/url` };
}

/** The references of an HTTP module's URL that choose its host or whole value (before the host is fixed); empty when none does. */
export function hostRefs(m: ModuleNode): FieldRef[] {
  if (!classify(m).http) return [];
  const leaf = urlField(m);
  if (!leaf || !mappedUrlPart(leaf.value)) return [];
  return extractRefs(leaf.value.slice(0, hostEnd(leaf.value)));
}

/**
 * The AI modules whose *written text* reaches reference `from`, walking back through transforms
 * (JSON parsers, variables, text tools); empty when the value is not model-written (for example a
 * provider-issued file URL). Iterative; each module is visited once.
 */
export function modelAuthors(analysis: Analysis, df: DataFlow, from: FieldRef): string[] {
  const authors: string[] = [];
  const seen = new Set<string>();
  const stack: FieldRef[] = [from];
  while (stack.length > 0) {
    const r = stack.pop()!;
    const m = analysis.graph.byId.get(r.moduleId);
    if (!m || !df.isAiDerived(m.id)) continue;
    // An AI module is judged per referenced field (its text, or a file URL it issued); transforms are walked once.
    if (classify(m).ai) {
      if (!PROVIDER_URL_FIELD.test(r.path.replace(/\[\]/g, '')) && !authors.includes(m.id)) authors.push(m.id);
      continue;
    }
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    stack.push(...df.refsOf(m.id));
  }
  return authors;
}
