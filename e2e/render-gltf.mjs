// Renders a .glb in headless Chromium with three.js (both pinned in
// package-lock.json) and saves a screenshot: how docs/img/demo_3d.png is
// made.
//
//   node e2e/render-gltf.mjs SCENE.glb OUT.png [WIDTH HEIGHT]
//
// The page (served from a throwaway local HTTP server) loads the scene with
// three's GLTFLoader, looks at it from the south-east and above, lit by a
// sun and the sky, and says when the first frame is drawn; WebGL runs on
// Chromium's software renderer (SwiftShader), so no GPU is needed.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const [scene, out, w = '1000', h = '600'] = process.argv.slice(2);
if (!scene || !out) {
  console.error('usage: node e2e/render-gltf.mjs SCENE.glb OUT.png [WIDTH HEIGHT]');
  process.exit(2);
}
const width = Number(w);
const height = Number(h);
const here = path.dirname(fileURLToPath(import.meta.url));
const three = path.join(here, 'node_modules', 'three');

const page = `<!doctype html>
<html><head><meta charset="utf-8"><style>html,body{margin:0;background:#cfdbe6}</style>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setSize(${width}, ${height});
renderer.setPixelRatio(1);
renderer.shadowMap.enabled = true;
document.body.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xcfdbe6);
scene.add(new THREE.HemisphereLight(0xdfe8f5, 0x5a5040, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
scene.add(sun);
scene.add(sun.target);
new GLTFLoader().load('/scene.glb', (gltf) => {
  const root = gltf.scene;
  root.traverse((o) => { if (o.isMesh) { o.castShadow = true; o.receiveShadow = true; } });
  scene.add(root);
  const box = new THREE.Box3().setFromObject(root);
  const size = box.getSize(new THREE.Vector3());
  const centre = box.getCenter(new THREE.Vector3());
  const r = box.getBoundingSphere(new THREE.Sphere()).radius;
  const fov = 35;
  const camera = new THREE.PerspectiveCamera(fov, ${width} / ${height}, r / 100, r * 20);
  // From the south-east (+x, +z) and above, far enough for the whole
  // bounding sphere to fit the view.
  const dist = r / Math.sin((fov / 2) * Math.PI / 180) * 0.72;
  const dir = new THREE.Vector3(0.5, 0.55, 0.85).normalize();
  camera.position.copy(centre).addScaledVector(dir, dist);
  camera.lookAt(centre);
  // Then fit the picture to the scene: its box's corners, projected, fill
  // 94 % of the larger side, centred.
  camera.updateMatrixWorld();
  const lo = new THREE.Vector2(Infinity, Infinity);
  const hi = new THREE.Vector2(-Infinity, -Infinity);
  for (const x of [box.min.x, box.max.x]) for (const y of [box.min.y, box.max.y]) for (const z of [box.min.z, box.max.z]) {
    const p = new THREE.Vector3(x, y, z).project(camera);
    lo.min(new THREE.Vector2(p.x, p.y));
    hi.max(new THREE.Vector2(p.x, p.y));
  }
  camera.zoom = 0.94 / Math.max((hi.x - lo.x) / 2, (hi.y - lo.y) / 2);
  const cx = ((lo.x + hi.x) / 2) * camera.zoom;
  const cy = ((lo.y + hi.y) / 2) * camera.zoom;
  camera.setViewOffset(${width}, ${height}, (cx * ${width}) / 2, (-cy * ${height}) / 2, ${width}, ${height});
  camera.updateProjectionMatrix();
  sun.position.set(centre.x - r, centre.y + r * 2, centre.z + r * 0.6);
  sun.target.position.copy(centre);
  const cam = sun.shadow.camera;
  cam.left = -r * 1.5; cam.right = r * 1.5; cam.top = r * 1.5; cam.bottom = -r * 1.5;
  cam.near = 1; cam.far = r * 6;
  sun.shadow.mapSize.set(2048, 2048);
  sun.castShadow = true;
  renderer.render(scene, camera);
  window.rendered = { meshes: 0 };
  root.traverse((o) => { if (o.isMesh) window.rendered.meshes += 1; });
}, undefined, (e) => { window.failed = String(e && e.message || e); });
</script></body></html>`;

const types = { '.js': 'text/javascript', '.glb': 'model/gltf-binary', '.html': 'text/html' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file;
  if (url === '/favicon.ico') {
    res.writeHead(204);
    return res.end();
  } else if (url === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end(page);
  } else if (url === '/scene.glb') {
    file = scene;
  } else if (url.startsWith('/three/') && !url.includes('..')) {
    file = path.join(three, url.slice('/three/'.length));
  }
  if (!file || !fs.existsSync(file)) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const port = server.address().port;

const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-render-chromium-'));
let ctx;
try {
  ctx = await chromium.launchPersistentContext(userData, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width, height },
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-first-run'],
  });
  const tab = ctx.pages()[0] ?? (await ctx.newPage());
  tab.on('console', (m) => { if (m.type() === 'error') console.error(`page: ${m.text()}`); });
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.waitForFunction(() => window.rendered || window.failed, null, { timeout: 120_000 });
  const failed = await tab.evaluate(() => window.failed);
  if (failed) throw new Error(`three.js could not load the scene: ${failed}`);
  const { meshes } = await tab.evaluate(() => window.rendered);
  await tab.locator('canvas').screenshot({ path: out });
  console.log(`${out}: ${width}x${height}, ${meshes} meshes drawn`);
} finally {
  if (ctx) await ctx.close();
  server.close();
  fs.rmSync(userData, { recursive: true, force: true });
}
