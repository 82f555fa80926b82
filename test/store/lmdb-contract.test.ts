/** The store contract suites (test/store/contract) on the LMDB backend, the default. */
import { lmdbBackend } from './contract/backend.js';
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

organizationsContract(lmdbBackend);
scenariosContract(lmdbBackend);
evaluationsContract(lmdbBackend);
resultsContract(lmdbBackend);
webhooksContract(lmdbBackend);
replayContract(lmdbBackend);
idempotencyContract(lmdbBackend);
consoleAccountsContract(lmdbBackend);
rateLeasesContract(lmdbBackend);
governanceContract(lmdbBackend);
signInThrottleContract(lmdbBackend);
auditContract(lmdbBackend);
fleetContract(lmdbBackend);
