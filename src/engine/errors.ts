/** @module engine/errors: the engine's few error codes, returned as data (never thrown across a worker). */

/** Engine error codes. `blueprint_invalid`: the input is not a Make blueprint (with the pointer of the first problem). */
export type EngineErrorCode = 'blueprint_invalid' | 'policy_failed';

/** A problem at one place of the input, with an RFC 6901 JSON Pointer into the blueprint. */
export interface EngineIssue {
  readonly pointer: string;
  readonly message: string;
}

/** The engine's error value. */
export interface EngineError {
  readonly code: EngineErrorCode;
  readonly message: string;
  readonly issues: readonly EngineIssue[];
}

/** Thrown only inside the parser and caught by `parseBlueprint`; never escapes the engine. */
export class BlueprintError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
    this.name = 'BlueprintError';
  }
}

/** Escapes one reference token for a JSON Pointer (RFC 6901 §3: `~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}
