/** @module engine/policies/sec/SEC-4: TLS certificate verification switched off. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Mapper/parameter flags that disable certificate checks, and the value that disables them. */
const INSECURE_FLAGS: readonly (readonly [string, boolean])[] = [
  ['rejectUnauthorized', false],
  ['strictSSL', false],
  ['verifySSL', false],
  ['verifyCertificate', false],
  ['insecure', true],
  ['ignoreSSL', true],
  ['allowInsecure', true],
];

const FLAG_NAMES: ReadonlySet<string> = new Set(INSECURE_FLAGS.map(([flag]) => flag));

const asFlag = (v: unknown): boolean | null =>
  typeof v === 'boolean' ? v : v === 'false' ? false : v === 'true' ? true : null;

/** SEC-4: HTTPS without certificate verification is open to man-in-the-middle attacks. */
export const SEC_4: Policy = {
  code: 'SEC-4',
  title: 'TLS certificate verification disabled',
  category: 'SEC',
  severity: 'critical',
  description:
    'A module accepts any TLS certificate (`rejectUnauthorized: false` or an equivalent flag), so anyone on the network path can impersonate the endpoint.',
  rationale:
    'Disabling certificate verification removes the authentication half of TLS (CWE-295). SOC 2 CC6.7, ISO/IEC 27001 A.8.24 and NIST SP 800-53 SC-8(1) require cryptographic protection of data in transit.',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.7'),
    ref(F.iso27001, 'A.8.24'),
    ref(F.nist, 'SC-8(1)'),
    ref(F.hipaa, '§164.312(e)(2)(ii)'),
    ref(F.pci, '4.2.1'),
  ],
  examples: {
    avoid: '`"rejectUnauthorized": false`',
    prefer: '`"rejectUnauthorized": true` and, for a private CA, its certificate in the `ca` field.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      for (const [section, fields] of [
        ['mapper', m.mapper],
        ['parameters', m.parameters],
      ] as const) {
        // Most sections have none of the flags: one pass over their own keys avoids probing seven absent ones.
        if (!fields || !Object.keys(fields).some((k) => FLAG_NAMES.has(k))) continue;
        for (const [flag, insecure] of INSECURE_FLAGS) {
          if (asFlag(fields[flag]) === insecure) {
            findings.push({
              moduleId: m.id,
              reason: `\`${section}.${flag}\` is \`${String(insecure)}\`: any certificate is accepted`,
              evidence: { pointer: `${m.pointer}/${section}/${flag}`, value: String(insecure) },
            });
          }
        }
      }
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `TLS verification disabled on ${findings.length} module${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, set **Reject connections that are using unverified (self-signed) certificates** back to *Yes* (\`rejectUnauthorized: true\`).`,
      );
      steps.push(
        "If the endpoint uses a private CA, paste that CA certificate into the module's **Self-signed certificate** (`ca`) field instead of disabling verification.",
      );
      return steps;
    },
  },
};
