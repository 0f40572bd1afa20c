// Preload (node -r) for supergateway: it parses request bodies with express.json()'s default 100 kB limit,
// which refuses an 8 MiB base64 argument with HTTP 413 before the peer sees it; this raises the limit to 64 MB.
// The express patched is the one supergateway itself resolves (from its own directory, process.argv[1]).
const path = require('node:path');
const express = require(require.resolve('express', { paths: [path.dirname(process.argv[1])] }));
const json = express.json;
express.json = (opts) => json({ limit: '64mb', ...(opts || {}) });
