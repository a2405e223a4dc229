// fast-check generators of odd but valid OpenAI transcripts and option sets.
import fc from "fast-check";
import { HANDOFF_END, HANDOFF_PREFIX, type AnthropicBlock, type AnthropicMessage, type ChatMessage, type CompactOptions } from "../../src/index.js";
import { fromOpenAI } from "../../src/convert.js";

const words = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("修复测试失败的问题", "ファイルを読んで", "한국어 텍스트", "🙂🚀 emoji", "error: ENOENT /src/app.ts", ""),
  fc.lorem({ maxCount: 30 }),
);
const longText = fc.integer({ min: 300, max: 6000 }).map((n) => "log line with some output\n".repeat(Math.ceil(n / 26)).slice(0, n));
const body = fc.oneof({ weight: 4, arbitrary: words }, { weight: 1, arbitrary: longText });

const image = fc.constantFrom(
  { type: "image_url", image_url: { url: `data:image/png;base64,${"iVBORw0KGgo".repeat(50)}` } },
  { type: "image_url", image_url: { url: "https://example.com/a.png" } },
);
const content = fc.oneof(
  { weight: 5, arbitrary: body },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.tuple(body, fc.option(image, { nil: undefined })).map(([t, img]) => [{ type: "text", text: t }, ...(img ? [img] : [])]) },
);

const toolName = fc.constantFrom("Bash", "Read", "Edit", "Grep", "todo", "memory");
const args = fc.oneof(
  fc.record({ command: words }).map((o) => JSON.stringify(o)),
  fc.record({ file_path: fc.constantFrom("/src/a.ts", "/README.md"), content: longText }).map((o) => JSON.stringify(o)),
  fc.constant('{"command": "ls -la", "trunc'), // truncated JSON, as some providers emit
  fc.constant("{}"),
);

type Block = ChatMessage[];
let ids = 0;
const id = () => `call_${(ids++).toString(36)}`;

const userBlock = content.map((c): Block => [{ role: "user", content: c as ChatMessage["content"] }]);
const assistantBlock = content.map((c): Block => [{ role: "assistant", content: c as ChatMessage["content"] }]);
const toolGroup = fc
  .tuple(fc.array(fc.tuple(toolName, args, body, fc.boolean()), { minLength: 1, maxLength: 4 }), fc.option(words, { nil: undefined }), fc.integer({ min: 0, max: 9 }))
  .map(([calls, say, missing]): Block => {
    const withIds = calls.map(([name, a, out, dup]) => ({ id: id(), name, a, out: dup ? "duplicate output\n".repeat(20) : out }));
    const assistant: ChatMessage = {
      role: "assistant",
      content: say ?? null,
      tool_calls: withIds.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.a } })),
    };
    // Sometimes a result is missing (a call the transcript never answered).
    const results = withIds.filter((_, k) => !(missing === 0 && k === 0)).map((c): ChatMessage => ({ role: "tool", tool_call_id: c.id, content: c.out }));
    return [assistant, ...results];
  });
// A tool output that alone fills a window (a log, a large file read), sometimes with an error line.
const hugeOutput = fc
  .tuple(fc.integer({ min: 8_000, max: 60_000 }), fc.boolean())
  .map(([n, failed]) => `${"build step ok\n".repeat(Math.ceil(n / 28))}${failed ? "error: build failed\n" : ""}${"more output\n".repeat(Math.ceil(n / 24))}`);
const hugeGroup = fc.tuple(toolName, hugeOutput).map(([name, out]): Block => {
  const callId = id();
  return [
    { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name, arguments: '{"command":"make"}' } }] },
    { role: "tool", tool_call_id: callId, content: out },
  ];
});
// Another agent's handoff as a user message (Claude Code's, after its own compaction).
const foreignHandoff = words.map((w): Block => [{ role: "user", content: `This session is being continued from a previous conversation that ran out of context. Summary: ${w}` }]);
const orphan = body.map((b): Block => [{ role: "tool", tool_call_id: `orphan_${id()}`, content: b }]);
const earlierHandoff = words.map((w): Block => [{ role: "user", content: `${HANDOFF_PREFIX}\nolder turns\n\n## Goal\n- ${w}\n\n${HANDOFF_END}` }]);
const huge = fc.integer({ min: 20_000, max: 80_000 }).map((n): Block => [{ role: "tool", tool_call_id: "none", content: "x".repeat(n) }]);

const block = fc.oneof(
  { weight: 4, arbitrary: userBlock },
  { weight: 3, arbitrary: assistantBlock },
  { weight: 6, arbitrary: toolGroup },
  { weight: 1, arbitrary: orphan },
  { weight: 1, arbitrary: earlierHandoff },
  { weight: 1, arbitrary: huge.map((b) => [{ role: "user", content: b[0].content } as ChatMessage]) },
  { weight: 1, arbitrary: hugeGroup },
  { weight: 1, arbitrary: foreignHandoff },
);

const system = fc.option(
  fc.oneof(
    words.map((w): ChatMessage => ({ role: "system", content: `You are an agent. ${w}` })),
    fc.constant<ChatMessage>({ role: "developer", content: [{ type: "text", text: "dev rules" }] }),
    fc.constant<ChatMessage>({ role: "system", content: null }),
  ),
  { nil: undefined },
);

export const transcript = fc
  .tuple(system, fc.array(block, { maxLength: 40 }))
  .map(([sys, blocks]) => [...(sys ? [sys] : []), ...blocks.flat()]);

export const options = fc.record(
  {
    contextWindow: fc.integer({ min: 800, max: 60_000 }),
    maxOutputTokens: fc.integer({ min: 0, max: 300 }),
    threshold: fc.double({ min: 0.2, max: 1, noNaN: true }),
    headMessages: fc.integer({ min: 0, max: 6 }),
    tailTokens: fc.integer({ min: 0, max: 8000 }),
    protectedTools: fc.subarray(["todo", "memory", "Read"]),
    imageTokens: fc.integer({ min: 0, max: 3000 }),
    force: fc.boolean(),
  },
  { requiredKeys: ["contextWindow"] },
) as fc.Arbitrary<Omit<CompactOptions, "pin">>; // no pin: spread into any dialect's options

/**
 * Anthropic transcripts as Claude Code writes them: the generated ones converted, with `role: "system"`
 * messages inserted anywhere but between a tool call and its result, and up to four `cache_control`
 * breakpoints on arbitrary blocks.
 */
export const anthropicTranscript = fc
  .tuple(transcript, fc.array(fc.nat(), { maxLength: 3 }), fc.array(fc.nat(), { maxLength: 4 }))
  .map(([t, systemAt, breakpointAt]) => {
    const messages = fromOpenAI(t, "anthropic").messages as AnthropicMessage[];
    for (const k of systemAt) {
      const i = messages.length ? k % (messages.length + 1) : 0;
      const before = messages[i - 1];
      const awaited = before?.role === "assistant" && typeof before.content !== "string" && before.content.some((b) => b.type === "tool_use");
      if (!awaited) messages.splice(i, 0, { role: "system", content: [{ type: "text", text: `<env>inserted at ${i}</env>` }] });
    }
    const blocks = messages.flatMap((m, i) => (typeof m.content === "string" ? [] : m.content.map((_, k) => [i, k] as const)));
    for (const n of breakpointAt) {
      if (!blocks.length) break;
      const [i, k] = blocks[n % blocks.length];
      const content = [...(messages[i].content as AnthropicBlock[])];
      content[k] = { ...content[k], cache_control: { type: "ephemeral" } };
      messages[i] = { ...messages[i], content };
    }
    return messages;
  });
