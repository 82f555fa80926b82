/** @module server/pipeline/types: a pipeline stage is a named function that answers or lets the request through. */
import type { ApiRequest, ApiResponse, RequestContext } from '../http/types.js';

/** Returns a response to stop the pipeline (an error), or `null` to continue. */
export type Stage = (req: ApiRequest, ctx: RequestContext) => ApiResponse | null;
