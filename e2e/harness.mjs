// What the browser tests share: the agkit binary, starting `agkit serve`
// and reading the URL it prints, and launching Debian's headless Chromium
// (driven by the pinned playwright-core) the same way every time.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..');
// The debug build `cargo build` made, in CARGO_TARGET_DIR when that is set.
export const bin =
  process.env.AGKIT_BIN ||
  path.join(path.resolve(repo, process.env.CARGO_TARGET_DIR || 'target'), 'debug', 'agkit');
export const artifacts = path.join(here, 'artifacts');

/**
 * Starts `agkit serve PATH --port 0 [...extra]` and resolves with
 * {child, url}: the whole URL it prints, `#tile=…` included when it opens
 * a tile.
 */
export function serve(target, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['serve', target, '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed; got ${JSON.stringify(buf)}`)), 15000);
    child.on('error', reject);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/agkit serve: (http:\/\/127\.0\.0\.1:\d+\/\S*)\n/);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
  });
}

/** Headless Chromium with its profile in `userData` (software WebGL 2). */
export function launch(userData, viewport = { width: 1400, height: 860 }) {
  return chromium.launchPersistentContext(userData, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
  });
}
