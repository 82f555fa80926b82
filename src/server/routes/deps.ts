/** @module server/routes/deps: what route handlers need, passed explicitly (the container stays in main.ts). */
import type { Evaluations } from '../../actors/evaluations.js';
import type { EvaluationPool } from '../../actors/pool.js';
import type { Store } from '../../store/store.js';
import type { ResultTokens } from '../auth/result-tokens.js';
import type { Config } from '../config.js';
import type { Validators } from '../../api/requests.js';
import type { Metrics } from '../metrics.js';
import type { Audit } from '../audit.js';

/** Handler dependencies. */
export interface RouteDeps {
  readonly config: Config;
  readonly store: Store;
  readonly pool: EvaluationPool;
  readonly evaluations: Evaluations;
  readonly tokens: ResultTokens;
  readonly validators: Validators;
  /** Epoch ms clock. */
  readonly now: () => number;
  /** Metrics, or null when disabled (METRICS_ENABLED=false). */
  readonly metrics: Metrics | null;
  /** Records the changes made through the API in the audit log (issue 18). */
  readonly audit: Audit;
}
