/**
 * @module engine/policies/sec/forged-request: what a request to a forged address can do (SEC-6
 * severity). A forged URL is high harm when the request carries a credential (it is handed to the
 * forged host: OWASP SSRF Prevention Cheat Sheet, "credentials leak to the attacker's server"), when
 * it sends data (a body, or personal data mapped into it: the data goes to the forged host), or when
 * its response drives further effects (the forged host's answer is written, sent on or fed to a
 * module that acts: the attacker chooses data the scenario trusts, OWASP API10:2023 Unsafe Consumption
 * of APIs). A credential-less GET whose response only answers the requester, or nobody, fetches a
 * page the requester could fetch themselves: medium (make `joseph19820124-skool-static-page-scraper`
 * 2, 4, 12, reviewer verdict *overstated*). The request can still reach internal addresses, which is
 * why it stays reported.
 */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { classify, httpMethod } from '../../blueprint/classify.js';
import { bodyTexts } from '../../money.js';
import { CallerInput } from './caller-input.js';
import { credentialOf, isAgent } from './impact-detectors.js';

/** What is at stake in a request whose address is forged, completing "… and …". */
export interface RequestStakes {
  /** True when the forged request carries a credential, sends data, or its response drives effects. */
  readonly high: boolean;
  readonly why: string;
}

/** Module effects that act on the response of the request (`classify().effect`): it is written, deleted by, or sent on. */
const ACTS: Readonly<Record<string, string>> = { write: 'written', delete: 'used to delete', send: 'sent on' };
const ref = (m: ModuleNode) => `module ${m.id} (\`${m.type}\`)`;

/** The stakes of a request from module `m` whose URL (at `urlPointer`) is forged, worst first. */
export function requestStakes(analysis: Analysis, m: ModuleNode, urlPointer: string): RequestStakes {
  const credential = credentialOf(m) ?? connectionOf(m);
  if (credential) return { high: true, why: `the request carries ${credential}, which goes to the forged host` };
  const method = httpMethod(m);
  if (method !== 'GET' && method !== 'HEAD' && bodyTexts(m).some((t) => t.trim() !== '' && t.trim() !== '='))
    return { high: true, why: `it sends a ${method} body to the forged host` };
  const personal = analysis
    .dataflow()
    .piiInputs(m.id)
    .find((p) => !p.pointer.startsWith(urlPointer));
  if (personal)
    return {
      high: true,
      why: `it sends personal data (\`${personal.from.moduleId}.${personal.from.path}\`) to the forged host`,
    };
  const { acts, answers } = responseUse(analysis, m);
  if (acts) return { high: true, why: acts };
  return {
    high: false,
    why: `it is a ${method} without credentials or data whose response ${answers ? `only answers the caller, through ${ref(answers)}` : 'no module acts on'}`,
  };
}

/** An HTTP module's connection or keychain (`__IMTCONN__`, keychain `auth`), by name; `null` without one. */
function connectionOf(m: ModuleNode): string | null {
  const conn = classify(m).connection;
  return conn && !conn.startsWith('__IMTHOOK__') ? `the connection \`${conn.split(':')[0]}\`` : null;
}

/**
 * What later modules do with the response, through transforms, AI answers and look-ups
 * (`CallerInput`): the first that acts on it (writes it, deletes by it, sends it on, or is an AI agent
 * fed with it), and the first webhook response that returns it.
 */
function responseUse(analysis: Analysis, m: ModuleNode): { acts: string | null; answers: ModuleNode | null } {
  const response = new CallerInput(analysis, m.id);
  let answers: ModuleNode | null = null;
  for (const x of analysis.graph.modules) {
    if (x === m || !response.carries(x)) continue;
    if (isAgent(x, analysis.graph)) return { acts: `its response instructs the AI agent of ${ref(x)}`, answers };
    const effect = classify(x).effect;
    const acts = ACTS[effect];
    if (acts) return { acts: `its response is ${acts} by ${ref(x)}`, answers };
    if (effect === 'respond') answers ??= x;
  }
  return { acts: null, answers };
}
