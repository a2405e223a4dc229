import { build } from "esbuild";
const names = process.argv[2] || "compact";
const out = await build({ stdin: { contents: `export { ${names} } from "./src/index.ts";`, resolveDir: process.cwd(), loader: "ts" }, bundle: true, minify: true, format: "esm", platform: "browser", metafile: true, write: false, logLevel: "silent", splitting: true, outdir: "x" });
for (const [k, o] of Object.entries(out.metafile.outputs)) {
  console.log("==", k, o.bytes, o.imports.map(i => i.kind[0] + ":" + i.path.slice(2, 14)).join(" "));
  for (const [f, v] of Object.entries(o.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)) if (v.bytesInOutput > 150) console.log("   ", v.bytesInOutput, f);
}
