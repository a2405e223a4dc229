// Small timing and reporting helpers for `npm run bench` (Node only).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { build } from "esbuild";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median milliseconds of `fn` over `runs` runs after `warmup` unmeasured ones. */
export async function time(fn: () => unknown, runs = 30, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

/**
 * src/'s `entries` as an app ships them (each at its path under src/, `.js`): one esbuild bundle (ESM, split, minified) in a directory of
 * its own with `"type": "module"` (without it Node 20 parses each chunk as CommonJS first, to detect its
 * syntax). What the bench times, not tsx's transform of each module: tsx compiles with esbuild's
 * `keepNames`, which wraps every function, and each closure made in a pass pays a call to name it (a
 * warm 32k compact ~6.9 ms through tsx, ~5.5 from the bundle, round 16). `use` runs with it; the
 * directory is removed after, whatever `use` does.
 */
export async function packaged<T>(entries: string[], use: (bundle: { dir: string; load: <M>(entry: string) => Promise<M> }) => Promise<T>): Promise<T> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "cc-bench-"));
  try {
    await build({ entryPoints: entries.map((e) => join(root, e)), outbase: join(root, "src"), bundle: true, splitting: true, format: "esm", platform: "neutral", minify: true, outdir: dir, logLevel: "warning" });
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
    return await use({ dir, load: (entry) => import(join(dir, entry)) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function machine(): string {
  return `${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`;
}

export interface BundleSize {
  /** Loaded with the import: the entry chunk and what it imports statically. */
  minified: number;
  gzip: number;
  code: string;
  /** Loaded later, on first use (through import()), in bundlers that split code; inlined in those that do not. */
  lazyGzip: number;
  lazyCode: string;
  /**
   * What a first summary by the deterministic summarizer (the default) loads after the import: all
   * the import can load but the code only a model summarizer loads (MODEL_ONLY). test/lazy-load.test.ts
   * checks at run time that a deterministic pass never loads those modules.
   */
  summaryGzip: number;
}

/** Modules only a model summarizer loads (the prompt, streaming redaction of its deltas), each through its own import(). */
const MODEL_ONLY = ["src/summarize/prompt.ts", "src/redact/stream.ts"];

const gzip = (code: Uint8Array) => gzipSync(code, { level: 9 }).length;

/**
 * What a user's bundle gains from `import { names } from entry` (all exports when names is omitted):
 * esbuild, browser, minified, code splitting on, as an app's bundler would build it.
 */
export async function bundleSize(entry: string, names?: string[]): Promise<BundleSize> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const contents = names ? `export { ${names.join(", ")} } from "./${entry}";` : `export * from "./${entry}";`;
  const out = await build({
    entryPoints: ["size-probe"],
    plugins: [
      {
        name: "probe", // the import statement as a user would write it, as the only entry point
        setup(b) {
          b.onResolve({ filter: /^size-probe$/ }, () => ({ path: "probe", namespace: "probe" }));
          b.onLoad({ filter: /.*/, namespace: "probe" }, () => ({ contents, resolveDir: root, loader: "ts" }));
        },
      },
    ],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: "size-probe",
    absWorkingDir: root,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const files = new Map(out.outputFiles.map((f) => [f.path, f.contents]));
  const outputs = out.metafile.outputs;
  const entryPath = Object.keys(outputs).find((k) => outputs[k].entryPoint === "probe:probe")!;
  // The static closure of the entry chunk is loaded with the import; every other chunk it can reach
  // (through import(), then their own imports) is loaded later, on first use.
  const closure = (starts: string[], kinds: string[]) => {
    const seen = new Set<string>();
    const visit = (p: string) => {
      if (seen.has(p)) return;
      seen.add(p);
      for (const i of outputs[p].imports) if (kinds.includes(i.kind)) visit(i.path);
    };
    starts.forEach(visit);
    return seen;
  };
  const loaded = closure([entryPath], ["import-statement"]);
  const reachable = closure([entryPath], ["import-statement", "dynamic-import"]);
  const concat = (paths: string[]) => paths.map((p) => new TextDecoder().decode(files.get(resolve(root, p)))).join("\n");
  const eager = [...loaded];
  const lazy = [...reachable].filter((p) => !loaded.has(p));
  // Without a model summarizer, the chunks only its import()s reach are never loaded.
  const modelOnly = new Set(Object.keys(outputs).filter((p) => MODEL_ONLY.includes(outputs[p].entryPoint ?? "")));
  const withoutModel = (starts: string[]) => {
    const seen = new Set<string>();
    const visit = (p: string) => {
      if (seen.has(p) || modelOnly.has(p)) return;
      seen.add(p);
      for (const i of outputs[p].imports) visit(i.path);
    };
    starts.forEach(visit);
    return seen;
  };
  const summary = [...withoutModel([entryPath])].filter((p) => !loaded.has(p));
  const code = concat(eager);
  const lazyCode = concat(lazy);
  const bytes = new TextEncoder().encode(code);
  const gzipOf = (paths: string[]) => (paths.length ? gzip(new TextEncoder().encode(concat(paths))) : 0);
  return { minified: bytes.length, gzip: gzip(bytes), code, lazyGzip: gzipOf(lazy), lazyCode, summaryGzip: gzipOf(summary) };
}

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * Gzip budgets (bytes) of what a user imports: `budget` for what loads with the import, `total` a guard
 * against growth of everything the import can load later too (writing the result, the summary stage,
 * the checkpoint writer, the model prompt). Issue 16 set 15 / 16.5 / 17.5 / 10 KB (16.5 for
 * `openAIResponses` too). Issue 27 moved them for valibot at the boundary (~1.85 KB gzip with every
 * check it replaced gone): `{ compact }` 17.5 KB, the others by as much; `{ plan }` stays at 10 KB,
 * its guard with it (it loads nothing later). The 36 KB for everything a first summary loads
 * was 35.8 KB before valibot: the guard moved by valibot's cost to 38 KB (see docs/NOTES.md). Then
 * the same round's lazily loaded code grew: issue 26's catalogue (the credential-name rule and the
 * shapes of src/redact/more.ts, prose passwords, secrets split across messages: ~5.5 KB) and
 * issue 30 (stall, report.cache, review, pins, byte budgets, ~3.5 KB), none of it at import: the
 * guard was set to what that measured then (47.0 KB) with ~0.5 KB of room, not the 36 KB,
 * and has moved since (TOTAL_COMPACT). The import budgets hold with room (`{ compact }` 11.3 KB of
 * 17.5 then, 11.4 KB in round 6). What `{ compact }` loads with a first summary by the default,
 * deterministic summarizer (`gzip` + `summaryGzip`: without the model prompt and streaming
 * redaction) was 44.9 KB then (46.6 KB in round 6), of which the redaction catalogue was ~13 KB: the
 * issue's 36 KB would take most of issue 26's catalogue. Today's figures: the size section of
 * bench/RESULTS.md.
 *
 * TOTAL_COMPACT: everything `import { compact }` can load, once a model summarizer has run too. Issue 29 (round 4)
 * moved it from 47,500 by 1,000 B: the trigger scan that tells which redaction shapes can match a
 * text (+277 B), the pass's drafts and what a pass reads once (+~200 B), a checkpoint that redacts
 * only what it may quote (+320 B, ~20 % of a 32k pass), the engine's cheaper checks (+145 B), loading
 * ahead near the threshold: speed the issue asked for, in bytes the budgets at import still hold.
 * Round 6 (plan) +25 B: the kept-count check reads a view's arrays by index (a second `plan` of the
 * same objects ~10 % faster) and each text's count is kept beside it, so that a pass counts a message
 * it rewrites by the texts it changed (issue 29 item 2: src/estimate/rewritten.ts); 47 B of it paid
 * on the shared path (the heuristic's classes a const enum).
 * Round 6 (first) +30 B: the trigger scan's table built by prefixes (~3 ms less of a fresh process's first pass).
 * Round 6 (pass) +200 B: what a pass reads once or not at all around the engine (an
 * output's exit code once a view, texts without image stubs or whitespace runs not rewritten, the
 * user's words of user turns only, open calls keyed without copying their arguments, a repeated
 * call's arguments redacted once: +196 B, a few % of a 32k pass's CPU).
 * Round 6 (scan) +270 B: the trigger scan as an automaton over the bytes of a text, ~2× its speed in a pass.
 * Round 6 (patterns) +260 B: the generic assignment shape tried only before a run its value may be,
 * found by hand (~2.5× that shape on ordinary text, a fifth of its redaction), a password flag's shape
 * read only where the text holds the flag (adversarial input), example values read by their end first.
 * Round 6 (review) +50 B: in a batch a check reads back to its own text's start (a text reads as alone, so
 * that a repeated call redacted once reads the same at each place), and known values' prefilter by
 * their first 8 characters (the automaton took ~115 MB more for 1,000 `secrets`, 2.3 s for 5,000: now 0.3 s).
 * Round 8 (checkpoint) +270 B: a judged call's arguments over 1,000 characters read as far as the command
 * and path the checkpoint quotes (`quotedArguments`: 62k → 40k characters of a 32k pass's calls; its
 * deterministic checkpoint ~0.65 ms less, the pass ~7 %).
 * Round 8 (engine) +730 B: the redaction engine on ordinary text, ~31 → ~57 MB/s over a 32k pass's 249
 * texts: words for the shapes that ran on every text (their prefilters reworded, wordsOf reading
 * alternatives outside groups), runs read over a byte copy of the text, ASSIGNED tried only after an
 * operator (+300 B); the vendor tokens' candidates found by hand (+240 B, ~0.3 ms a pass) and one scan
 * for a Secret's kind and the escapes (+104 B, ~0.13 ms) and two more prefilters.
 * Round 8 (adversarial) +290 B: escape regions read only by the shapes that find something in them joined
 * (escape-dense text ~1.7×), the credential name's checks read the match in place (named values ~+15 %),
 * identifiers read in place (tokens like `md-…` runs ~+15 %).
 * Round 8 (prune) +131 B: outputs' copies found by length first (no hash of every output), the context
 * prefilter read whole only where the window holds what a context shape's match holds (`holds`).
 * Round 8 merged: 48,916 → 50,568 B; beside the Responses and Anthropic dialects the same code gzips
 * ~250 and ~150 B larger than alone, so their offsets grew by that.
 * Round 8 (scan2): the trigger scan reads ASCII without toLowerCase.
 * Round 8 (review) +~40 B: a window holding an escape reads a context shape's context from the whole; a
 * \u after an escaped backslash is no escape.
 * Round 8 (fp) +150 B: state.sent's fingerprint read 4 bytes a step from a small buffer that `encodeInto`
 * fills, 64 messages' JSON at a time (src/report/cache.ts `jsonHash53`; ~0.75 → ~0.4 ms of a 128k pass).
 * Round 8 (merge) +86 B: the vendor tokens' finder reuses the windows its last call found on the text (it
 * was quadratic where no run of base64 followed).
 * Round 8 in all: 48,916 → 50,845 B (after the reread).
 * Round 9 (names) +672 B: a value a rule before masked only part of is read on through our markers and
 * masked whole (`throughMarkers`, `standIn`), a token's mask reads on to the end of the run it starts
 * (`runEnd`), a path piece whose cases mix as random letters do is no reference, a hash's prefix needs its
 * digest: CI's property run found `password: "…+EAA…"` leaving the part before Meta's token.
 * Round 10 (prune) +~180 B (guard +200): `result.archive` built when first read (~0.2 ms of a 32k pass;
 * a frozen result or archive still reads), the pass's read-once memo and a call's parsed arguments keyed
 * without hashing new strings whole (~0.1–0.2 ms), a draft's shrunk arguments without a copy of the tree.
 * Round 10 (checkpoint) +~55 B: error lines kept by the turn, quoted values and `matchAll` only where a
 * match can be. Round 10 (lead) +~250 B (guard +250 in all): the escape pass reads each shape only in the
 * windows its pattern may match, and again in those a mask changed (a mask can make a match: CI's seeds
 * once in ~60,000 runs; thousands of escape windows after every shape's example 6.8 → ~9 MB/s); a CSRF
 * cookie is `csrftoken=…`, not a password that starts with the word. Then +~90 B (guard +100): the trigger
 * scan tells where each prefilter's last word is, and the escape pass reads a shape's joined windows to
 * there (that input ~9 → ~11 MB/s).
 * Round 11 (cold) +~50 B and (lead) +~40 B (guard +100): the checks a match runs compiled once with a
 * catalogue's scan and the vendor alternation compiled once, lines a fresh process's optimized code
 * no longer throws away (first pass ~−10 ms CPU); a mask that stops at an escape of a token's character
 * goes on through it.
 * Round 11 (warm) +~260 B (guard +220: it had 62 B of room): no closure over a pass reachable from old space (result.archive's
 * accessor one pair for all, its entries' getters reading their source from the archive, an error's lines
 * a class getter, a turn's later error lines under a symbol, not in a module-level WeakMap): each minor
 * collection copied and promoted the pass (scavenges ~0.9 → ~0.35 ms a 32k pass, CPU ~−15 %), what
 * they read released once read; a call's arguments parsed once a pass (~110k characters of JSON.parse less).
 * Round 11 (lead) +~57 B (guard +50): a long argument leaf's end is read with its start (a name there may
 * take the next member's key as its value, as the whole arguments read: CI's seed once in ~160,000 runs).
 * Round 12 (warm) +~123 B (guard +125): the checkpoint's command steps read a word's quotes and line
 * number by a pattern only where it has them (+54 B), its allotment costs each section once, prune makes
 * no maps for a message without results or calls, the sanitizer a set only for orphans, the sent
 * fingerprint zeroes only its last word's padding, and a one-liner's thousands without a pattern
 * (compiled twice in a fresh process): a 32k pass ~2 % less main-thread CPU (alternating, medians; inside one run's noise).
 * Round 12 (escape) +~190 B (guard +200): adversarial redaction (issue 29 item 3) from ~10 to ~14 MB/s on the
 * slowest input: a printed value's shape tried only where its first check may hold, a shape's masks written
 * once after its matches (the rope outlived every scavenge), the escape windows decoded into one buffer.
 * Round 12 (leak, its second class) +~65 B (guard +75): a credential's name says its value is a secret: a
 * value holding a vendor token is no code path (`password=xF7Z.AKIA…_xF7Z`), and a name's value may start
 * at a marker a token's rule wrote (`password=AP0…+AKIA…-aAaa`); its pieces read in place, not split (split, prose ran ~37 % slower).
 * Round 12 (lead) +~240 B (guard +240): a credential's name where another's value stands is a name
 * (`password: token: <key>`, `password: api_key = <key>`): the rule reads on from it, and the second
 * name's value is masked, where it was left with no name before it (~80 framed corpus lines leaked so);
 * a bearer token's scheme word is no value.
 * Round 13 (draft) +~87 B (guard +80: 53,139 → 53,226): a pass that drafts the middle and then accepts pruning learns each
 * output's one-liner facts (size, lines, exit status, where its salient line starts) once, not twice
 * (issue 29 item 2's "one-liners are computed once per pruned output").
 * Round 13 (engine) +~120 B (guard +125: 53,240 → 53,365 with the draft's): the vendor tokens' finder tries their alternation only at a word start
 * whose first two characters start one of them (a table of pairs): the texts a pass redacts ~0.1 ms less CPU
 * (32k: 1.29 -> 1.20 ms, 128k: 1.47 -> 1.33; a whole pass within its noise).
 * Round 13 (leak) +~600 B (guard +600: 53,365 → 53,965 with the draft's and the engine's), over the lane's 300 B on purpose, for the lead to weigh: the shape
 * pass notes each value it masks (its marker followed through every later mask), and a second escape
 * pass reads it in its marker's place, so an escaped run a masked word named is read with its name
 * (`pw=_key FKJl3w\u0034…`, `client_secret=sshpass -p …`): the review's fuzz, leaking texts 91 → 50.
 * Round 13 (floor) +~200 B (guard +200: 53,965 → 54,165): adversarial redaction toward issue 29's 10 MB/s
 * after the leak lane's second escape pass (`api_key: \u0041…` ×1 MB ~1.2×, `pwd=Bearer abcdefgh%41 ` ~1.45×,
 * escape-dense lines ~1.55×): decoded windows made a string by a TextDecoder, the trigger scan noting a
 * state's words once a chunk, each window's line break found once, a shape's windows found by its own
 * finder, the secret-name check reading what names a value first.
 * Round 13 (lead) +~60 B (guard +60): a second escape pass decodes only the regions a noted value starts in
 * (escape-dense lines after a few masked values 11.5 → 15.8 MB/s, their second pass no longer decodes every line).
 * Round 14 +~330 B (guard +335: 54,225 → 54,560): a value that separators part from the next credential's
 * name, or glued to it (`<key>|api_key: <key>`, `<key>.api_key: …`), is masked alone (whole, as before,
 * where the checks turn it down alone) and the name's own value with it (the review's fuzz, leaking
 * texts 50 → 38 and 41 → 28); on `api_key: \u0041…` ×1 MB the second escape pass no longer reads every
 * value again (~9 → ~12 MB/s). Then +~12 B (guard +15): a value read on through markers finds the letter
 * before each marker by hand (a pattern anchored at the end made 1 MB of a URL unit take 15 s: quadratic).
 * Round 15 +~127 B (guard +140: 54,575 → 54,715): a CSRF word turns down only the match its name gives
 * (`X-CSRF-Token: …`, `csrftoken=…`, `name="csrf-token" content="…"`), not every match after it on its line
 * ("the csrf check failed, password: …", `X-CSRF-Token: abc; Authorization: Bearer …` left them in clear),
 * and a vendor's own format under a CSRF name is masked. Then +~96 B (guard +85: → 54,800): a value after a
 * bare space that the checks turn down is read again for a name inside it (`password token <key>`,
 * `password DB_PASSWORD=<value>` left the value in clear), once a stretch; a flag's start read by hand.
 * Then +~13 B (guard +15: → 54,815): a bare password on a command line ends where a shell ends the word
 * (`mysql -pA;docker login -p B` took `A;docker` and left `B`), and mysql's spaced `-p` is its own command's.
 * Then +~252 B (guard +255: → 55,070): a value one step from its name, as agents meet it, was left in
 * clear: `terraform output -json`'s sensitive outputs, an object under a credential's name (its `value`),
 * a YAML block scalar under one (`password: |`, the value on the indented line after). Then +~17 B
 * (guard +20: → 55,090): a key of base64 whose short pieces turn from a small letter to a capital five
 * times is no path (`password=/XrBiHeOOct/54Wj/…` was left: a rare counterexample of the names property).
 * Then +~5 B (guard +5: → 55,095): a turned-down value is read again only where it holds a word of the rule's names.
 * Then +~93 B (guard +95: → 55,190), the round's review: a bare password ends at `;`, `&` or `|` only where a
 * command with a flag follows (`-pT0p&S3cret`, as `ps` shows it, is one value: the shell's word ends had left
 * it in clear); a sensitive output's value of any length; an object's `value` only under a name that ends in a
 * credential's word (`max_tokens` names none); YAML indicators in either order, a tag or an anchor, two tails.
 * Then +~34 B (guard +35: → 55,225): a CSRF signing secret's name (`WTF_CSRF_SECRET_KEY`, `csrf_secret`) names a secret.
 * Then +~30 B (guard +30: → 55,255): GitHub's fine-grained and npm's tokens in their own formats, a token under an id's name too.
 * Round 16 +~34 B (guard +35: → 55,290): a pass that rewrites works on the views the estimate kept for its
 * messages where they read the same (`keptViews`), so what it learns of a view by identity, an output's exit
 * status and one-liner facts, is learnt once across passes (a warm 32k pass ~20 % faster, 128k ~19 %).
 * Then +~125 B (guard +120: → 55,410): the secret-name rule's id check reads a name's last word in place
 * first, and the whole name only where that word may be an id's; where a value stands in its match is
 * found by `endsWith` before `lastIndexOf` (`valueAt`): adversarial names every few characters 10–18 % faster.
 * Then +~29 B (guard +30: → 55,440): the secret-name rule finds where its value stands once, for both checks of
 * its name (a value parted from the next name is found by `lastIndexOf` after `endsWith`: ~4 % on those).
 * Then +~103 B (guard +105: → 55,545): a flag naming a credential given as another name's value, or glued to the
 * end of one by an operator, names the value after it (`api_key: --token <key>`, `--password <v>=--password <key>`
 * left `<key>` in clear): the rule reads on from the flag's dashes where a value follows it on the line.
 * Round 17 +~139 B (guard +140: → 55,685): a credential's name where a token stands, before the value it gives
 * (`Bearer DB_PASSWORD='…'`, `Bearer dbPassword = …`: the token's pattern stops at the quote or the space, and
 * its mask took the name and left the value in clear), is no value: the name's own rule masks the value (`namesNext`).
 * Then +~32 B (guard +35: → 55,720): that check by char code, and not for the secret-name rule, which reads a name where
 * its value stands itself (checked there too, it read `api_key: aapi_key: …` twice: half the speed); a value in backticks
 * runs to its closing backtick as one in quotes does (`password: \`purple monkey dishwasher\`` left all but its first word).
 * Then +~20 B (guard +20: → 55,740): after a space too (prose, a flag, an argument), a value in quotes or backticks runs
 * to its closing one (`the password is 'Sp4ce d0g!'`, `--passphrase 's3c@ret&key'` had left all but their first word).
 * Then +~35 B (guard +35: → 55,775): a name in Markdown's emphasis is a name where the emphasis opens at it
 * (`**Password:** hunter22x`, `- **DB_PASSWORD**: …`: a summary's labels), not a bold heading that ends in one.
 * Then +~54 B (guard +55: → 55,830): a name and its value in fields of their own, Kubernetes' and ECS's env entries
 * (`- name: DB_PASSWORD` then `value: …`, `{"name": "DB_PASSWORD", "value": "…"}` had left the value in clear).
 * Then +~143 B (guard +145: → 55,975): a type between a credential's name and its quoted value (`apiKey: string = "…"`,
 * `api_key: str = "…"`, C#'s `ClientSecret { get; set; } = "…"`; read only in a text with a `=`), and a word before `[` no value (a type, a subscript).
 * Then +~28 B (guard +30: → 56,005): a URL's password runs to the `@` before its host, `/`, `#`, `?` and `@` included
 * (`postgres://app:pTo/rr…@db` had left a base64 password whole), never from a port before a path nor across a `//`.
 * Then +~118 B (guard +120: → 56,125): a name written in words (`API key: …`, `Secret key: …`: a space before `key` or
 * `access`), and prose that sets a password (`Password for admin: …`, `set the password to …`, `has been reset to …`).
 * Then +~7 B (guard +10: → 56,135): Postgres' `PGPASSWORD` names a password, glued as it is (read as `bypass` had been).
 * Then +~18 B (guard +20: → 56,155): the field and typed rules judge a value as the secret-name rule does (a whole
 * placeholder is none, not a value holding `xxxx`: a hunt's `aaaa-xxxxaaa-10`).
 * Then +~50 B (guard +55: → 56,210): a name and its value in a Markdown table's cells (`| DB_PASSWORD | hunter22x |`).
 * Then +~59 B (guard +60: → 56,270): .netrc's password after its machine and login (`machine github.com login alice password …`).
 * Round 18 +~138 B (guard +140: → 56,410): redaction's adversarial floor. The catalogue's shapes made of one hidden
 * class (`uniform`: after many kinds of text, ~9 % on the slowest inputs); checks by char code before their patterns
 * (a reference's first character before NOT_VALUE, REFERENCE_START, an operator ending a value before
 * OPERATOR_AT_END, `example` and `flagIn` by their last letter and a dash); and the id check's `key` read to the
 * word before it (`apiKey`, ×1.3 on `=const apiKey`; ID_KEY_WORDS shared with `idWord`).
 * Round 19 +~12 B (guard +15: → 56,425): the escape pass finds where a changed stretch ends in the text by walking
 * back from its region's stop, not on from its start (a megabyte walked a call on escape-dense text).
 * Then +~8 B (guard +10: → 56,435): no window searched for a shape's match where shapes before it changed every window.
 * Then +~187 B (guard +190: → 56,625): the secret-name rule's per-name path, ×1.10–1.15 on a name every 16 characters
 * (`client_secret: _`): the group and value place `namesAhead` read kept for the next match, an id word's shape read
 * before it is copied (ID_SHAPES), `joins` and `partedAt` by char code, a quote before the spaces read on the last
 * three characters.
 * Then +~49 B (guard +50: → 56,675): a value's word looked up in NOT_A_VALUE only where a word of it has its shape
 * (×1.04 on `=--password H` after the bench's screening, 8 alternated processes).
 * Then +~14 B (guard +20: → 56,695): a value that is such a word turned down before its name's checks (×1.13 on
 * `pwd=Bearer abcdefgh%41 `: `Bearer` is the value the secret-name rule reads after `pwd=`, in both passes).
 * Then +~32 B (guard +35: → 56,730): a value turned down and read on from inside takes the match `namesAhead` found
 * there, not the pattern's run again (×1.09–1.10 on `auth=\n`).
 * Then +~10 B (guard +15: → 56,745): the reread's mend, one `wordShape` for the id words' and NOT_A_VALUE's gates (was two
 * near-copies), handed to ./more.ts with the parts.
 */
const TOTAL_COMPACT = 56_745;
export const BUDGETS = [
  { names: ["compact"], budget: 17_500, total: TOTAL_COMPACT },
  { names: ["compact", "openAICompatible"], budget: 19_000, total: TOTAL_COMPACT + 1_500 },
  { names: ["compact", "anthropicMessages", "anthropic"], budget: 20_000, total: TOTAL_COMPACT + 2_650 },
  { names: ["compact", "openAIResponses"], budget: 19_000, total: TOTAL_COMPACT + 1_750 },
  { names: ["plan"], budget: 10_000, total: 10_000 },
];
