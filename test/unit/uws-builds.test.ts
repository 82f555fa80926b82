/** The uWebSockets.js build per Node.js ABI (docs/operations.md "Supported Node.js runtimes"): selection, pins, glibc figures, loading. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_MAJOR_OF_ABI, UWS_BUILDS, selectUwsBuild, type UwsBuild } from '../../src/server/uws/builds.js';
import { UWS_MAX_HEADERS_BYTES, UwsLoadError, listen, loadNativeUwsBuild } from '../../src/server/uws/native.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);
const TRUFFLESUITE = '@trufflesuite/uws-js-unofficial';
const BTC_VISION = '@btc-vision/uwebsockets.js';
/** The package each supported ABI must get, written out (not derived from UWS_BUILDS). */
const EXPECTED: Readonly<Record<string, string>> = { '115': TRUFFLESUITE, '127': BTC_VISION, '137': BTC_VISION };

const packageOf = (abi: string): string | undefined => {
  const s = selectUwsBuild(abi, 'linux', 'x64');
  return s.ok ? s.build.package : undefined;
};
const binaryPath = (
  build: UwsBuild,
  abi: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string => join(dirname(require.resolve(build.dependency)), build.binaryDir, `uws_${platform}_${arch}_${abi}.node`);

it('selects the trufflesuite build for Node 20 (ABI 115) and the btc-vision build for Node 22 (127) and 24 (137)', () => {
  for (const [abi, pkg] of Object.entries(EXPECTED)) assert.equal(packageOf(abi), pkg, `ABI ${abi}`);
  const s = selectUwsBuild('137', 'linux', 'arm64');
  assert.ok(s.ok);
  assert.equal(s.binaryFile, 'uws_linux_arm64_137.node');
});

it('selects no build for Node 18, 21, 23 and 25 (ABI 108, 120, 131, 141) or an unknown ABI', () => {
  for (const abi of ['108', '120', '131', '141', '', 'x'])
    assert.deepEqual(selectUwsBuild(abi, 'linux', 'x64'), { ok: false, reason: 'unsupported-abi', abi });
});

it('pins every build to an exact version in package.json and an integrity hash in package-lock.json', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    engines: { node: string };
  };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { name?: string; version?: string; integrity?: string }>;
  };
  for (const build of UWS_BUILDS) {
    assert.equal(pkg.dependencies[build.dependency], `npm:${build.package}@${build.version}`);
    const entry = lock.packages[`node_modules/${build.dependency}`];
    assert.equal(entry?.name, build.package);
    assert.equal(entry?.version, build.version);
    assert.match(entry?.integrity ?? '', /^sha512-[A-Za-z0-9+/]{86}==$/);
  }
  for (const major of Object.values(NODE_MAJOR_OF_ABI))
    assert.match(pkg.engines.node, new RegExp(`>=${major}(\\.\\d+)* <${major + 1}\\b`), `engines admits Node ${major}`);
  assert.deepEqual(Object.keys(NODE_MAJOR_OF_ABI).sort(), UWS_BUILDS.flatMap((b) => b.abis).sort());
});

it('ships a linux x64 and arm64 binary for every listed ABI, needing exactly the glibc its build states', () => {
  for (const build of UWS_BUILDS)
    for (const abi of build.abis)
      for (const arch of ['x64', 'arm64']) {
        const file = binaryPath(build, abi, 'linux', arch);
        assert.ok(existsSync(file), file);
        // The highest GLIBC_x.y symbol version in the dynamic string table (what `objdump -T` shows).
        const versions =
          readFileSync(file)
            .toString('latin1')
            .match(/GLIBC_2\.\d+/g) ?? [];
        const highest = Math.max(...versions.map((v) => Number(v.slice('GLIBC_2.'.length))));
        assert.equal(`2.${highest}`, build.glibc, file);
      }
});

it('loads the native build selected for the running Node.js (trufflesuite on Node 20)', () => {
  const abi = process.versions.modules;
  const loaded = loadNativeUwsBuild();
  assert.equal(loaded.build.package, EXPECTED[abi], `Node ${process.version} (ABI ${abi})`);
  assert.equal(loaded.binary, binaryPath(loaded.build, abi));
  assert.equal(typeof loaded.uws.getParts, 'function', 'the native module, not a JavaScript fallback');
  assert.equal(typeof loaded.uws.App, 'function');
});

it('fails loudly, naming the build, the binary and the glibc it needs, when the binary cannot load', () => {
  // The other line's binary: on Node 20 the Node 24 build (glibc 2.38 on a 2.36 system, or the wrong
  // ABI); on Node 22/24 the Node 20 build (the wrong ABI). Either way dlopen or registration fails.
  const other = process.versions.modules === '115' ? '137' : '115';
  const runtime = { abi: other, platform: process.platform, arch: process.arch };
  const build = UWS_BUILDS.find((b) => b.abis.includes(other));
  assert.ok(build);
  assert.throws(
    () => loadNativeUwsBuild(runtime),
    (e: unknown) =>
      e instanceof UwsLoadError &&
      e.code === 'binary_failed' &&
      e.message.includes(`npm:${build.package}@${build.version}`) &&
      e.message.includes(binaryPath(build, other)) &&
      e.message.includes(`glibc >= ${build.glibc}`) &&
      e.message.includes('Supported Node.js runtimes'),
  );
});

it('refuses an ABI without a build and a requested JavaScript fallback, with typed codes', () => {
  assert.throws(
    () => loadNativeUwsBuild({ abi: '141', platform: process.platform, arch: process.arch }),
    (e: unknown) =>
      e instanceof UwsLoadError &&
      e.code === 'unsupported_abi' &&
      /module ABI 141/.test(e.message) &&
      e.message.includes('20 (ABI 115), 22 (ABI 127), 24 (ABI 137)'),
  );
  const saved = process.env['UWS_USE_FALLBACK'];
  process.env['UWS_USE_FALLBACK'] = 'true';
  try {
    assert.throws(
      () => loadNativeUwsBuild(),
      (e: unknown) => e instanceof UwsLoadError && e.code === 'fallback_requested',
    );
  } finally {
    if (saved === undefined) delete process.env['UWS_USE_FALLBACK'];
    else process.env['UWS_USE_FALLBACK'] = saved;
  }
});

/** Sends one raw GET with a path of `length` characters and resolves the status line. */
function statusLineFor(port: number, length: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET /${'a'.repeat(length)} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

it('lets request heads of up to 32 KiB through to the routes on every build (the 20.57 build would answer 431 above 4 KiB)', async () => {
  const { uws } = loadNativeUwsBuild();
  assert.equal(process.env['UWS_HTTP_MAX_HEADERS_SIZE'], String(UWS_MAX_HEADERS_BYTES));
  const app = uws.App();
  app.any('/*', (res) => {
    res.end('ok');
  });
  const { socket, port } = await listen(uws, app, '127.0.0.1', 0);
  try {
    for (const length of [5_000, 20_000, UWS_MAX_HEADERS_BYTES - 1_024])
      assert.equal(await statusLineFor(port, length), 'HTTP/1.1 200 OK', `a path of ${length} characters`);
  } finally {
    uws.us_listen_socket_close(socket);
  }
});
