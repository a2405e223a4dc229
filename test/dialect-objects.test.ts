// Dialects are objects: the message type follows the dialect, and users can bring their own.
import { describe, expect, it } from "vitest";
import {
  CompactionInputError,
  HANDOFF_PREFIX,
  SYSTEM_NOTE,
  aiSdkMessages,
  anthropicMessages,
  compact,
  createCompactor,
  estimateTokens,
  openAIChat,
  plan,
  type AnthropicMessage,
  type ChatMessage,
  type CompactResult,
} from "../src/index.js";
import { speakerTurns, type Turn } from "./support/speaker-dialect.js";

const chat = (n: number): Turn[] => [
  { speaker: "system", text: "You answer questions about the garden." },
  ...Array.from({ length: n }, (_, i): Turn => ({ speaker: i % 2 ? "bot" : "user", text: `${i % 2 ? "Answer" : "Question"} ${i}: ${"tomatoes need sun and water ".repeat(30)}` })),
];

describe("a custom dialect ({ speaker, text } turns)", () => {
  it("compacts in its own format: head and tail the same objects, the handoff a turn of its own", async () => {
    const turns = chat(60);
    const r = await compact(turns, { contextWindow: 4_000, dialect: speakerTurns });
    const kept: Turn[] = r.messages; // typed by the dialect
    expect(r.report.mode).toBe("summary");
    expect(kept[0].text).toBe(`${turns[0].text}\n\n${SYSTEM_NOTE}`);
    const handoff = kept.find((t) => t.text.startsWith(HANDOFF_PREFIX));
    expect(handoff?.speaker).toMatch(/^(user|bot)$/);
    expect(kept.at(-1)).toBe(turns.at(-1));
    const latestUser = [...turns].reverse().find((t) => t.speaker === "user");
    expect(kept).toContain(latestUser);
    for (let i = 1; i < kept.length; i++) expect(kept[i].speaker === kept[i - 1].speaker && kept[i].speaker !== "system").toBe(false);
  });

  it("plans, estimates and keeps state with the same object", async () => {
    const turns = chat(60);
    const p = plan(turns, { contextWindow: 4_000, dialect: speakerTurns });
    expect(p.shouldCompact).toBe(true);
    expect(estimateTokens(turns, { dialect: speakerTurns })).toBe(p.tokens.total);
    const c = createCompactor({ contextWindow: 4_000, dialect: speakerTurns });
    const r = await c.compact(turns);
    expect(c.shouldCompact(r.messages)).toBe(false);
  });

  it("its own validation errors name the index", () => {
    expect(() => plan([{ speaker: "user", text: "hi" }, { speaker: "robot", text: "x" }] as never, { contextWindow: 1000, dialect: speakerTurns })).toThrow(
      CompactionInputError,
    );
  });
});

describe("the dialect option", () => {
  it("defaults to OpenAI Chat Completions", () => {
    const m: ChatMessage[] = [{ role: "user", content: "hi" }];
    expect(plan(m, { contextWindow: 1000 })).toEqual(plan(m, { contextWindow: 1000, dialect: openAIChat }));
  });

  it("a name instead of an object says which object to import", () => {
    const m: ChatMessage[] = [{ role: "user", content: "hi" }];
    expect(() => plan(m, { contextWindow: 1000, dialect: "anthropic" as never })).toThrow(/import \{ anthropicMessages \} from "context-compactor"/);
    expect(() => plan(m, { contextWindow: 1000, dialect: "__proto__" as never })).toThrow(RangeError);
    expect(() => plan(m, { contextWindow: 1000, dialect: {} as never })).toThrow(/must be a Dialect object/);
  });

  it("a transcript plainly in another format than the dialect's is reported, never read silently", async () => {
    const anthropicTurns = [
      { role: "user", content: "list the files" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a.ts b.ts" }] },
    ];
    const r = await compact(anthropicTurns as never, { contextWindow: 100_000 }); // the default dialect: OpenAI
    expect(r.report.mode).toBe("noop");
    expect(r.report.warnings).toEqual([expect.stringMatching(/look like the anthropic format but were read as openai: pass dialect: anthropicMessages/)]);
    const right = await compact(anthropicTurns as AnthropicMessage[], { contextWindow: 100_000, dialect: anthropicMessages });
    expect(right.report.warnings).toEqual([]);
    const plain: ChatMessage[] = [{ role: "user", content: "hi" }]; // plain text reads the same in every format
    expect((await compact(plain, { contextWindow: 100_000, dialect: anthropicMessages as never })).report.warnings).toEqual([]);
    // A user's own dialect is never second-guessed.
    expect((await compact(chat(2), { contextWindow: 100_000, dialect: speakerTurns })).report.warnings).toEqual([]);
  });

  it("types follow the dialect (checked by tsc in npm test)", async () => {
    const openai: ChatMessage[] = [{ role: "user", content: "hi" }];
    const anthropicTurns: AnthropicMessage[] = [{ role: "user", content: "hi" }];
    // @ts-expect-error numbers are no messages of the default dialect
    expect(() => plan([1, 2, 3], { contextWindow: 1000 })).toThrow(CompactionInputError);
    // @ts-expect-error OpenAI messages are not Anthropic messages
    await expect(compact(openai, { contextWindow: 1000, dialect: anthropicMessages })).resolves.toBeDefined();
    // @ts-expect-error a dialect of { speaker, text } turns takes no OpenAI messages
    expect(() => estimateTokens(openai, { dialect: speakerTurns })).toThrow(CompactionInputError);
    expect(estimateTokens(anthropicTurns, { dialect: anthropicMessages })).toBeGreaterThan(0);
    expect(aiSdkMessages.name).toBe("ai-sdk");
    const r: CompactResult<AnthropicMessage> = await compact(anthropicTurns, { contextWindow: 1000, dialect: anthropicMessages });
    expect(r.messages).toBe(anthropicTurns);
  });
});
