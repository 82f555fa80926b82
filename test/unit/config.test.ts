/** Every configuration variable refuses a bad value with a ConfigError naming it, the value and the accepted values (issue 19, section 6). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, LMDB_MAP_SIZE_MAX, LOG_LEVELS, loadConfig } from '../../src/server/config.js';
import { HIDDEN_VALUE } from '../../src/server/config-readers.js';

const HEX = 'a'.repeat(64);
const REDIS = { STORE: 'redis', GOV_KEY_PEPPER: HEX, GOV_MASTER_KEY: HEX };

/** Variable, a refused value, what `accepted` must say, and other variables the case needs. */
const REFUSALS: readonly (readonly [string, string, RegExp, Record<string, string>?])[] = [
  ['HOST', 'not a host!', /IPv4 or IPv6 address or a host name/],
  ['PORT', '70000', /^an integer from 0 to 65535$/],
  ['PORT', '80abc', /^an integer from 0 to 65535$/],
  ['STORE', 'postgres', /^one of lmdb, redis$/],
  ['REDIS_URL', 'http://127.0.0.1:6379', /redis:\/\/ or rediss:\/\//],
  ['REDIS_PREFIX', 'has space', /1-32 letters, digits/],
  ['ROLE', 'boss', /^one of all, api, worker$/],
  ['ROLE', 'api', /need STORE=redis/],
  ['CHUNK_CONCURRENCY', '0', /from 1 to 10000/],
  ['CHUNK_LOCK_MS', '10', /from 200 to 600000/],
  ['KEY_PREFIX', 'Gov', /lower-case letters or digits/],
  ['POOL_THREADS', '0', /from 1 to 256/],
  ['POOL_MAX_QUEUE', '1.5', /from 1 to 1000000/],
  ['POOL_INTERACTIVE_RESERVE_MS', '-1', /from 0 to 3600000/],
  ['SCENARIO_TIMEOUT_MS', '5', /from 10 to/],
  ['EVALUATION_TIMEOUT_MS', '99', /from 100 to/],
  ['WORKER_MAX_OLD_MB', '8', /from 16 to 65536/],
  ['WORKER_MAX_YOUNG_MB', '2', /from 3 to 1024/],
  ['BODY_LIMIT_BYTES', '2MB', /from 1024 to 67108864/],
  ['SIGNATURE_TOLERANCE_S', '0', /from 1 to 86400/],
  ['RESULT_TOKEN_TTL_S', '-1', /from 1 to 86400/],
  ['EPHEMERAL_TTL_S', '0', /from 1 to/],
  ['EVALUATION_RETENTION_DAYS', '-1', /from 0 to 36500/],
  ['WAIVER_SWEEP_MS', '1', /from 100 to/],
  ['PUBLIC_BASE_URL', 'https://gov.example.com/api', /http\(s\) origin without a path/],
  ['KEY_USE_FLUSH_MS', '1', /from 10 to 3600000/],
  ['TRUSTED_PROXIES', '10.0.0.0/8, not-an-ip', /comma-separated IPv4 or IPv6 addresses or CIDRs/],
  ['TRUSTED_PROXIES', '10.0.0.0/33', /CIDRs/],
  ['CONSOLE_SECURE_COOKIE', 'yes', /^true, false, 1 or 0$/],
  ['SIGN_IN_CONCURRENCY', '0', /^an integer from 1 to 256$/],
  ['SIGN_IN_CONCURRENCY', '257', /^an integer from 1 to 256$/],
  ['LOG_LEVEL', 'verbose', new RegExp(`^one of ${LOG_LEVELS.join(', ')}$`)],
  ['SHUTDOWN_DEADLINE_MS', '50', /from 100 to 600000/],
  ['BOOTSTRAP_DEMO', 'yes', /^true, false, 1 or 0$/],
  ['BOOTSTRAP_DEMO', 'TRUE', /^true, false, 1 or 0$/],
  ['METRICS_ENABLED', 'on', /^true, false, 1 or 0$/],
  ['METRICS_HOST', 'a b', /host name/],
  ['METRICS_PORT', '65536', /from 0 to 65535/],
  ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'no', /^true, false, 1 or 0$/],
  ['WEBHOOK_MAX_ATTEMPTS', '0', /from 1 to 100/],
  ['WEBHOOK_BACKOFF_BASE_MS', '0', /from 1 to/],
  ['WEBHOOK_BACKOFF_MAX_MS', '0', /from 1 to/],
  ['WEBHOOK_TIMEOUT_MS', '50', /from 100 to 120000/],
  ['LMDB_MAP_SIZE', '1024', new RegExp(`from 16777216 to ${LMDB_MAP_SIZE_MAX}`)],
  ['LMDB_MAP_SIZE', '8GiB', /an integer from/],
];

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${String(e)}`);
    return e;
  }
  assert.fail(`accepted ${JSON.stringify(env)}`);
}

describe('configuration errors', () => {
  for (const [variable, value, accepted, extra] of REFUSALS)
    it(`refuses ${variable}=${JSON.stringify(value)} naming the variable, the value and the accepted values`, () => {
      const e = refusal({ ...extra, [variable]: value });
      assert.equal(e.variable, variable);
      assert.equal(e.value, value.includes(',') ? value.split(',')[1]!.trim() : value);
      assert.match(e.accepted, accepted);
      assert.ok(e.message.startsWith(`${variable}=`), e.message);
      assert.ok(e.message.includes(e.accepted), e.message);
    });

  it('refuses a malformed server secret without echoing it', () => {
    for (const name of ['GOV_KEY_PEPPER', 'GOV_MASTER_KEY']) {
      const secret = 'Z'.repeat(64);
      const e = refusal({ [name]: secret });
      assert.equal(e.variable, name);
      assert.equal(e.value, HIDDEN_VALUE);
      assert.ok(!e.message.includes(secret), e.message);
      assert.match(e.accepted, /64 lower-case hex/);
    }
  });

  it('refuses STORE=redis without its secrets, naming the missing variable', () => {
    const e = refusal({ STORE: 'redis', GOV_MASTER_KEY: HEX });
    assert.equal(e.variable, 'GOV_KEY_PEPPER');
    assert.equal(e.value, undefined);
    assert.match(e.message, /^GOV_KEY_PEPPER is not set: expected 64 lower-case hex/);
  });

  it('accepts every documented boolean spelling and the defaults', () => {
    assert.equal(loadConfig({ BOOTSTRAP_DEMO: '0' }).bootstrapDemo, false);
    assert.equal(loadConfig({ BOOTSTRAP_DEMO: 'false' }).bootstrapDemo, false);
    assert.equal(loadConfig({ BOOTSTRAP_DEMO: '1' }).bootstrapDemo, true);
    assert.equal(loadConfig({ METRICS_ENABLED: 'true' }).metricsEnabled, true);
    const defaults = loadConfig({});
    assert.equal(defaults.bootstrapDemo, true);
    assert.equal(defaults.logLevel, 'info');
    assert.equal(defaults.lmdbMapSize, 8 * 1024 ** 3);
    assert.deepEqual(defaults.trustedProxies, []);
    assert.equal(defaults.signInConcurrency, 2);
  });

  it('accepts good values of the variables that gained checks', () => {
    const c = loadConfig({
      ...REDIS,
      ROLE: 'api',
      LOG_LEVEL: 'warn',
      TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1 ,2001:db8::/32',
      HOST: '0.0.0.0',
      METRICS_HOST: 'localhost',
      LMDB_MAP_SIZE: String(64 * 1024 ** 2),
    });
    assert.equal(c.logLevel, 'warn');
    assert.deepEqual(c.trustedProxies, ['10.0.0.0/8', '192.168.1.1', '2001:db8::/32']);
    assert.equal(c.lmdbMapSize, 64 * 1024 ** 2);
    assert.equal(c.secretsEnv.GOV_KEY_PEPPER, HEX);
    assert.equal(loadConfig({ HOST: '::1' }).host, '::1');
  });
});
