/** @module engine/policies/catalog: the static, typed list of every policy (no glob, no side-effect registration). */
import type { Policy } from './types.js';
import { SEC_1 } from './sec/SEC-1.js';
import { SEC_2 } from './sec/SEC-2.js';
import { SEC_3 } from './sec/SEC-3.js';
import { SEC_4 } from './sec/SEC-4.js';
import { SEC_5 } from './sec/SEC-5.js';
import { DI_1 } from './di/DI-1.js';
import { DI_2 } from './di/DI-2.js';
import { DI_3 } from './di/DI-3.js';
import { DI_4 } from './di/DI-4.js';
import { DI_5 } from './di/DI-5.js';
import { ARC_1 } from './arc/ARC-1.js';
import { ARC_2 } from './arc/ARC-2.js';

/** Every active policy, in catalog order. Codes are stable and never reused (see RETIRED_CODES). */
export const POLICIES: readonly Policy[] = [SEC_1, SEC_2, SEC_3, SEC_4, SEC_5, DI_1, DI_2, DI_3, DI_4, DI_5, ARC_1, ARC_2];

/** Codes retired from the catalog; never to be reused for another rule. */
export const RETIRED_CODES: readonly string[] = [];

/** Catalog revision: bump on any change of a policy's code, title, category, severity or mappings (drives the ETag). */
export const CATALOG_REVISION = '2026-11-22.1';

/** Policies by code. */
export const POLICY_BY_CODE: ReadonlyMap<string, Policy> = new Map(POLICIES.map((p) => [p.code, p]));
