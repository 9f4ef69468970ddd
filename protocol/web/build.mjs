// Bundles the page into dist/ (what the Go binary embeds). Deterministic:
// the same sources and package-lock.json give the same bytes, so CI can
// rebuild and compare (`make web`, .ci/run).
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";

const out = "dist";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The SDK's client compiles output schemas with Ajv, which generates code
// with new Function: a strict Content-Security-Policy forbids that. The
// page trusts its own server's results, so the validator is a stub.
const noAjv = {
  name: "no-ajv",
  setup(b) {
    b.onResolve({ filter: /ajv-provider\.js$/ }, () => ({ path: "ajv-stub", namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export class AjvJsonSchemaValidator { getValidator() { return (input) => ({ valid: true, data: input, errorMessage: undefined }); } }",
      loader: "js",
    }));
  },
};

const result = await esbuild.build({
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  splitting: true,
  format: "esm",
  outdir: out,
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  target: "es2022",
  legalComments: "external",
  charset: "utf8",
  metafile: true,
  plugins: [noAjv],
  logLevel: "warning",
});
esbuild.build({ entryPoints: { app: "src/style.css" }, bundle: true, minify: true, outdir: out, logLevel: "warning" }).then(() => {
  copyFileSync("src/index.html", `${out}/index.html`);
  const sizes = Object.entries(result.metafile.outputs).map(([f, o]) => `${f} ${o.bytes}`);
  console.log(sizes.join("\n"));
});
