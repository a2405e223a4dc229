// estimateTokens against exact o200k_base counts, per kind of text; and the exact counter's speed.
import { heuristicTokens } from "../src/index.js";
import { tiktokenCounter } from "../src/tiktoken.js";
import { trajectories } from "../test/support/fixtures.js";
import { table } from "./lib.js";

/** CJK text written for this bench (no fixture has any): technical prose as an agent would see it. */
const CJK = [
  "我们需要修复登录页面的测试失败问题。首先运行测试套件，查看错误信息，然后检查身份验证模块中的会话处理逻辑。如果问题出在令牌过期时间上，就调整配置文件并重新部署服务。",
  "テストが失敗しています。まずログを確認して、認証モジュールのセッション処理を調べてください。設定ファイルのタイムアウト値が短すぎる可能性があります。修正したら、もう一度テストを実行します。",
  "로그인 페이지 테스트가 실패합니다. 먼저 오류 메시지를 확인하고 인증 모듈의 세션 처리 로직을 검토해 주세요. 토큰 만료 시간이 문제라면 설정 파일을 수정한 후 서비스를 다시 배포하겠습니다.",
  "数据库迁移脚本在生产环境中执行失败，错误显示外键约束冲突。请先备份数据，再按顺序执行迁移，并在每一步之后验证表结构是否正确。",
].join("\n").repeat(40);

function kinds(): Record<string, string[]> {
  const prose: string[] = [];
  const code: string[] = [];
  for (const t of trajectories()) {
    for (const m of t.messages) {
      const text = typeof m.content === "string" ? m.content : "";
      if (m.role === "tool") code.push(text);
      else if (text) prose.push(text);
      for (const c of m.tool_calls ?? []) code.push(c.function.arguments);
    }
  }
  return { "English prose (user/assistant text)": prose, "code and JSON (tool outputs and arguments)": code, "CJK text (zh/ja/ko)": [CJK] };
}

function mbPerSecond(texts: string[], count: (t: string) => number, rounds: number): number {
  const bytes = texts.reduce((a, t) => a + new TextEncoder().encode(t).length, 0);
  const start = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of texts) count(t);
  return (bytes * rounds) / 1e6 / ((performance.now() - start) / 1000);
}

export async function estimationBench(): Promise<string> {
  const exact = tiktokenCounter();
  const rows: (string | number)[][] = [];
  for (const [kind, texts] of Object.entries(kinds())) {
    let est = 0;
    let ref = 0;
    for (const t of texts) {
      est += heuristicTokens(t);
      ref += exact(t);
    }
    const chars = texts.reduce((a, t) => a + t.length, 0);
    rows.push([
      kind,
      chars.toLocaleString("en-US"),
      ref.toLocaleString("en-US"),
      est.toLocaleString("en-US"),
      `${est >= ref ? "+" : ""}${(((est - ref) / ref) * 100).toFixed(1)} %`,
      mbPerSecond(texts, heuristicTokens, 20).toFixed(0),
      mbPerSecond(texts, exact, 1).toFixed(2),
    ]);
  }
  return (
    table(["text", "chars", "o200k tokens (exact)", "estimate", "error", "estimate MB/s", "exact MB/s (js-tiktoken lite)"], rows) +
    "\n\nThe estimate is a heuristic: a provider's usage (`observeUsage`) calibrates it per session; `context-compactor/tiktoken` gives exact counts at the speed shown."
  );
}
