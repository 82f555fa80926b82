/** @module bench/servers/uws-hello: bare uWS hello-world answering every request with a fixed body of BODY_BYTES (the front-end limit). */
import { loadNativeUws } from '../../src/server/uws/native.js';

const uws = loadNativeUws(); // the build for this Node.js ABI, never the JavaScript fallback
const size = Number(process.env['BODY_BYTES'] ?? 200);
const prefix = '{"ok":true,"data":{"pad":"';
const suffix = '"},"meta":{"watermark":"wm_00000000"}}';
const body = prefix + 'x'.repeat(Math.max(0, size - prefix.length - suffix.length)) + suffix;
const app = uws.App();
app.any('/*', (res) => {
  res.cork(() => {
    res.writeStatus('200 OK');
    res.writeHeader('content-type', 'application/json; charset=utf-8');
    res.end(body);
  });
});
app.listen('127.0.0.1', 0, (token) => {
  if (!token) process.exit(1);
  process.stdout.write(`listening on http://127.0.0.1:${uws.us_socket_local_port(token)}/\n`);
});
