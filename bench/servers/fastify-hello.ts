/** @module bench/servers/fastify-hello: bare Fastify hello-world with the same body (what a team would pick instead of uWS). */
import Fastify from 'fastify';

const size = Number(process.env['BODY_BYTES'] ?? 200);
const prefix = '{"ok":true,"data":{"pad":"';
const suffix = '"},"meta":{"watermark":"wm_00000000"}}';
const body = prefix + 'x'.repeat(Math.max(0, size - prefix.length - suffix.length)) + suffix;
const app = Fastify({ logger: false });
app.all('/*', async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
app.listen({ host: '127.0.0.1', port: 0 }).then(
  (address) => process.stdout.write(`listening on ${address}/\n`),
  () => process.exit(1),
);
