// Builds ../static/vendor/codemirror.js (one minified ES module) and its LICENSES file.
// The banner names every bundled package with its version and the sha256 of
// package-lock.json, so a test can tell the committed bundle came from this lock.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, "..", "static", "vendor");
const lockText = readFileSync(join(here, "package-lock.json"));
const lockHash = createHash("sha256").update(lockText).digest("hex");

// A first pass finds which packages end up in the bundle.
const probe = await esbuild.build({
  entryPoints: [join(here, "entry.js")], bundle: true, format: "esm", write: false,
  metafile: true, minify: true, target: "es2020", logLevel: "silent",
});
const packages = new Map();
for (const input of Object.keys(probe.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (!m || packages.has(m[1])) continue;
  const dir = join(here, "node_modules", m[1]);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  packages.set(m[1], { version: pkg.version, license: pkg.license, dir });
}
const names = [...packages.keys()].sort();
const banner = [
  "/* CodeMirror 6 for Tabletop Studio, built by interpreter/studio/vendor (npm run build).",
  ` * package-lock.json sha256: ${lockHash}`,
  " * Bundled packages (licences in LICENSES.txt beside this file):",
  ...names.map((n) => ` *   ${n}@${packages.get(n).version} (${packages.get(n).license})`),
  " */",
].join("\n");

await esbuild.build({
  entryPoints: [join(here, "entry.js")], bundle: true, format: "esm", minify: true,
  target: "es2020", legalComments: "none", banner: { js: banner },
  outfile: join(outDir, "codemirror.js"), logLevel: "warning",
});

const licences = names.map((n) => {
  const { version, license, dir } = packages.get(n);
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => join(dir, f))
    .find((f) => existsSync(f));
  const text = file ? readFileSync(file, "utf8").trim() : `Licence: ${license}`;
  return `${"=".repeat(78)}\n${n}@${version} (${license})\n${"=".repeat(78)}\n${text}\n`;
});
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "LICENSES.txt"),
  "Third-party software bundled in codemirror.js.\n\n" + licences.join("\n"));
console.log(`codemirror.js: ${names.length} packages, lock ${lockHash.slice(0, 12)}`);
