/**
 * @module cli/scan/governance-files: `gov scan --rules FILE` and `--settings FILE` (issue 17): the
 * organization's custom rules and settings, offline, exactly as the service applies them. Each file
 * may be what the API returns (`data` of `GET /governance/rules` or `GET /governance/settings`, with
 * or without the `{ ok, data }` envelope) or a hand-written body; both are validated by the same
 * engine functions as the API's `POST` and `PUT`.
 */
import { readFileSync } from 'node:fs';
import type { GovernanceSettingsBody } from '../../model/records.js';
import type { Policy } from '../../engine/index.js';
import { POLICIES } from '../../engine/index.js';
import { compileRule, validateRule } from '../../engine/rules/index.js';
import { validateSettings } from '../../engine/governance/settings.js';

/** An unusable rules or settings file (exit code 2). */
export class GovernanceFileError extends Error {
  override readonly name = 'GovernanceFileError';
}

/** Members the API adds to a rule body (`ruleView`), dropped before validation. */
const RULE_METADATA = ['code', 'revision', 'created_at', 'created_by', 'deleted_at'];
/** Members the API adds to settings (`settingsView`), dropped before validation. */
const SETTINGS_METADATA = ['version', 'updated_at', 'updated_by'];

function readJson(path: string, what: string): unknown {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    // The API's envelope, as saved from a response.
    const p = parsed as { ok?: unknown; data?: unknown } | null;
    return p !== null && typeof p === 'object' && p.ok === true && 'data' in p ? p.data : parsed;
  } catch (err) {
    throw new GovernanceFileError(`${what} ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Reads custom rules: an array of rules, or `{ "rules": [...] }`. A rule with a `code` (`ORG-<n>`,
 * as the API lists them) keeps it, so findings carry the service's codes; the others are numbered
 * after the highest code in the file. @throws GovernanceFileError naming the rule and the field.
 */
export function readRules(path: string): Policy[] {
  const parsed = readJson(path, 'rules');
  const list: unknown = Array.isArray(parsed) ? parsed : (parsed as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(list))
    throw new GovernanceFileError(`rules ${path}: expected an array of rules or { "rules": [...] }`);
  const items = list as readonly unknown[];
  const codes = items.map((r) => (r as { code?: unknown } | null)?.code);
  let next = Math.max(0, ...codes.map((c) => (typeof c === 'string' && /^ORG-\d+$/.test(c) ? Number(c.slice(4)) : 0)));
  const seen = new Set<string>();
  return items.map((raw, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new GovernanceFileError(`rules ${path}: /${i} must be an object`);
    const given = codes[i];
    if (given !== undefined && (typeof given !== 'string' || !/^ORG-\d{1,6}$/.test(given)))
      throw new GovernanceFileError(`rules ${path}: /${i}/code must look like ORG-1`);
    const code = typeof given === 'string' ? given : `ORG-${++next}`;
    if (seen.has(code)) throw new GovernanceFileError(`rules ${path}: /${i}/code ${code} appears twice`);
    seen.add(code);
    const body = Object.fromEntries(Object.entries(raw).filter(([k]) => !RULE_METADATA.includes(k)));
    const checked = validateRule(body);
    if (!checked.ok)
      throw new GovernanceFileError(
        `rules ${path}: ${code}: ${checked.detail.map((d) => `/${i}${d.path === '/' ? '' : d.path} ${d.message}`).join('; ')}`,
      );
    return compileRule(code, checked.rule);
  });
}

/** Reads settings; `rules` are the custom rules in use (their codes may be disabled or overridden). @throws GovernanceFileError. */
export function readSettings(path: string, rules: readonly Policy[]): GovernanceSettingsBody {
  const parsed = readJson(path, 'settings');
  const body =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? Object.fromEntries(Object.entries(parsed).filter(([k]) => !SETTINGS_METADATA.includes(k)))
      : parsed;
  const known = new Set([...POLICIES.map((p) => p.code), ...rules.map((r) => r.code)]);
  const checked = validateSettings(body, known);
  if (!checked.ok)
    throw new GovernanceFileError(
      `settings ${path}: ${checked.detail.map((d) => `${d.path} ${d.message}`).join('; ')}`,
    );
  return checked.settings;
}
