/** @module store/replay/repository: accepted signatures of non-GET requests, kept until they can no longer be replayed (design notes "Replay"). */
import type { Awaitable } from '../awaitable.js';

/** One accepted signature. */
export interface AcceptedSignature {
  /** Hex signature. */
  readonly signature: string;
  /** Signing time, unix seconds (`t=` of the signature header). */
  readonly t: number;
}

/** Replay refusal state, shared by every process (and, in cluster mode, every node) on the store. */
export interface ReplayRepository {
  /** True when `signature` signed at `t` was recorded. */
  has(signature: string, t: number): Awaitable<boolean>;
  /**
   * Records `accepted` atomically, each one only if absent (a conditional write).
   * @returns the signatures that were already recorded (by another process or an earlier call):
   *   of N concurrent calls with one signature, exactly one does not get it back.
   */
  record(accepted: readonly AcceptedSignature[]): Promise<AcceptedSignature[]>;
  /** Removes every signature signed before `beforeT` (unix s). @returns how many. */
  sweep(beforeT: number): Promise<number>;
}
