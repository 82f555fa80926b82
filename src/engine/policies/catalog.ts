/** @module engine/policies/catalog: the static, typed list of every policy (no glob, no side-effect registration). */
import type { Policy } from './types.js';
import { SEC_1 } from './sec/SEC-1.js';
import { SEC_2 } from './sec/SEC-2.js';
import { SEC_3 } from './sec/SEC-3.js';
import { SEC_4 } from './sec/SEC-4.js';
import { SEC_5 } from './sec/SEC-5.js';
import { SEC_6 } from './sec/SEC-6.js';
import { SEC_7 } from './sec/SEC-7.js';
import { SEC_8 } from './sec/SEC-8.js';
import { SEC_9 } from './sec/SEC-9.js';
import { SEC_10 } from './sec/SEC-10.js';
import { SEC_11 } from './sec/SEC-11.js';
import { SEC_12 } from './sec/SEC-12.js';
import { SEC_13 } from './sec/SEC-13.js';
import { DI_1 } from './di/DI-1.js';
import { DI_2 } from './di/DI-2.js';
import { DI_3 } from './di/DI-3.js';
import { DI_4 } from './di/DI-4.js';
import { DI_5 } from './di/DI-5.js';
import { DI_6 } from './di/DI-6.js';
import { DI_7 } from './di/DI-7.js';
import { DI_8 } from './di/DI-8.js';
import { DI_9 } from './di/DI-9.js';
import { DI_10 } from './di/DI-10.js';
import { DI_11 } from './di/DI-11.js';
import { ARC_1 } from './arc/ARC-1.js';
import { ARC_2 } from './arc/ARC-2.js';
import { ARC_3 } from './arc/ARC-3.js';
import { ARC_4 } from './arc/ARC-4.js';
import { ARC_5 } from './arc/ARC-5.js';
import { ARC_6 } from './arc/ARC-6.js';
import { ARC_7 } from './arc/ARC-7.js';
import { ARC_8 } from './arc/ARC-8.js';
import { ARC_9 } from './arc/ARC-9.js';
import { ARC_10 } from './arc/ARC-10.js';
import { PRIV_1 } from './priv/PRIV-1.js';
import { PRIV_2 } from './priv/PRIV-2.js';
import { PRIV_3 } from './priv/PRIV-3.js';
import { PRIV_4 } from './priv/PRIV-4.js';
import { PRIV_5 } from './priv/PRIV-5.js';
import { PRIV_6 } from './priv/PRIV-6.js';
import { PRIV_7 } from './priv/PRIV-7.js';
import { AI_1 } from './ai/AI-1.js';
import { AI_2 } from './ai/AI-2.js';
import { AI_3 } from './ai/AI-3.js';
import { AI_4 } from './ai/AI-4.js';
import { AI_5 } from './ai/AI-5.js';
import { AI_6 } from './ai/AI-6.js';
import { AI_7 } from './ai/AI-7.js';
import { AI_8 } from './ai/AI-8.js';
import { OPS_1 } from './ops/OPS-1.js';
import { OPS_2 } from './ops/OPS-2.js';
import { OPS_3 } from './ops/OPS-3.js';
import { OPS_4 } from './ops/OPS-4.js';

/** Every active policy, in catalog order. Codes are stable and never reused (see RETIRED_CODES). */
export const POLICIES: readonly Policy[] = [
  SEC_1,
  SEC_2,
  SEC_3,
  SEC_4,
  SEC_5,
  SEC_6,
  SEC_7,
  SEC_8,
  SEC_9,
  SEC_10,
  SEC_11,
  SEC_12,
  SEC_13,
  DI_1,
  DI_2,
  DI_3,
  DI_4,
  DI_5,
  DI_6,
  DI_7,
  DI_8,
  DI_9,
  DI_10,
  DI_11,
  ARC_1,
  ARC_2,
  ARC_3,
  ARC_4,
  ARC_5,
  ARC_6,
  ARC_7,
  ARC_8,
  ARC_9,
  ARC_10,
  PRIV_1,
  PRIV_2,
  PRIV_3,
  PRIV_4,
  PRIV_5,
  PRIV_6,
  PRIV_7,
  AI_1,
  AI_2,
  AI_3,
  AI_4,
  AI_5,
  AI_6,
  AI_7,
  AI_8,
  OPS_1,
  OPS_2,
  OPS_3,
  OPS_4,
];

/** Codes retired from the catalog; never to be reused for another rule. */
export const RETIRED_CODES: readonly string[] = [];

/** Catalog revision: bump on any change of a policy's code, title, category, severity or mappings (drives the ETag). */
export const CATALOG_REVISION = '2026-11-28.1';

/** Policies by code. */
export const POLICY_BY_CODE: ReadonlyMap<string, Policy> = new Map(POLICIES.map((p) => [p.code, p]));
