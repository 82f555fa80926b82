/**
 * @module engine/rules/field-path: the field paths of custom rules, RFC 6901 JSON Pointers under a
 * module's `/mapper` or `/parameters` where a `*` segment stands for every array item or object
 * member. Paths are followed through own properties only; `__proto__`, `constructor` and
 * `prototype` are refused at validation and never followed.
 */
import type { Json, ModuleNode } from '../blueprint/types.js';
import { pointerToken } from '../errors.js';
import { RULE_LIMITS } from './types.js';

/** Segments a path may not name: they reach an object's prototype in JavaScript. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A parsed field path: its section and its unescaped segments (`*` = any). */
export interface FieldPath {
  readonly text: string;
  readonly section: 'mapper' | 'parameters';
  readonly segments: readonly string[];
}

/** One value a path reaches in a module, with its absolute JSON Pointer in the blueprint. */
export interface FieldValue {
  readonly pointer: string;
  readonly value: Json;
  /** The last segment's name (array items: the enclosing member's), for redaction of credential fields. */
  readonly name: string;
}

const WILDCARD = '*';
const INDEX = /^(?:0|[1-9]\d{0,8})$/;

/**
 * Parses a path (`/mapper/headers/* /value`, without the space). Returns the problem as text when
 * it is not a pointer under `/mapper` or `/parameters`, has more than 16 segments or is longer than
 * 200 characters, or names a forbidden segment.
 */
export function parseFieldPath(text: string): FieldPath | string {
  if (text.length > RULE_LIMITS.path) return `is longer than ${RULE_LIMITS.path} characters`;
  const tokens = text.split('/');
  if (tokens[0] !== '' || (tokens[1] !== 'mapper' && tokens[1] !== 'parameters'))
    return 'must be a JSON Pointer under /mapper or /parameters (`/mapper/url`)';
  if (tokens.length - 1 > RULE_LIMITS.pathSegments) return `has more than ${RULE_LIMITS.pathSegments} segments`;
  const segments: string[] = [];
  for (const token of tokens.slice(2)) {
    if (/~(?![01])/.test(token)) return 'has a `~` not followed by 0 or 1 (RFC 6901 escapes are ~0 and ~1)';
    const segment = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (FORBIDDEN_SEGMENTS.has(segment)) return `may not name \`${segment}\``;
    segments.push(segment);
  }
  return { text, section: tokens[1], segments };
}

/** Own member of an object or item of an array, never an inherited one. */
function own(value: Json, segment: string): Json | undefined {
  if (Array.isArray(value)) return INDEX.test(segment) ? value[Number(segment)] : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(value, segment) ? value[segment] : undefined;
}

/** The name of a member: for the `value` of a `{ name | key, value }` pair (a header, a query parameter) the pair's name. */
function pairName(object: Json, segment: string): string {
  if (segment !== 'value' || object === null || typeof object !== 'object' || Array.isArray(object)) return segment;
  const name = own(object, 'name') ?? own(object, 'key');
  return typeof name === 'string' ? name : segment;
}

/** The values a path reaches in a module, at most 256, in document order (none when the section is absent). */
export function resolveField(m: ModuleNode, path: FieldPath): FieldValue[] {
  const root = path.section === 'mapper' ? m.mapper : m.parameters;
  if (!root) return [];
  let level: FieldValue[] = [{ pointer: `${m.pointer}/${path.section}`, value: root, name: path.section }];
  for (const segment of path.segments) {
    const next: FieldValue[] = [];
    for (const at of level) {
      if (segment !== WILDCARD) {
        const value = own(at.value, segment);
        const name = Array.isArray(at.value) ? at.name : pairName(at.value, segment);
        if (value !== undefined) next.push({ pointer: `${at.pointer}/${pointerToken(segment)}`, value, name });
      } else if (Array.isArray(at.value)) {
        for (let i = 0; i < at.value.length && next.length < RULE_LIMITS.valuesPerPath; i++)
          next.push({ pointer: `${at.pointer}/${i}`, value: at.value[i]!, name: at.name });
      } else if (at.value !== null && typeof at.value === 'object') {
        for (const key of Object.keys(at.value)) {
          if (next.length >= RULE_LIMITS.valuesPerPath) break;
          if (!FORBIDDEN_SEGMENTS.has(key))
            next.push({ pointer: `${at.pointer}/${pointerToken(key)}`, value: at.value[key]!, name: key });
        }
      }
      if (next.length >= RULE_LIMITS.valuesPerPath) break;
    }
    level = next;
    if (level.length === 0) break;
  }
  return level;
}

/**
 * True when an absolute pointer of the module (`/flow/2/mapper/headers/0/value`) is at or under the
 * path (`/mapper/headers/* /value`, `/mapper`); used for the data-flow references of a field.
 */
export function pointerWithin(m: ModuleNode, pointer: string, path: FieldPath): boolean {
  const prefix = `${m.pointer}/${path.section}`;
  if (pointer !== prefix && !pointer.startsWith(`${prefix}/`)) return false;
  const rest = pointer.length === prefix.length ? [] : pointer.slice(prefix.length + 1).split('/');
  if (rest.length < path.segments.length) return false;
  return path.segments.every((s, i) => s === WILDCARD || s === rest[i]!.replace(/~1/g, '/').replace(/~0/g, '~'));
}
