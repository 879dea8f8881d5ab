// `npm ci && npm run build`: bundle src/ into one self-contained build/index.html (no URL
// loads, nothing fetched at run time) and record the hash of everything it was built from.
// tests/frontend/test_json_editor_bundle.py recomputes that hash in Python, without node.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const HERE = new URL(".", import.meta.url).pathname;
const INPUTS = ["build.mjs", "package.json", "package-lock.json"];

function sourceFiles() {
  const src = readdirSync(join(HERE, "src")).sort().map((name) => `src/${name}`);
  return [...INPUTS, ...src].sort();
}

/** sha256 over each input's relative path and bytes, in path order (mirrored in Python). */
function sourcesHash() {
  const hash = createHash("sha256");
  for (const path of sourceFiles()) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(HERE, path)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const result = await build({
  entryPoints: [join(HERE, "src/editor.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  charset: "utf8",
  write: false,
});
const script = result.outputFiles[0].text.replaceAll("</script", "<\\/script");
// The page around the bundle is minified too: one line, as the script is, not a copy of
// src/index.html's lines.
const template = readFileSync(join(HERE, "src/index.html"), "utf8");
const page = template.split("\n").map((line) => line.trim()).join("");
const html = `${page.replace("/*BUNDLE*/", () => script)}\n`;
mkdirSync(join(HERE, "build"), { recursive: true });
writeFileSync(join(HERE, "build/index.html"), html);
const manifest = {
  sources_sha256: sourcesHash(),
  bundle_sha256: createHash("sha256").update(html).digest("hex"),
  command: "npm ci && npm run build",
};
writeFileSync(join(HERE, "build/manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`build/index.html: ${html.length} bytes, sources ${manifest.sources_sha256}`);
