/**
 * No policy keys a rule on a host name (issue 32, "A method that generalises": "a unit test fails on
 * literal host names in src/engine/policies"). A host a rule must know comes from a documented catalog
 * outside the policies, with its source (`src/engine/hosts/`: LLM API hosts, Make's hosts, team-chat
 * webhooks, services reached with the operator's account, consumer mail domains, XML namespaces). Flagged, in code
 * (not comments): a string or template literal that is a host, a domain suffix (`.supabase.co`), an
 * e-mail domain (`@gmail.com`) or a URL (`https://api.x.ai/v1`), and a regular expression that spells
 * a host (`api\.openai\.com`). Prose that mentions a host inside a sentence (a policy's description
 * or examples) is not a rule and is not flagged; nor are the reserved names of RFC 2606 and RFC 6761.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { LLM_HOSTS } from '../../src/engine/hosts/llm-hosts.js';
import { OWN_SERVICE_HOSTS, SERVICE_REFERENCES } from '../../src/engine/hosts/service-hosts.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const POLICIES = join(ROOT, 'src/engine/policies');

/** Top-level domains a host literal may end in: generic, the usual country codes, and the new ones services use. */
const TLD =
  'com|net|org|io|ai|app|dev|co|xyz|me|so|sh|cloud|tech|to|gg|cc|info|biz|us|eu|de|uk|fr|in|it|es|nl|ch|at|be|se|no|dk|fi|pl|pt|ie|ru|br|mx|jp|cn|kr|au|nz|ca|site|online|store|page|link|email|chat|bot|run|tv|fm|ly|gl|im|ws|studio|one|pro|tools|services|network|digital|agency|media|live|world|global|host|space';
const HOST = `(?:[a-z0-9-]+\\.)+(?:${TLD})`;
/** A literal that is a host, domain suffix, e-mail domain or URL: the host at its start, then its end, a port, a path or a query. */
const HOST_LITERAL = new RegExp(`^(?:[a-z][a-z0-9+.-]*://)?[.@]?${HOST}(?=$|[/:?#])`, 'i');
/** A host spelled in a regular expression, its dots escaped. */
const HOST_IN_REGEX = new RegExp(`(?:[a-z0-9-]+\\\\\\.)+(?:${TLD})\\b`, 'i');
/** Names reserved for documentation and tests (RFC 2606, RFC 6761): never a real service. */
const RESERVED =
  /(?:^|[./@])(?:example\.(?:com|net|org)|[a-z0-9-]+\.(?:example|test|invalid|localhost))(?:$|[/:?#\\])/i;

/** `line: literal` for every host literal in a TypeScript source text. */
export function hostLiterals(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const flag = (node: ts.Node, shown: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${shown}`);
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      const value = node.text.trim();
      if (HOST_LITERAL.test(value) && !RESERVED.test(value)) flag(node, JSON.stringify(node.text));
    } else if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const re = node.getText(source);
      if (HOST_IN_REGEX.test(re) && !RESERVED.test(re.replace(/\\\./g, '.'))) flag(node, re);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('host names in policies', () => {
  it('finds hosts, domain suffixes, e-mail domains, URLs and regular expressions, not prose or reserved names', () => {
    const code = [
      "const a = ['api.openai.com', '.supabase.co', '@gmail.com', 'https://api.x.ai/v1'];",
      'const b = `https://api.groq.com/${path}`;',
      'const c = /^api\\.anthropic\\.com$/;',
      "const d = ['mapper.url', 'builtin:BasicRouter', 'Sent to `api.openai.com` by module 3.', 'api.example.com', 'x.test'];",
      '// a comment naming api.openai.com is documentation',
      'const e = { avoid: \'`"url": "https://eu1.make.com/api/v2"`\' };',
    ].join('\n');
    assert.deepEqual(hostLiterals('sample.ts', code), [
      '1: "api.openai.com"',
      '1: ".supabase.co"',
      '1: "@gmail.com"',
      '1: "https://api.x.ai/v1"',
      '2: "https://api.groq.com/"',
      '3: /^api\\.anthropic\\.com$/',
    ]);
  });

  it('src/engine/policies names no host: hosts come from documented catalogs', () => {
    const all = files(POLICIES);
    assert.ok(all.length > 50, `${all.length} policy files`);
    const found = all.flatMap((file) =>
      hostLiterals(file, readFileSync(file, 'utf8')).map((hit) => `${relative(ROOT, file)}:${hit}`),
    );
    assert.deepEqual(found, [], 'move these into a catalog under src/engine/hosts/ with their source');
  });

  it('the host catalogs give the source of every entry', () => {
    for (const h of LLM_HOSTS) assert.match(h.reference, /^https:\/\/[^/]+\//, `${h.host}: ${h.provider}`);
    for (const [host, name] of OWN_SERVICE_HOSTS)
      assert.match(SERVICE_REFERENCES[name] ?? '', /^https:\/\/[^/]+\//, `${host}: ${name} has no API reference`);
  });
});
