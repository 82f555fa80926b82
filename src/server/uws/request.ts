/** @module server/uws/request: the plain request the adapter copies out of uWS (PITFALLS 2). */
import type { HttpResponse } from 'uWebSockets.js';
import type { ApiRequest } from '../http/types.js';
import type { TraceContext } from '../../model/trace-context.js';
import { normalizeAddress } from '../pipeline/client-address.js';

/** What the request needs of its exchange: whether its response is still usable (PITFALLS 4). */
export interface Liveness {
  readonly res: HttpResponse;
  readonly aborted: boolean;
  readonly responded: boolean;
}

const decoder = new TextDecoder();

/**
 * A request copied out of uWS (a class: one shape, no spreads). The peer address is read from uWS
 * on first use only (it costs about a microsecond and only IP allowlists need it), and only while
 * the response is alive (PITFALLS 4); afterwards it reads as ''.
 *
 * `owned` says whether `body`'s ArrayBuffer was allocated for this request alone (a body with a
 * declared length is read into a buffer of its own); `takeBody()` hands that buffer over once, and
 * copies otherwise, so nothing shared (the empty body, a pooled slab) is ever transferred to a
 * worker and detached under other requests (issue 13, item 6).
 */
export class Request implements ApiRequest {
  private address: string | null = null;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer,
    private owned: boolean,
    private readonly x: Liveness | null,
    readonly requestId: string,
    readonly receivedAt: number,
    readonly trace: TraceContext | null = null,
  ) {}

  get remoteAddress(): string {
    if (this.address === null) {
      const x = this.x;
      this.address =
        x === null || x.aborted || x.responded ? '' : normalizeAddress(decoder.decode(x.res.getRemoteAddressAsText()));
    }
    return this.address;
  }

  takeBody(): Uint8Array {
    const b = this.body;
    if (this.owned) {
      this.owned = false;
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    }
    return Uint8Array.prototype.slice.call(b);
  }
}
