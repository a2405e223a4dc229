// Model-free quality: how many artifacts of the summarized span a handoff still carries, for the
// deterministic summarizer and for Claude Code's own compaction summaries of the same sessions.
import { HANDOFF_PREFIX, compact, plan, type ChatMessage } from "../src/index.js";
import { trajectory } from "../test/support/fixtures.js";
import { table } from "./lib.js";

type Kind = "file paths" | "commands" | "error lines" | "user requests";
type Artifacts = Record<Kind, Set<string>>;

const PATH = /(?:^|[\s"'`(=])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),:;])/g;
const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic)\b/i;
const text = (m: ChatMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));

/** What a continuing agent would need: paths, commands run, errors seen, what the user asked. */
function artifacts(messages: ChatMessage[]): Artifacts {
  const a: Artifacts = { "file paths": new Set(), commands: new Set(), "error lines": new Set(), "user requests": new Set() };
  for (const m of messages) {
    const t = text(m);
    for (const x of t.matchAll(PATH)) a["file paths"].add(x[1]);
    for (const c of m.tool_calls ?? []) {
      try {
        const args = JSON.parse(c.function.arguments);
        if (typeof args.command === "string") a.commands.add(args.command.split("\n")[0].trim().slice(0, 60));
        for (const k of ["file_path", "path"]) if (typeof args[k] === "string" && /\.\w{1,8}$/.test(args[k])) a["file paths"].add(args[k]);
      } catch {
        // arguments that are not JSON carry no structured artifact
      }
    }
    if (m.role === "tool") for (const line of t.split("\n")) if (ERROR.test(line) && line.trim().length > 12) a["error lines"].add(line.trim().slice(0, 60));
    if (m.role === "user" && !t.startsWith("<system-reminder>") && !t.startsWith("This session is being continued") && t.trim()) a["user requests"].add(t.trim().slice(0, 60));
  }
  return a;
}

function recall(a: Artifacts, summary: string): Record<Kind, [number, number]> {
  const norm = (s: string) => s.replace(/\s+/g, " ");
  const hay = norm(summary);
  const out = {} as Record<Kind, [number, number]>;
  for (const [k, set] of Object.entries(a) as [Kind, Set<string>][]) {
    let kept = 0;
    for (const x of set) if (hay.includes(norm(x))) kept++;
    out[k] = [kept, set.size];
  }
  return out;
}

const SESSIONS = [
  { main: "claude-code-spotter__4d5611e5-241a", compacted: "claude-code-spotter__4d5611e5__agent-acompact" },
  { main: "claude-code-spotter__fa812bfe-b295", compacted: "claude-code-spotter__fa812bfe__agent-acompact" },
];

export async function qualityBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  const pct = ([k, n]: [number, number]) => (n ? `${Math.round((k / n) * 100)} % (${k}/${n})` : "—");
  const totals: Record<string, Record<Kind, [number, number]>> = {};
  const addTotal = (who: string, r: Record<Kind, [number, number]>) => {
    const t = (totals[who] ??= { "file paths": [0, 0], commands: [0, 0], "error lines": [0, 0], "user requests": [0, 0] });
    for (const k of Object.keys(r) as Kind[]) t[k] = [t[k][0] + r[k][0], t[k][1] + r[k][1]];
  };
  for (const s of SESSIONS) {
    const { messages } = trajectory(s.main);
    // The span Claude Code compacted: everything before its continuation message.
    const cut = messages.findIndex((m) => m.role === "user" && text(m).startsWith("This session is being continued"));
    const span = messages.slice(0, cut);
    const theirs = trajectory(s.compacted).messages.at(-1)!;
    const r1 = recall(artifacts(span), text(theirs));
    addTotal("Claude Code's own summary", r1);
    rows.push([s.main.slice(20, 28), "Claude Code's own summary", `${text(theirs).length.toLocaleString("en-US")} chars`, ...Object.values(r1).map(pct)]);

    // Ours on the same span: the handoff covers the plan's middle (head and tail stay verbatim).
    const options = { contextWindow: 16_000, force: true }; // small enough that the span needs a summary, not prune alone
    const p = plan(span, options);
    const r = await compact(span, options);
    const handoff = r.messages.find((m) => text(m).startsWith(HANDOFF_PREFIX)) ?? { role: "user", content: "" };
    const r2 = recall(artifacts(span.slice(p.middle.start, p.middle.end)), text(handoff as ChatMessage));
    addTotal("context-compactor deterministic", r2);
    rows.push([s.main.slice(20, 28), "context-compactor deterministic", `${text(handoff as ChatMessage).length.toLocaleString("en-US")} chars`, ...Object.values(r2).map(pct)]);
  }
  for (const [who, t] of Object.entries(totals)) rows.push(["both", who, "", ...Object.values(t).map(pct)]);
  const ours = totals["context-compactor deterministic"];
  const worst = (Object.entries(ours) as [Kind, [number, number]][]).filter(([, [, n]]) => n).sort((a, b) => a[1][0] / a[1][1] - b[1][0] / b[1][1])[0][0];
  return (
    table(["session", "summary", "size", "file paths", "commands", "error lines", "user requests"], rows) +
    `\n\nRecall = share of the artifacts in the summarized span that the summary still contains (exact substring, whitespace folded). ` +
    `Claude Code's summaries are model-written (Opus) and ~15k characters; ours is deterministic and bounded by the summary budget. ` +
    `Lost most by the deterministic summarizer: **${worst}**.`
  );
}
