/**
 * @module engine/risk/impact: what a module's action does, the impact dimension of the risk model
 * (issue 32; `docs/engine.md`, "Risk model"), from the module table (`classify`) and `money.ts`:
 * `delete` (a permanent delete), `spend` (money moves: a payment app's charge or transfer, an HTTP
 * payment call), `change-access` (sharing, permissions, members, roles: who can see or do what),
 * `send` (a message to people, a post, a webhook response), `write-own` (a record, file or reversible
 * change in the owner's systems), `read` (look-ups, computations, transforms).
 */
import type { ModuleNode } from '../blueprint/types.js';
import type { Impact } from './types.js';
import { actionWords, classify } from '../blueprint/classify.js';
import { movesMoney } from '../money.js';

/** Action words that change who can see or do what (Drive *Share a file*, *Add a member*, *Update permissions*, *Invite a user*). */
const ACCESS_WORDS: ReadonlySet<string> = new Set([
  'share',
  'permission',
  'permissions',
  'member',
  'members',
  'role',
  'roles',
  'invite',
  'access',
  'collaborator',
  'collaborators',
]);

/** The impact of module `m`'s action. */
export function impactOf(m: ModuleNode): Impact {
  const cls = classify(m);
  if (movesMoney(m)) return 'spend';
  if (cls.effect === 'delete') return cls.reversible ? 'write-own' : 'delete';
  if (cls.effect === 'send' || cls.effect === 'respond') return 'send';
  if (cls.effect === 'write')
    return actionWords(m.action).some((w) => ACCESS_WORDS.has(w)) ? 'change-access' : 'write-own';
  return 'read';
}
