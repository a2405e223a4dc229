// An agent on the OpenAI Agents SDK, run as its own process by the agents suite: one tool that reads a
// file of the working folder, every request to AGENT_BASE_URL with AGENT_HEADERS; Responses by default,
// Chat Completions when AGENT_API=chat. Prints the run's final output.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";

// The openai client the SDK itself depends on (v7), not the project's own (v6).
const { default: OpenAI } = await import(createRequire(import.meta.resolve("@openai/agents-openai")).resolve("openai"));

const env = (k: string) => process.env[k] ?? "";
setTracingDisabled(true);
setDefaultOpenAIClient(new OpenAI({ baseURL: env("AGENT_BASE_URL"), apiKey: "sk-local-e2e", defaultHeaders: JSON.parse(env("AGENT_HEADERS") || "{}"), maxRetries: 1 }));
if (env("AGENT_API") === "chat") setOpenAIAPI("chat_completions");

const readFile = tool({
  name: "read_file",
  description: "Reads a file of the working folder and returns its whole text.",
  parameters: z.object({ path: z.string().describe("the file's path") }),
  execute: async ({ path }) => readFileSync(resolve(process.cwd(), path), "utf8"),
});

const agent = new Agent({ name: "reader", instructions: "Read the files you are asked to read with read_file, then report.", model: env("AGENT_MODEL"), tools: [readFile] });
const result = await run(agent, env("AGENT_TASK"), { maxTurns: 40 });
console.log(JSON.stringify({ final: result.finalOutput }));
