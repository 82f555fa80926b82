/** @module server/tokens: tsyringe injection tokens (the container is only touched in server.ts). */
import type { InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { Evaluations } from '../actors/evaluations.js';
import type { EvaluationPool } from '../actors/pool.js';
import type { Store } from '../store/store.js';
import type { KeyService } from './auth/keys.js';
import type { ResultTokens } from './auth/result-tokens.js';
import type { ServerSecrets } from './auth/server-secrets.js';
import type { WebhookDispatcher } from '../actors/webhooks/dispatcher.js';
import type { Config } from './config.js';

/** Epoch-ms clock; injectable so tests can move time (rate windows, signatures, token expiry). */
export type Clock = () => number;

export const CONFIG: InjectionToken<Config> = Symbol('Config');
export const CLOCK: InjectionToken<Clock> = Symbol('Clock');
export const LOGGER: InjectionToken<Logger> = Symbol('Logger');
export const STORE: InjectionToken<Store> = Symbol('Store');
export const SECRETS: InjectionToken<ServerSecrets> = Symbol('ServerSecrets');
export const KEYS: InjectionToken<KeyService> = Symbol('KeyService');
export const POOL: InjectionToken<EvaluationPool> = Symbol('EvaluationPool');
export const EVALUATIONS: InjectionToken<Evaluations> = Symbol('Evaluations');
export const RESULT_TOKENS: InjectionToken<ResultTokens> = Symbol('ResultTokens');
import type { Metrics } from './metrics.js';
export const METRICS: InjectionToken<Metrics | null> = Symbol('Metrics');
export const WEBHOOKS: InjectionToken<WebhookDispatcher> = Symbol('WebhookDispatcher');
