/**
 * @module server/uws/native: loading uWebSockets.js (native build only) and listening with an
 * exclusive port (PITFALLS 9, 11).
 */
import { createRequire } from 'node:module';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';

const require = createRequire(import.meta.url);

/** The uWebSockets.js module. */
export type UwsModule = typeof import('uWebSockets.js');

/**
 * Loads uWebSockets.js and refuses the slow JavaScript fallback (PITFALLS 11): only the native
 * module has `getParts`. @throws Error when the native binary is not loaded.
 */
export function loadNativeUws(): UwsModule {
  if (/^(1|true)$/i.test(process.env['UWS_USE_FALLBACK'] ?? ''))
    throw new Error('UWS_USE_FALLBACK is set: refusing to run on the slow JavaScript fallback of uWebSockets.js');
  const uws = require('uWebSockets.js') as UwsModule;
  if (typeof uws.getParts !== 'function')
    throw new Error('uWebSockets.js native binary did not load (JavaScript fallback detected); refusing to start');
  return uws;
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
