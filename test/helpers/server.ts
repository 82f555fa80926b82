/** @module test/helpers/server: starts the real server in-process on an ephemeral loopback port with a temporary LMDB. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { RunningServer } from '../../src/server/server.js';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/server.js';
import { GovernanceClient } from '../../src/client/client.js';

/** A test server with one organization and one full-permission key. */
export interface TestServer {
  readonly server: RunningServer;
  readonly baseUrl: string;
  readonly orgId: string;
  readonly client: GovernanceClient;
  readonly creds: { apiKey: string; signingSecret: string; keyId: string };
  /** Creates another organization with its own key and client. */
  addOrg(name: string): Promise<{ orgId: string; client: GovernanceClient; keyId: string }>;
  close(): Promise<void>;
}

/** Options: extra environment for loadConfig and an injectable clock. */
export interface TestServerOptions {
  readonly env?: Record<string, string>;
  readonly now?: () => number;
  /** Keep the data directory after close (crash-recovery tests reuse it). */
  readonly dataDir?: string;
  /** The built console served under /console/ (default: console/dist of this checkout). */
  readonly consoleDir?: string;
}

/** Starts the server (uWS on 127.0.0.1:0, LMDB in a temp dir, the real piscina pool). */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gov-test-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    POOL_THREADS: '1',
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
    ...options.env,
  });
  const server = await startServer(config, {
    logger: pino({ level: 'silent' }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.consoleDir !== undefined ? { consoleDir: options.consoleDir } : {}),
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const clock = options.now ?? Date.now;
  const addOrg = async (name: string) => {
    const org = await server.keys.createOrg(name);
    const issued = await server.keys.createKey(org.org_id, { perMinute: 10_000, perHour: 100_000 });
    return {
      orgId: org.org_id,
      keyId: issued.key_id,
      client: new GovernanceClient(baseUrl, { apiKey: issued.api_key, signingSecret: issued.signing_secret }, clock),
    };
  };
  const org = await server.keys.createOrg('Test Org');
  const issued = await server.keys.createKey(org.org_id, { perMinute: 10_000, perHour: 100_000 });
  return {
    server,
    baseUrl,
    orgId: org.org_id,
    client: new GovernanceClient(baseUrl, { apiKey: issued.api_key, signingSecret: issued.signing_secret }, clock),
    creds: { apiKey: issued.api_key, signingSecret: issued.signing_secret, keyId: issued.key_id },
    addOrg,
    async close() {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
