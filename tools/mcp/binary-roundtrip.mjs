#!/usr/bin/env node
// binary-roundtrip.mjs — upload and download exact bytes through the official TypeScript SDK client.
//
// Usage: node binary-roundtrip.mjs <URL> <workdir> <size> [<size> ...] [--stale <path>]
// For each size: deterministic pseudo-random bytes are uploaded with upload_binary_file (data_base64) to
// rt-<size>.bin, then downloaded with download_binary_file. With --stale, one overwrite of <path> with a
// made-up expected_revision is attempted. Prints one JSON document: per size the local SHA-256, the upload
// and download results (blob replaced by its decoded size and SHA-256). Exit 0 unless the client fails.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const argv = process.argv.slice(2);
const [url, workdir] = argv;
const sizes = [];
let stale;
for (let i = 2; i < argv.length; i++) {
  if (argv[i] === '--stale') stale = argv[++i];
  else sizes.push(Number(argv[i]));
}

function bytes(size) {
  const out = Buffer.alloc(size);
  let x = 0x9e3779b9 ^ size;
  for (let i = 0; i < size; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}
const sha = (b) => createHash('sha256').update(b).digest('hex');
const text = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const client = new Client({ name: 'serverfs-binary-roundtrip', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const opts = { timeout: 120000 };
const results = [];
for (const size of sizes) {
  const data = bytes(size);
  const path = `rt-${size}.bin`;
  const entry = { size, sha256: sha(data) };
  let up;
  try {
    up = await client.callTool({ name: 'upload_binary_file', arguments: { workdir, path, data_base64: data.toString('base64') } }, undefined, opts);
  } catch (e) {
    entry.uploadError = String(e.message || e);
    results.push(entry);
    continue;
  }
  entry.upload = { isError: !!up.isError, text: up.isError ? text(up) : undefined, structured: up.structuredContent };
  if (!up.isError) {
    const down = await client.callTool({ name: 'download_binary_file', arguments: { workdir, path } }, undefined, opts);
    const item = (down.content || [])[0] || {};
    const blob = item.resource && item.resource.blob !== undefined ? Buffer.from(item.resource.blob, 'base64') : null;
    entry.download = {
      isError: !!down.isError,
      text: down.isError ? text(down) : undefined,
      structured: down.structuredContent,
      contentType: item.type,
      uri: item.resource && item.resource.uri,
      mimeType: item.resource && item.resource.mimeType,
      blobSize: blob ? blob.length : null,
      blobSha256: blob ? sha(blob) : null,
    };
  }
  results.push(entry);
}
const out = { results };
if (stale) {
  const r = await client.callTool({ name: 'upload_binary_file', arguments: { workdir, path: stale, data_base64: 'AAAA', overwrite: true, expected_revision: 'v1:0000000000000000' } }, undefined, opts);
  out.stale = { isError: !!r.isError, text: text(r) };
}
await client.close();
process.stdout.write(JSON.stringify(out) + '\n');
