/** @module test/helpers/tcp-sink: a plain TCP server on loopback that counts the connections and bytes it receives (and answers nothing). */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A listening sink; `close()` ends every open connection and stops listening. */
export interface TcpSink {
  readonly port: number;
  readonly connections: number;
  readonly bytes: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with a port from the OS. */
export async function startTcpSink(): Promise<TcpSink> {
  let connections = 0;
  let bytes = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    get bytes() {
      return bytes;
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
