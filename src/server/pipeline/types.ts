/** @module server/pipeline/types: a pipeline stage is a named function that answers or lets the request through. */
import type { ApiRequest, ApiResponse, RequestContext } from '../http/types.js';
import type { Awaitable } from '../../store/awaitable.js';

/**
 * Returns a response to stop the pipeline (an error), or `null` to continue; a promise of either when
 * the stage must wait for the store (Redis), the value itself when it need not (LMDB, caches).
 */
export type Stage = (req: ApiRequest, ctx: RequestContext) => Awaitable<ApiResponse | null>;

/** A stage that never waits (it reads only the request and memory): the browser refusal. */
export type SyncStage = (req: ApiRequest, ctx: RequestContext) => ApiResponse | null;
