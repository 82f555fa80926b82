/**
 * @module engine/policies/sec/SEC-11: a module of an app or type the organization has not approved
 * (issue 17: `allowed_apps`, `denied_apps`). Sources: Make apps documentation (module names
 * `app:Action`, custom apps `app#<name>-<id>:<action>`), corpus FORMAT.md; SOC 2 CC9.2 vendor risk,
 * ISO/IEC 27001 A.5.23 (cloud services), NIST SP 800-53 SA-9 (external system services).
 */
import type { ModuleNode } from '../../blueprint/types.js';
import type { Finding, Policy, StringListParameter } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { failWith, findingModules, moduleRef } from '../helpers.js';
import { paramValue } from '../params.js';
import { TRANSFORM_APPS } from '../../blueprint/classify.js';

/** An entry: an app name (`google-sheets`, `app#courageousteams-614494`) or an exact module type (`http:ActionSendData`). */
export const APP_ENTRY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._#-]{0,127}(:[A-Za-z0-9._-]{1,128})?$';

const listParameter = (name: string, description: string): StringListParameter => ({
  name,
  type: 'string-list',
  description,
  default: [],
  maxItems: 500,
  itemPattern: APP_ENTRY_PATTERN,
  itemMaxLength: 257,
});

/** `allowed_apps` (issue 17): when non-empty, only these apps and module types may be used (Make tools excepted). */
export const ALLOWED_APPS = listParameter(
  'allowed_apps',
  "Apps (`google-sheets`) or exact module types (`http:ActionSendData`) scenarios may use. When non-empty, a module that matches no entry fails, except Make's built-in tools (the `builtin` router, iterator, aggregator, repeater and directives, empty slots, and the `util`, `json`, `regexp`, `text`, `math`, `csv`, `xml`, `markdown`, `html`, `iml`, `tools`, `archive`, `compress` and `flow-control` apps). Webhooks (`gateway`), data stores, `scenario-service`, `make` and `http` must be listed. Empty: every app is allowed.",
);

/** `denied_apps` (issue 17): apps and module types that must not be used, Make tools included. */
export const DENIED_APPS = listParameter(
  'denied_apps',
  'Apps or exact module types scenarios must not use; a module that matches an entry fails, whatever `allowed_apps` says, Make tools included.',
);

/**
 * Make's built-in tools, exempt from `allowed_apps` (they neither leave the platform nor keep data):
 * flow control (`builtin:BasicRouter`, `BasicFeeder`, `BasicAggregator`, directives), the tool apps
 * (`util`, `json`, `regexp`, `text`, `math`, `csv`, `xml`, `markdown`, `html`, `iml`, `archive`,
 * `compress`, `tools`, `flow-control`) and empty slots (`placeholder`). Not exempt: webhooks
 * (`gateway`: a public entry point), data stores (`datastore`: keep data), `scenario-service` and the
 * Make app (`make`: act on other scenarios and the organization), HTTP and every third-party app.
 */
export const TOOL_APPS: ReadonlySet<string> = new Set([...TRANSFORM_APPS, 'builtin', 'flow-control', 'placeholder']);

/** True when `entry` names the module: its exact type when the entry has a `:`, else its app (case-insensitive; `app#<name>-<id>` or `<name>` for a custom app). */
export function appEntryMatches(entry: string, m: ModuleNode): boolean {
  if (entry.includes(':')) return entry === m.type;
  const e = entry.toLowerCase();
  return e === m.app.toLowerCase() || e === m.type.slice(0, m.type.indexOf(':')).toLowerCase();
}

/** SEC-11: a module of a denied app, or of an app outside a non-empty allow-list. */
export const SEC_11: Policy = {
  code: 'SEC-11',
  title: 'App or module not approved',
  category: 'SEC',
  severity: 'high',
  description:
    "A module uses an app or module type the organization has denied (`denied_apps`: high), or one outside its approved list (`allowed_apps`, when set: medium). Make's built-in tools (router, iterator, aggregators, text, JSON and math tools) are exempt from the approved list. Reported only when the organization sets either list.",
  rationale:
    "Every app a scenario uses is a vendor that receives the scenario's data under its own terms: vendors must be assessed and approved before use (SOC 2 CC9.2; ISO/IEC 27001 A.5.23 information security for cloud services; NIST SP 800-53 SA-9 external system services; GDPR Art. 28, a processor needs a contract). An explicitly denied app is a known decision against it (high); an app not yet on the approved list may be fine but has not been reviewed (medium).",
  compliance_frameworks: [ref(F.soc2, 'CC9.2'), ref(F.iso27001, 'A.5.23'), ref(F.nist, 'SA-9'), ref(F.gdpr, 'Art. 28')],
  examples: {
    avoid:
      '`denied_apps: ["dropbox"]` and a `dropbox:uploadFile` module; or `allowed_apps: ["google-sheets", "slack"]` and an `airtable:ActionCreateRecord` module.',
    prefer:
      'Only approved apps (`google-sheets:addRow`, `slack:CreateMessage`), with routers, iterators and text tools between them.',
  },
  parameters: [ALLOWED_APPS, DENIED_APPS],
  evaluate(analysis, params) {
    const allowed = paramValue(params, ALLOWED_APPS);
    const denied = paramValue(params, DENIED_APPS);
    if (allowed.length === 0 && denied.length === 0) return null;
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const deny = denied.find((e) => appEntryMatches(e, m));
      if (deny !== undefined) {
        findings.push({
          moduleId: m.id,
          reason: `\`${m.type}\` is denied by the organization (\`${deny}\`)`,
          severity: 'high',
          evidence: { pointer: `${m.pointer}/module`, value: m.type },
        });
      } else if (allowed.length > 0 && !TOOL_APPS.has(m.app) && !allowed.some((e) => appEntryMatches(e, m))) {
        findings.push({
          moduleId: m.id,
          reason: `\`${m.type}\` is not on the organization's approved apps`,
          severity: 'medium',
          evidence: { pointer: `${m.pointer}/module`, value: m.type },
        });
      }
    }
    return failWith(findings, (n) => `${n} module${n === 1 ? '' : 's'} of apps the organization has not approved`);
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) => `Replace ${moduleRef(m)} with a module of an approved app, or remove it.`,
      );
      steps.push(
        'If the app is needed, have it assessed (data processed, terms, data processing agreement) and add it to `allowed_apps` rather than removing it from `denied_apps` silently.',
      );
      return steps;
    },
  },
};
