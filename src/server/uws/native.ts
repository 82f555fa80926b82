/**
 * @module server/uws/native: loading the uWebSockets.js build for the running Node.js ABI (native
 * binary only, ./builds.ts) and listening with an exclusive port (PITFALLS 9, 11).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { selectUwsBuild, supportedRuntimes, type UwsBuild } from './builds.js';

const require = createRequire(import.meta.url);

/** The uWebSockets.js module. */
export type UwsModule = typeof import('uWebSockets.js');

/** Why uWebSockets.js was not loaded (callers branch on `code`; the message is for the operator). */
export type UwsLoadErrorCode =
  | 'fallback_requested' // UWS_USE_FALLBACK is set
  | 'unsupported_abi' // no build for this Node.js line
  | 'build_not_installed' // the build's dependency is missing from node_modules
  | 'binary_failed' // the binary is missing for this platform or cannot be loaded (e.g. glibc too old)
  | 'fallback_loaded'; // a JavaScript shim answered instead of the native module

/** uWebSockets.js could not be loaded natively: the server refuses to start (PITFALLS 11). */
export class UwsLoadError extends Error {
  override readonly name = 'UwsLoadError';
  constructor(
    readonly code: UwsLoadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** What `loadNativeUws` loaded. */
export interface LoadedUws {
  readonly uws: UwsModule;
  readonly build: UwsBuild;
  /** Absolute path of the `.node` binary. */
  readonly binary: string;
}

/** The running Node.js as the build selection sees it. */
export interface UwsRuntime {
  /** `process.versions.modules`. */
  readonly abi: string;
  /** `process.platform`. */
  readonly platform: string;
  /** `process.arch`. */
  readonly arch: string;
}

/**
 * Largest request head (request line and headers) uWS accepts, in bytes: 32 KiB, nginx's default
 * ceiling (`large_client_header_buffers 4 8k`). uWS reads `UWS_HTTP_MAX_HEADERS_SIZE` once, when its
 * binary loads; the 20.57 build defaults to 4 KiB and answers a longer head with an HTML 431, where
 * the Node 20 build let it through to the route's JSON 404 (ids of 5,000 characters, the fuzz test's
 * paths of up to 20,000). An operator's own `UWS_HTTP_MAX_HEADERS_SIZE` is kept.
 */
export const UWS_MAX_HEADERS_BYTES = 32 * 1024;

const SEE_DOCS = 'see docs/operations.md, "Supported Node.js runtimes"';

/** The running C library (`glibc 2.36`), or `not glibc` (musl, macOS, Windows), for messages. */
function runtimeLibc(): string {
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime ? `glibc ${header.glibcVersionRuntime}` : 'not glibc';
}

/**
 * Loads the uWebSockets.js build that matches the running Node.js ABI (`selectUwsBuild`) by
 * requiring its `.node` binary directly, so that neither package's JavaScript wrapper can fall back
 * to a slow shim (PITFALLS 11), and checks that the native module answered (only it has `getParts`).
 * `runtime` defaults to this process; tests pass another ABI to see a failing load.
 * @throws UwsLoadError with a code and a message naming the Node.js version, the build, the binary
 *   and (on Linux) the glibc it needs against the one running.
 */
export function loadNativeUwsBuild(
  runtime: UwsRuntime = { abi: process.versions.modules, platform: process.platform, arch: process.arch },
): LoadedUws {
  if (/^(1|true)$/i.test(process.env['UWS_USE_FALLBACK'] ?? ''))
    throw new UwsLoadError(
      'fallback_requested',
      'UWS_USE_FALLBACK is set: refusing to run on the slow JavaScript fallback of uWebSockets.js',
    );
  const { abi, platform, arch } = runtime;
  const selection = selectUwsBuild(abi, platform, arch);
  if (!selection.ok)
    throw new UwsLoadError(
      'unsupported_abi',
      `Node.js ${process.version} (module ABI ${abi}) has no uWebSockets.js build here; supported: Node.js ${supportedRuntimes()} (${SEE_DOCS})`,
    );
  const { build, binaryFile } = selection;
  const label = `${build.dependency} (npm:${build.package}@${build.version})`;
  let main: string;
  try {
    main = require.resolve(build.dependency);
  } catch {
    throw new UwsLoadError('build_not_installed', `uWebSockets.js build ${label} is not installed: run npm ci`);
  }
  const binary = join(dirname(main), build.binaryDir, binaryFile);
  process.env['UWS_HTTP_MAX_HEADERS_SIZE'] ??= String(UWS_MAX_HEADERS_BYTES);
  let uws: UwsModule;
  try {
    uws = require(binary) as UwsModule;
  } catch (error) {
    const libc = platform === 'linux' ? `; it needs glibc >= ${build.glibc}, this system has ${runtimeLibc()}` : '';
    throw new UwsLoadError(
      'binary_failed',
      `uWebSockets.js build ${label} cannot be loaded on Node.js ${process.version} ${platform}-${arch} from ${binary}${libc} (${SEE_DOCS}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof uws.getParts !== 'function')
    throw new UwsLoadError('fallback_loaded', `${binary} is not the native uWebSockets.js module; refusing to start`);
  return { uws, build, binary };
}

/** `loadNativeUwsBuild().uws`: the native module or an UwsLoadError (see there). */
export function loadNativeUws(): UwsModule {
  return loadNativeUwsBuild().uws;
}

/** `LIBUS_LISTEN_EXCLUSIVE_PORT` of uSockets' ListenOptions (not exported at run time by this build). */
const LISTEN_EXCLUSIVE_PORT = 1;

/** Listens on host:port with an exclusive port (PITFALLS 9). Resolves the listen socket and the bound port. */
export function listen(
  uws: UwsModule,
  app: TemplatedApp,
  host: string,
  port: number,
): Promise<{ socket: us_listen_socket; port: number }> {
  return new Promise((resolve, reject) => {
    (
      app as unknown as { listen(h: string, p: number, o: number, cb: (s: us_listen_socket | false) => void): void }
    ).listen(host, port, LISTEN_EXCLUSIVE_PORT, (socket) => {
      if (!socket) reject(new Error(`cannot listen on ${host}:${port} (address in use or not available)`));
      else
        resolve({
          socket,
          port: uws.us_socket_local_port(socket),
        });
    });
  });
}
