// Serves a built page (dist/) under a sub-path, gzip-compressed as GitHub Pages serves it, for
// scripts/lighthouse.sh. Usage: node scripts/serve-dist.mjs DIST PORT [/bagsim/]
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";

const [dist, port, base = "/bagsim/"] = process.argv.slice(2);
const types = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json",
  ".ico": "image/x-icon",
};
// Each file is compressed once (a server compressing the 2 MB wasm at every request took CPU from the browser
// under measurement on a 2-core machine; GitHub Pages serves compressed copies).
const compressed = new Map();
const gzipped = (rel, body) => {
  const hit = compressed.get(rel);
  if (hit && hit.source.equals(body)) return hit.gz;
  const gz = gzipSync(body, { level: 9 });
  compressed.set(rel, { source: body, gz });
  return gz;
};
createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (!path.startsWith(base)) { res.writeHead(404); return res.end(); }
  let rel = normalize(path.slice(base.length)).replace(/^(\.\.[/\\])+/, "");
  if (rel === "" || rel === "." || rel.endsWith("/")) rel = join(rel, "index.html");
  try {
    let body = await readFile(join(dist, rel));
    const headers = { "content-type": types[extname(rel)] ?? "application/octet-stream", "cache-control": "max-age=600" };
    if ((req.headers["accept-encoding"] ?? "").includes("gzip")) {
      body = gzipped(rel, body);
      headers["content-encoding"] = "gzip";
    }
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
}).listen(Number(port), "127.0.0.1");
