// The real agents, each run as a user would run it: its own CLI (or a script on the Agents SDK) in a
// child process, a fresh home folder, every setting pointing at one base URL (the worker, or the
// scripted upstream in the control runs). A local proxy that refuses everything stands in for the
// internet, so whatever an agent tries to reach beyond 127.0.0.1 goes nowhere (and is listed).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = resolve(import.meta.dirname, "../..");
const MODULES = join(ROOT, "node_modules");

export type AgentApi = "anthropic" | "chat" | "responses";

export interface AgentCase {
  /** The test's name: agent and API. */
  name: string;
  api: AgentApi;
  /** The model the agent is told to use (undefined: its default). */
  model?: string;
  /**
   * The context window the worker is told (x-context-window), sized from what this agent sends (its
   * reserved output, its head, what each read adds) so that compaction comes after 3 or 4 reads.
   */
  window: number;
  /** The session id the worker saw, when the agent picks its own (opencode sends x-session-id). */
  ownSession?: (stdout: string) => string | undefined;
  run(target: Target): Promise<AgentRun>;
}

export interface Target {
  /** http://127.0.0.1:PORT (no /v1). */
  origin: string;
  /** Headers every request of the agent carries (session id, context window). */
  headers: Record<string, string>;
  workdir: string;
  /** The proxy that stands in for the internet. */
  proxy: string;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export const TASK = "Read the files of this folder in the order the model asks for, with your file-reading tool, then report.";
const TIME_LIMIT_MS = 120_000; // a normal run takes 1–25 s; a stuck agent must not hold `npm test` for long

/** The native binary of a package that ships one per platform (its postinstall, which links it, may not have run). */
function nativeBinary(candidates: string[]): string {
  const found = candidates.map((c) => join(MODULES, c)).find((p) => existsSync(p));
  if (!found) throw new Error(`no native binary for ${process.platform}-${process.arch} among ${candidates.join(", ")}: run npm ci`);
  return found;
}

const platform = `${process.platform}-${process.arch}`;

const homes: string[] = [];

/** Removes the homes the agents ran in. */
export function removeHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

/** A fresh home: HOME, XDG folders, CODEX_HOME, so that no user configuration leaks in. */
function freshHome(): { home: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), "agents-home-"));
  homes.push(home);
  const env: Record<string, string> = { HOME: home, USERPROFILE: home };
  for (const x of ["CONFIG", "DATA", "CACHE", "STATE"]) {
    env[`XDG_${x}_HOME`] = join(home, `.${x.toLowerCase()}`);
    mkdirSync(env[`XDG_${x}_HOME`], { recursive: true });
  }
  return { home, env };
}

/** The environment an agent sees: none of ours (no keys, no proxies of the machine), a fresh home, the refusing proxy. */
function agentEnv(target: Target, extra: Record<string, string>): Record<string, string> {
  const keep = ["PATH", "LANG", "TERM", "TMPDIR", "SHELL", "USER", "LOGNAME"];
  const env: Record<string, string> = {};
  for (const k of keep) if (process.env[k]) env[k] = process.env[k]!;
  return {
    ...env,
    HTTP_PROXY: target.proxy,
    HTTPS_PROXY: target.proxy,
    ALL_PROXY: target.proxy,
    http_proxy: target.proxy,
    https_proxy: target.proxy,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    NO_COLOR: "1",
    ...extra,
  };
}

function runProcess(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<AgentRun> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, TIME_LIMIT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}

const headerLines = (h: Record<string, string>) =>
  Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");

/** Claude Code, `claude -p`, Anthropic Messages. */
function claudeCode(model?: string): AgentCase {
  return {
    name: `Claude Code (${model ?? "default model"}), Messages`,
    api: "anthropic",
    model,
    // max_tokens 128000 (default model) or 32000 (Sonnet 4.5); ~12k-22k tokens of head, ~23k per read
    window: model ? 32_000 + 110_000 : 128_000 + 96_000,
    run(t) {
      const { env } = freshHome();
      const bin = nativeBinary([`@anthropic-ai/claude-code-${platform}/claude`]);
      const args = ["-p", TASK, "--output-format", "stream-json", "--verbose", "--allowedTools", "Read", ...(model ? ["--model", model] : [])];
      return runProcess(bin, args, t.workdir, agentEnv(t, {
        ...env,
        ANTHROPIC_BASE_URL: t.origin,
        ANTHROPIC_API_KEY: "sk-ant-local-e2e",
        ANTHROPIC_CUSTOM_HEADERS: headerLines(t.headers),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
      }));
    },
  };
}

