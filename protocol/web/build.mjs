// Bundles the page into dist/ (what the Go binary embeds). Deterministic:
// the same sources and package-lock.json give the same bytes, so CI can
// rebuild and compare (`make web`, .ci/run).
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";

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

// CodeMirror injects its styles through style-mod, which uses a <style>
// element in a document (adopted style sheets only in shadow roots); the
// CSP allows no inline style element. Constructed style sheets are CSSOM,
// not markup, and every browser the page supports has them: use them in
// the document too. The build fails if style-mod changes under us.
const adoptedStyles = {
  name: "style-mod-adopted",
  setup(b) {
    b.onLoad({ filter: /style-mod[\\/]src[\\/]style-mod\.js$/ }, async (args) => {
      const src = await readFile(args.path, "utf8");
      const from = "if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {";
      if (!src.includes(from)) throw new Error("style-mod changed: cannot make it use adopted style sheets (see build.mjs)");
      return { contents: src.replace(from, "if (root.adoptedStyleSheets && win.CSSStyleSheet) {"), loader: "js" };
    });
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
  plugins: [noAjv, adoptedStyles],
  logLevel: "warning",
});
esbuild.build({ entryPoints: { app: "src/style.css" }, bundle: true, minify: true, outdir: out, logLevel: "warning" }).then(() => {
  copyFileSync("src/index.html", `${out}/index.html`);
  const sizes = Object.entries(result.metafile.outputs).map(([f, o]) => `${f} ${o.bytes}`);
  console.log(sizes.join("\n"));
});
