// Bundles the page into dist/ (what the Go binary embeds). Deterministic:
// the same sources and package-lock.json give the same bytes, so CI can
// rebuild and compare (`make web`, .ci/run).
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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

// xterm.js styles its terminal with <style> elements (the theme, the
// cell size) and style attributes (true colours), which the page's CSP
// forbids: its style elements become constructed style sheets adopted by
// the document, its style attributes CSSOM. The build fails if xterm
// changes under us.
const xtermAdopted = {
  name: "xterm-adopted",
  setup(b) {
    b.onLoad({ filter: /@xterm[\\/]xterm[\\/]lib[\\/]xterm\.mjs$/ }, async (args) => {
      let src = await readFile(args.path, "utf8");
      const swaps = [
        ['n.mainDocument.createElement("style")', "__adoptedStyle(n.mainDocument)", 1],
        ['this._document.createElement("style")', "__adoptedStyle(this._document)", 2],
        ['_addStyle(t,e){t.setAttribute("style",`${t.getAttribute("style")||""}${e};`)}', "_addStyle(t,e){t.style.cssText+=`;${e};`}", 1],
      ];
      for (const [from, to, n] of swaps) {
        if (src.split(from).length - 1 !== n) throw new Error(`xterm changed: ${from} is not there ${n} times (see build.mjs)`);
        src = src.replaceAll(from, to);
      }
      // An element standing for a <style>: its text goes to an adopted sheet, which goes with it.
      const adopted = `function __adoptedStyle(d){const s=new CSSStyleSheet(),e=d.createElement("xterm-style"),rm=e.remove.bind(e);e.hidden=!0;` +
        `Object.defineProperty(e,"textContent",{get(){return[...s.cssRules].map(r=>r.cssText).join("\\n")},set(v){s.replaceSync(v)}});` +
        `e.remove=()=>{d.adoptedStyleSheets=d.adoptedStyleSheets.filter(x=>x!==s);rm()};d.adoptedStyleSheets=[...d.adoptedStyleSheets,s];return e}\n`;
      return { contents: adopted + src, loader: "js" };
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
  plugins: [noAjv, adoptedStyles, xtermAdopted],
  loader: { ".css": "text" }, // xterm's style sheet, for a constructed one (views/terminal.ts)
  logLevel: "warning",
});
// MCP Apps (ui:// resources, protocol/apps.go): each View is one HTML
// document with its script and style inline, which a host renders in its
// own sandboxed iframe (not this server's page, whose CSP forbids inline
// script). dist/apps/NAME.html is what resources/read returns.
mkdirSync(`${out}/apps`, { recursive: true });
for (const name of ["merge"]) {
  const js = await esbuild.build({ entryPoints: [`src/apps/${name}.ts`], bundle: true, format: "iife", minify: true, target: "es2022", charset: "utf8", write: false, legalComments: "none", logLevel: "warning" });
  const css = await esbuild.build({ entryPoints: [`src/apps/${name}.css`], bundle: true, minify: true, write: false, logLevel: "warning" });
  const script = js.outputFiles[0].text.replaceAll("</script", "<\\/script");
  writeFileSync(
    `${out}/apps/${name}.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>editord ${name}</title><style>${css.outputFiles[0].text}</style></head><body><script>${script}</script></body></html>\n`,
  );
}

esbuild.build({ entryPoints: { app: "src/style.css" }, bundle: true, minify: true, outdir: out, logLevel: "warning" }).then(() => {
  copyFileSync("src/index.html", `${out}/index.html`);
  const sizes = Object.entries(result.metafile.outputs).map(([f, o]) => `${f} ${o.bytes}`);
  console.log(sizes.join("\n"));
});