/** Codex CLI, `codex exec`, Responses (the only API it speaks). */
function codex(): AgentCase {
  const model = "gpt-5-codex";
  return {
    name: "Codex, Responses",
    api: "responses",
    model,
    // no max_output_tokens; ~10k tokens of instructions and tools, ~2.7k per read (Codex truncates output)
    window: 28_000,
    run(t) {
      const { home, env } = freshHome();
      const codexHome = join(home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      const headers = Object.entries(t.headers)
        .map(([k, v]) => `${JSON.stringify(k)} = ${JSON.stringify(v)}`)
        .join(", ");
      writeFileSync(
        join(codexHome, "config.toml"),
        [
          `model = "${model}"`,
          `model_provider = "local"`,
          `approval_policy = "never"`,
          `sandbox_mode = "read-only"`,
          "",
          "[model_providers.local]",
          `name = "local"`,
          `base_url = "${t.origin}/v1"`,
          `env_key = "LOCAL_MODEL_KEY"`,
          `wire_api = "responses"`,
          `http_headers = { ${headers} }`,
          `request_max_retries = 1`,
          `stream_max_retries = 1`,
          "",
        ].join("\n"),
      );
      return runProcess(process.execPath, [join(MODULES, "@openai/codex/bin/codex.js"), "exec", "--json", "--skip-git-repo-check", "--ephemeral", "-m", model, TASK], t.workdir, agentEnv(t, { ...env, CODEX_HOME: codexHome, LOCAL_MODEL_KEY: "sk-local-e2e" }));
    },
  };
}

/** The OpenAI Agents SDK, a script of ours on it: Responses by default, or Chat Completions. */
function agentsSdk(api: "responses" | "chat"): AgentCase {
  return {
    name: `OpenAI Agents SDK, ${api === "chat" ? "Chat Completions" : "Responses"}`,
    api,
    model: "gpt-5",
    // no output reserve; a one-line head, ~51k tokens per read (the whole file)
    window: 170_000,
    run(t) {
      const { env } = freshHome();
      const script = join(ROOT, "test/agents/agents-sdk-run.ts");
      return runProcess(process.execPath, ["--import", pathToFileURL(join(MODULES, "tsx/dist/esm/index.mjs")).href, script], t.workdir, agentEnv(t, {
        ...env,
        AGENT_BASE_URL: `${t.origin}/v1`,
        AGENT_HEADERS: JSON.stringify(t.headers),
        AGENT_API: api,
        AGENT_MODEL: "gpt-5",
        AGENT_TASK: TASK,
        NODE_PATH: MODULES,
      }));
    },
  };
}

const OPENCODE_PROVIDERS = {
  chat: { npm: "@ai-sdk/openai-compatible", model: "local-chat-model", label: "@ai-sdk/openai-compatible, Chat" },
  anthropic: { npm: "@ai-sdk/anthropic", model: "claude-sonnet-4-5", label: "@ai-sdk/anthropic, Messages" },
  responses: { npm: "@ai-sdk/openai", model: "gpt-5", label: "@ai-sdk/openai, Responses" },
} as const;

/** opencode, `opencode run`, with one of the AI SDK providers. */
function opencode(api: AgentApi): AgentCase {
  const p = OPENCODE_PROVIDERS[api];
  return {
    name: `opencode (${p.label})`,
    api,
    model: p.model,
    // max_tokens 8192; ~5k tokens of head, ~14k per read (its read tool stops at 50 KB)
    window: 8_192 + 56_000,
    ownSession: (stdout) => /"sessionID":"(ses_[A-Za-z0-9]+)"/.exec(stdout)?.[1],
    run(t) {
      const { home, env } = freshHome();
      const config = join(home, "opencode.json");
      writeFileSync(
        config,
        JSON.stringify({
          $schema: "https://opencode.ai/config.json",
          model: `local/${p.model}`,
          small_model: `local/${p.model}`,
          autoupdate: false,
          share: "disabled",
          permission: { read: "allow", edit: "deny", bash: "deny", webfetch: "deny" },
          provider: {
            local: {
              npm: p.npm,
              name: "local",
              options: { baseURL: `${t.origin}/v1`, apiKey: "sk-local-e2e", headers: t.headers },
              models: { [p.model]: { name: p.model, tool_call: true, reasoning: false, limit: { context: 1_000_000, output: 8_192 } } },
            },
          },
        }),
      );
      const bin = nativeBinary([`opencode-${platform}/bin/opencode`, `opencode-${platform}-baseline/bin/opencode`]);
      return runProcess(bin, ["run", "--format", "json", "-m", `local/${p.model}`, TASK], t.workdir, agentEnv(t, {
        ...env,
        OPENCODE_CONFIG: config,
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_SHARE: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      }));
    },
  };
}

export const AGENTS: AgentCase[] = [
  claudeCode(),
  claudeCode("claude-sonnet-4-5"),
  codex(),
  agentsSdk("responses"),
  agentsSdk("chat"),
  opencode("chat"),
  opencode("anthropic"),
  opencode("responses"),
];

/** The internet's stand-in: a proxy on 127.0.0.1 that records what it is asked for and refuses it all. */
export async function startRefusingProxy(): Promise<{ url: string; attempts: string[]; close(): Promise<void> }> {
  const attempts: string[] = [];
  const server: Server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403).end("no network in this test");
  });
  server.on("connect", (req, socket) => {
    socket.on("error", () => undefined); // the agent hangs up as it likes
    attempts.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
