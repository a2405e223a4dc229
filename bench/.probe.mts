import { build } from "esbuild";
const names = process.argv[2];
const out = await build({ stdin: { contents: `export { ${names} } from "./src/index.ts";`, resolveDir: "/work/main", loader: "ts" }, bundle: true, minify: true, format: "esm", platform: "browser", metafile: true, write: false, logLevel: "silent" });
const rows = Object.entries(Object.values(out.metafile.outputs)[0].inputs).map(([k, v]) => [k, v.bytesInOutput]).sort((a, b) => b[1] - a[1]);
for (const [k, v] of rows) console.log(String(v).padStart(7), k);
