/** The store contract suites (test/store/contract) on the Redis backend, against a real redis-server. */
import { redisBackend } from './contract/redis-backend.js';
import { organizationsContract } from './contract/organizations.js';
import { scenariosContract } from './contract/scenarios.js';
import { evaluationsContract } from './contract/evaluations.js';
import { resultsContract } from './contract/results.js';
import { webhooksContract } from './contract/webhooks.js';
import { replayContract } from './contract/replay.js';
import { idempotencyContract } from './contract/idempotency.js';
import { consoleAccountsContract } from './contract/console-accounts.js';
import { rateLeasesContract } from './contract/rate-leases.js';
import { governanceContract } from './contract/governance.js';
import { signInThrottleContract } from './contract/sign-in-throttle.js';
import { auditContract } from './contract/audit.js';
import { fleetContract } from './contract/fleet.js';

organizationsContract(redisBackend);
scenariosContract(redisBackend);
evaluationsContract(redisBackend);
resultsContract(redisBackend);
webhooksContract(redisBackend);
replayContract(redisBackend);
idempotencyContract(redisBackend);
consoleAccountsContract(redisBackend);
rateLeasesContract(redisBackend);
governanceContract(redisBackend);
signInThrottleContract(redisBackend);
auditContract(redisBackend);
fleetContract(redisBackend);
