/**
 * @module server/compose/tokens: tsyringe tokens for what is not a class: values (config, clock,
 * logger, secrets, the optional metrics registry) and the store, an interface with one
 * implementation per backend. Every service is registered under its own class.
 */
import type { InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { Store } from '../../store/store.js';
import type { ServerSecrets } from '../auth/server-secrets.js';
import type { Config } from '../config.js';
import type { Metrics } from '../metrics.js';

/** Epoch-ms clock; injectable so tests can move time (rate windows, signatures, token expiry). */
export type Clock = () => number;

export const CONFIG: InjectionToken<Config> = Symbol('Config');
export const CLOCK: InjectionToken<Clock> = Symbol('Clock');
export const LOGGER: InjectionToken<Logger> = Symbol('Logger');
export const STORE: InjectionToken<Store> = Symbol('Store');
export const SECRETS: InjectionToken<ServerSecrets> = Symbol('ServerSecrets');
/** The metrics registry, or null when METRICS_ENABLED=false. */
export const METRICS: InjectionToken<Metrics | null> = Symbol('Metrics');
