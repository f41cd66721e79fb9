'use strict';
// The document root, loaded into memory once at start (the same strategy as the EventMachine
// server: see CONTRACT.md "How files are served"). Only regular files that were under the root at
// start can ever be served, so no request path can reach outside it.

const fs = require('node:fs');
const path = require('node:path');

function contentTypeFor(fileName, contract) {
  const ext = path.extname(fileName).toLowerCase();
  return contract.content_types[ext] || contract.default_content_type;
}

/** Walks the root: Map of '/relative/path' → { body, type }, plus the set of folder paths. */
function loadSite(root, contract) {
  const files = new Map();
  const folders = new Set(['/']);
  const walk = (dir, urlPrefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue; // hidden files are never served
      const full = path.join(dir, entry.name);
      const urlPath = urlPrefix + entry.name;
      if (entry.isDirectory()) {
        folders.add(urlPath);
        walk(full, `${urlPath}/`);
      } else if (entry.isFile()) {
        files.set(urlPath, { body: fs.readFileSync(full), type: contentTypeFor(entry.name, contract) });
      }
      // Symbolic links and special files are skipped: they could point outside the root.
    }
  };
  walk(root, '/');
  return { files, folders };
}

/**
 * Turns a request path (already split from its query) into a site key, or returns null when
 * the path is not acceptable: bad percent-escapes, invalid UTF-8, encoded slashes or
 * backslashes, NUL, or any '.'/'..' segment.
 */
function decodeSitePath(rawPath) {
  if (/%(2f|5c|00)/i.test(rawPath)) return null;
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return null;
  return decoded;
}

/** Finds the file for a decoded path: a folder serves its index.html. */
function lookup(site, decodedPath) {
  const file = site.files.get(decodedPath);
  if (file) return file;
  const folder = decodedPath.endsWith('/') ? decodedPath.slice(0, -1) || '/' : decodedPath;
  if (site.folders.has(folder)) {
    return site.files.get(folder === '/' ? '/index.html' : `${folder}/index.html`) || null;
  }
  return null;
}

module.exports = { loadSite, decodeSitePath, lookup };
