/**
 * Drift tests of the SDK package: the generated types equal a fresh generation from docs/openapi.json
 * (`npm run sdk:types`), every public operation has its client method, and the version is the same in
 * package.json, the code and the CHANGELOG.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GovernanceClient, SDK_VERSION } from '@gov/sdk';
import { openApiDocument } from '../../src/server/openapi/document.js';

const SDK_DIR = fileURLToPath(new URL('../../../packages/sdk/', import.meta.url));

/** The generator script's exports (plain JavaScript, so it runs without a build). */
interface Generator {
  generate(document?: unknown): Promise<string>;
  readonly OUTPUT_FILE: string;
}

describe('@gov/sdk package', () => {
  it('keeps src/generated/openapi.ts equal to a fresh generation from the served document (run `npm run sdk:types`)', async () => {
    const generator = (await import(pathToFileURL(`${SDK_DIR}scripts/gen-types.js`).href)) as Generator;
    const committed = readFileSync(generator.OUTPUT_FILE, 'utf8');
    assert.ok(
      committed === (await generator.generate()),
      'packages/sdk/src/generated/openapi.ts drifted: npm run sdk:types',
    );
    // docs/openapi.json is the served document: test/integration/contract.test.ts keeps them equal.
  });

  it('has one client method per public operation of the OpenAPI document, named by its operationId', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { operationId?: string }>>;
    const operations = Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/public/v1/'))
      .flatMap(([, methods]) => Object.values(methods).map((op) => op.operationId))
      .filter((id): id is string => typeof id === 'string');
    assert.ok(operations.length >= 25, `${operations.length} operations`);
    const methods = new Set(Object.getOwnPropertyNames(GovernanceClient.prototype));
    assert.deepEqual(
      operations.filter((id) => !methods.has(id)),
      [],
    );
  });

  it('states one version in package.json, the User-Agent constant and the CHANGELOG', () => {
    const pkg = JSON.parse(readFileSync(`${SDK_DIR}package.json`, 'utf8')) as {
      version: string;
      dependencies?: object;
    };
    assert.equal(pkg.version, SDK_VERSION);
    assert.equal(pkg.dependencies, undefined, 'no runtime dependencies');
    assert.match(
      readFileSync(`${SDK_DIR}CHANGELOG.md`, 'utf8'),
      new RegExp(`^## \\[${SDK_VERSION.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });
});
