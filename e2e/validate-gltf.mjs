// Validates glTF files with the Khronos glTF validator (npm
// `gltf-validator`, pinned in package-lock.json) and fails on any error.
//
//   node e2e/validate-gltf.mjs FILE_OR_DIR...
//
// A folder is searched (not recursively) for .glb and .gltf files. Each
// file prints one line with its counts; warnings are listed, errors too,
// and any error (or no file at all) makes the exit status 1.
import fs from 'node:fs';
import path from 'node:path';
import validator from 'gltf-validator';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node e2e/validate-gltf.mjs FILE_OR_DIR...');
  process.exit(2);
}

const files = [];
for (const a of args) {
  if (fs.statSync(a).isDirectory()) {
    for (const f of fs.readdirSync(a).sort()) {
      if (/\.(glb|gltf)$/i.test(f)) files.push(path.join(a, f));
    }
  } else {
    files.push(a);
  }
}
if (files.length === 0) {
  console.error(`error: no .glb or .gltf file in ${args.join(' ')}`);
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    // Our files embed everything: an external resource is itself a fault.
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const i = report.issues;
  console.log(
    `${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints` +
      ` (${report.info?.totalTriangleCount ?? '?'} triangles drawn, ${report.info?.drawCallCount ?? '?'} draw calls)`,
  );
  for (const m of i.messages) {
    if (m.severity <= 1) {
      const what = m.severity === 0 ? 'error' : 'warning';
      console.log(`  ${what}: ${m.code}: ${m.message} (${m.pointer ?? m.offset ?? ''})`);
    }
  }
  if (i.numErrors > 0) failed += 1;
}
if (failed > 0) {
  console.error(`error: ${failed} of ${files.length} glTF files have errors`);
  process.exit(1);
}
