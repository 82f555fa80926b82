/** @module engine/secrets/types: what a detector reports. */

/** One credential found in a string. `start`/`end` are UTF-16 offsets of the secret itself. */
export interface SecretFinding {
  /** Detector kind (`github-token`, `url-path-credential`, `credential-field`...), stable for tests and severities. */
  readonly kind: string;
  /** Human title used in the finding's reason ("GitHub token", "Key in the URL path"). */
  readonly title: string;
  readonly start: number;
  readonly end: number;
  /**
   * The identifier half of a credential pair (a Z-API instance id beside its token): reported with
   * the pair, but not a secret alone (callbacks and sample payloads echo it): a copy of it elsewhere
   * is a further place of the pair's finding (credentials.ts), never a finding of its own.
   */
  readonly identifier?: true;
  /**
   * The secret is the value of a URL query parameter: besides being in the blueprint, it travels in
   * every request line, which servers, proxies and Make's execution history log (CWE-598).
   */
  readonly inQuery?: true;
}
