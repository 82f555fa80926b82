/** @module engine/policies/ops/change-kind: whether a change is a notification to the owner, a message to fixed recipients, or a data change (OPS-1, DI-3). */
import type { Analysis } from '../../analysis.js';
import type { Json, ModuleNode } from '../../blueprint/types.js';
import { classify } from '../../blueprint/classify.js';
import { audienceOf } from '../../risk/audience.js';

/**
 * What a module that changes something is, for OPS-1 and DI-3: `owner`, a notification to the owner or the
 * team (audience `owner` of `risk/audience.ts` other than a literal: the connection's own account or
 * address, iOS notifications, Slack or Teams, a placeholder recipient, one private Telegram chat); `fixed`, a message to recipients fixed at design time
 * (no recipient mapped from the data: a digest to one chat or mailbox); `change`, anything else
 * (records, files, deletes, posts, replies, messages to recipients taken from the data).
 */
export function changeKind(analysis: Analysis, m: ModuleNode): 'owner' | 'fixed' | 'change' {
  const send = classify(m).send;
  if (!send || send.channel === null || send.channel === 'post' || send.reply) return 'change';
  const delivery = audienceOf(analysis, m);
  if (delivery?.audience === 'owner') return delivery.basis === 'literal' ? 'fixed' : 'owner';
  return send.recipients.some((k) => leaves(m.mapper?.[k]).some((v) => v.includes('{{'))) ? 'change' : 'fixed';
}

/** String leaves of a recipient field (a string, a list, `{ address, name }` objects). */
function leaves(v: Json | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(leaves);
  return v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [];
}
