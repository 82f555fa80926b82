/**
 * @module server/uws/builds: which uWebSockets.js build serves which Node.js ABI. Pure data and a
 * pure selection function; loading is in ./native.ts. Why these builds: docs/operations.md,
 * "Supported Node.js runtimes".
 */

/** One uWebSockets.js build, installed as an npm alias dependency of this package (exact version, so the lockfile pins its integrity hash). */
export interface UwsBuild {
  /** The dependency name in package.json (`require()`d to find the package). */
  readonly dependency: string;
  /** The registry package the alias points at. */
  readonly package: string;
  /** Its exact version (the uWebSockets.js release it republishes, as its package.json and loader message state). */
  readonly version: string;
  /** Directory of the `uws_<platform>_<arch>_<abi>.node` binaries, relative to the directory of the package's main file. */
  readonly binaryDir: string;
  /** `process.versions.modules` values this build is chosen for. */
  readonly abis: readonly string[];
  /** Highest `GLIBC_` symbol version its Linux binaries reference (`objdump -T`), shown when loading fails. */
  readonly glibc: string;
}

/**
 * The builds, by Node.js line. ABIs from Node's doc/abi_version_registry.json: 115 = Node 20,
 * 127 = Node 22, 137 = Node 24. glibc figures read with `objdump -T` on the x64 and arm64 binaries.
 */
export const UWS_BUILDS: readonly UwsBuild[] = [
  {
    dependency: 'uWebSockets.js',
    package: '@trufflesuite/uws-js-unofficial',
    version: '20.30.0-unofficial.0',
    binaryDir: '../binaries',
    abis: ['115'],
    glibc: '2.27',
  },
  {
    dependency: 'uws-node22-24',
    package: '@btc-vision/uwebsockets.js',
    version: '20.57.0',
    binaryDir: '.',
    abis: ['127', '137'],
    glibc: '2.38',
  },
];

/** Node.js major per supported module ABI (for messages). */
export const NODE_MAJOR_OF_ABI: Readonly<Record<string, number>> = { '115': 20, '127': 22, '137': 24 };

/** The outcome of `selectUwsBuild`. */
export type UwsSelection =
  | { readonly ok: true; readonly build: UwsBuild; readonly binaryFile: string }
  | { readonly ok: false; readonly reason: 'unsupported-abi'; readonly abi: string };

/**
 * Picks the build for a Node.js module ABI (`process.versions.modules`) and names the binary file for
 * the platform and architecture (`process.platform`, `process.arch`). Whether that file exists and
 * loads is the loader's concern. Returns `{ ok: false, reason: 'unsupported-abi' }` for any ABI no
 * build lists (Node 21, 23, 25 and later, or older lines).
 */
export function selectUwsBuild(abi: string, platform: string, arch: string): UwsSelection {
  const build = UWS_BUILDS.find((b) => b.abis.includes(abi));
  if (!build) return { ok: false, reason: 'unsupported-abi', abi };
  return { ok: true, build, binaryFile: `uws_${platform}_${arch}_${abi}.node` };
}

/** "Node.js 20 (ABI 115), 22 (ABI 127), 24 (ABI 137)", for messages. */
export function supportedRuntimes(): string {
  return Object.entries(NODE_MAJOR_OF_ABI)
    .map(([abi, major]) => `${major} (ABI ${abi})`)
    .join(', ');
}
