/**
 * @module engine/blueprint/module-name: splits the `module` string of a Make export into app and
 * action. Sources: corpus FORMAT.md ("Module id `app:ModuleName`"), the make-extra corpus (custom
 * app `app#courageousteams-614494:getOrder` in an eu1.integromat.com export) and public exports
 * (`app#errorhandler-dpgcf8:errorhandler`).
 */
import { boundedMemo } from '../memo.js';

/** A module name split into its parts. */
export interface ModuleName {
  /**
   * App part: `http` for `http:ActionSendData`; for a custom app (`app#<name>-<id>:<action>`) the
   * app's name without Make's uniqueness suffix (`courageousteams`).
   */
  readonly app: string;
  /** Action part (`ActionSendData`, `getOrder`). */
  readonly action: string;
  /** True for a custom (private or shared) app, exported with the `app#` prefix. */
  readonly custom: boolean;
}

/** Longest module name accepted (the longest real one is under 80 characters). */
export const MAX_MODULE_NAME = 256;

/**
 * Every name Make exports: `app:Action` with letters, digits, `-`, `_`, `.` on both sides
 * (`openai-gpt-3:CreateCompletion`, `notion:searchObjects1`, `0codekit:...`), custom apps
 * `app#<name>-<id>:<action>`, and old Integromat names, which have the same shape. Anything printable
 * without spaces is tolerated on either side, so a name Make adds tomorrow is classified as an
 * unknown app instead of refusing the blueprint.
 */
const NAME = /^(app#)?([^\s:]+):(\S+)$/;
/** Make's uniqueness suffix of a custom app name: `-614494`, `-dpgcf8` (a final segment with a digit). */
const CUSTOM_SUFFIX = /-(?=[a-z0-9]*\d)[a-z0-9]{4,12}$/i;

/**
 * Splits a module name, or returns `null` when the string is not a module name (empty, too long,
 * without `:`, or with whitespace). Memoised: module names repeat across blueprints.
 * @example parseModuleName('app#courageousteams-614494:getOrder') // { app: 'courageousteams', action: 'getOrder', custom: true }
 */
export const parseModuleName: (name: string) => ModuleName | null = boundedMemo(10_000, (name) => {
  if (name.length > MAX_MODULE_NAME) return null;
  const m = NAME.exec(name);
  if (!m) return null;
  const custom = m[1] !== undefined;
  const rawApp = m[2]!;
  const app = custom ? rawApp.replace(CUSTOM_SUFFIX, '') || rawApp : rawApp;
  return { app, action: m[3]!, custom };
});
