// plan: where head, middle and tail fall, and whether to compact. Pure and cheap.
import { findHandoff } from "../facts/handoff.js";
import type { MessageView, NeutralRole } from "../dialects/view.js";
import { MESSAGE_OVERHEAD, messageTokens, toolDefinitionTokens } from "../estimate/index.js";
import {
  HEAD_RESULTS_SHARE,
  IMAGE_PRUNE_MIN,
  MAX_STRIKES,
  MIN_TAIL_MESSAGES,
  PIN_SHARE,
  SHRINK_MIN_CHARS,
  TAIL_SHARE,
  TAIL_SOFT_CEILING,
  prunableOutput,
  shrinkable,
  type Settings,
} from "../options.js";
import type { CompactorState } from "../state.js";
import type { Plan } from "./types.js";

/**
 * The latest user message, and the earlier handoff treated as state, in one walk back. The latest
 * user message is a real user turn (not only a handoff of ours: text after its end marker, or any
 * content), or another agent's handoff when it came last (Claude Code's "This session is being
 * continued…" carries the instruction to go on); it stays a message whatever it holds.
 */
function latestAndHandoff(views: MessageView[]): [latest: number, handoff: number] {
  let latest = -1;
  let handoff = -1;
  for (let i = views.length; i-- && (latest < 0 || handoff < 0); ) {
    const v = views[i];
    const found = /user|assistant/.test(v.role) ? findHandoff(v.text) : undefined;
    if (latest < 0 && v.role === "user" && (found ? found.rest !== "" || !found.ours : v.text.trim() !== "" || v.images + v.attachments + v.otherChars > 0)) latest = i;
    else if (found && handoff < 0) handoff = i;
  }
  return [latest, handoff];
}

function headEnd(views: MessageView[], perMessage: number[], s: Settings, handoffAt: number, turns: boolean): number {
  const system = past(views, 0, 1);
  let end = Math.min(views.length, system + s.headMessages);
  // A head never ends between a tool call and its results: it takes the results along.
  while (end < views.length && continues(views, end, turns)) end++;
  // Its tool results share a small budget (an agent whose first act reads a large file must not be
  // stuck): the head ends before the call whose results pass it, leaving them to prune or summarize.
  let results = 0;
  for (let i = system; i < end; i++) {
    results += views[i].results.length ? perMessage[i] : 0;
    if (results > s.thresholdTokens * HEAD_RESULTS_SHARE) {
      end = groupStart(views, i, system, turns);
      break;
    }
  }
  // An earlier handoff is state, not an ordinary turn: the head stops before it (and before the call
  // whose results it carries, Anthropic's [tool_result, handoff text]).
  return handoffAt >= system && handoffAt < end ? groupStart(views, handoffAt, system, turns) : end;
}

/**
 * Whether message `i` belongs to the group before it: tool results do; with `turns` (a model turn
 * spread over several messages, as Responses API items are), so does an assistant message after one.
 */
const continues = (views: MessageView[], i: number, turns: boolean) =>
  views[i].results.length > 0 || (turns && views[i].role === "assistant" && views[i - 1]?.role === "assistant");

/** Start of the tool-call group containing `i`: back past tool results to the call that made them (and its turn). */
function groupStart(views: MessageView[], i: number, floor: number, turns = false): number {
  while (i > floor && continues(views, i, turns)) i--;
  return i;
}

/** End of the tool-call group containing `i`: past the results (and turn) that follow it. */
function groupEnd(views: MessageView[], i: number, turns: boolean): number {
  while (++i < views.length && continues(views, i, turns));
  return i;
}

function tailStart(views: MessageView[], perMessage: number[], floor: number, budget: number, turns: boolean): number {
  const n = views.length;
  const ceiling = budget * TAIL_SOFT_CEILING;
  let start = n;
  for (let acc = 0; start > floor; start--) {
    const t = perMessage[start - 1];
    if (n - start >= MIN_TAIL_MESSAGES && (acc >= budget || acc + t > ceiling)) break;
    acc += t;
  }
  return start < n ? groupStart(views, start, floor, turns) : start;
}

/** A turn strict chat templates (Mistral, Devstral) check for alternation: tool results and calls are skipped. */
export const shown = (v: MessageView) => v.role === "user" || (v.role === "assistant" && !v.toolCalls.length);
export const userText = (v: MessageView) => v.role === "user" && v.text.trim() !== "";

/** Whether a message of role `r` may follow one of role `before` (none: it opens the conversation). */
const apart = (r: NeutralRole, before?: NeutralRole) => r !== before && !(r === "assistant" && !before);

/**
 * How the handoff joins the last head message and the first tail message (`before`, `after`: wire
 * roles) so that user and assistant alternate on the wire and as strict templates see the turns
 * (`shownBefore`, `shownAfter`; `firstShown`: the first tail message is such a turn, so a merged
 * handoff is seen in it); "merge" prepends it to the first tail message. With `needsUser` nothing kept
 * has user text, so a user handoff wins (Hermes' zero-user guard). The flag is false when only the
 * wire alternates.
 */
function seamRole(before: NeutralRole | undefined, after: NeutralRole | undefined, shownBefore?: NeutralRole, shownAfter?: NeutralRole, firstShown = true, needsUser = false): [Plan["seam"], boolean] {
  const order = needsUser ? (["user", "merge", "assistant"] as const) : before === "user" ? (["assistant", "user", "merge"] as const) : (["user", "assistant", "merge"] as const);
  let wireOnly: Plan["seam"] | undefined;
  for (const r of order) {
    const merge = r === "merge";
    // A target outside the alternation (Responses items all are) never takes a merge, nor does a tail
    // with none in it (its messages all system: property counterexample, Anthropic with a late `<env>`).
    if (merge && (!after || after === "system")) continue;
    const role = merge ? after! : r;
    if (!apart(role, before) || (!merge && r === after)) continue;
    wireOnly ??= r;
    const seen = merge ? (firstShown ? after !== shownBefore : !shownBefore || shownBefore !== shownAfter) : r !== shownBefore && r !== shownAfter;
    if (seen || (needsUser && role === "user")) return [r, true];
  }
  return [wireOnly ?? (after ? "merge" : "user"), false];
}

/**
 * The wire role the handoff will follow: the last head message's, looking past tool results that
 * answer no call of their group when assembly will drop them.
 */
function roleBefore(views: MessageView[], end: number, wire: Wire, orphansStay: boolean): NeutralRole | undefined {
  let i = past(views, end - 1, -1);
  if (!orphansStay && views[i]?.role === "tool") {
    // One walk back over the run of results to the call that opened it, then one check of each: linear.
    const owner = groupStart(views, i, 0);
    const ids = new Set(views[owner].toolCalls.map((c) => c.id));
    for (; i > owner && views[i].role === "tool"; i--) if (views[i].results.some((r) => ids.has(r.id))) return wire("tool");
    while (views[i]?.role === "tool") i--;
  }
  return views[i] && wire(views[i].role);
}

type Wire = (role: NeutralRole) => NeutralRole;

/** From `i`, stepping by `step`, the first message in the alternation: system messages (Claude Code's inside Anthropic messages too) stand outside it. */
function past(views: MessageView[], i: number, step: number): number {
  while (i >= 0 && views[i]?.role === "system") i += step;
  return i;
}

/** The caller's pins with their tool pairs: the whole tool-call group of each. */
function pinGroups(views: MessageView[], chosen: number[], turns: boolean): number[] {
  const out = new Set<number>();
  for (let i of chosen) for (i = groupStart(views, i, 0, turns); out.add(i) && i + 1 < views.length && continues(views, i + 1, turns); i++);
  return [...out].sort((a, b) => a - b);
}

export const sum = (xs: number[], from = 0, to = xs.length) => {
  let t = 0;
  for (let i = from; i < to; i++) t += xs[i];
  return t;
};


export function planViews(
  views: MessageView[],
  s: Settings,
  state: CompactorState | undefined,
  force: boolean,
  wire: Wire = (r) => r,
  orphansStay = false,
  turns = false,
  messages?: readonly unknown[],
  chosen?: number[],
  bytes?: number,
): Plan {
  const n = views.length;
  // By message object: what an earlier pass counted of the same messages is not counted again.
  const perMessage = views.map((m, i) => messageTokens(m, s, messages?.[i]));
  // Sent with every request but never rewritten: tool definitions and a system prompt kept apart.
  const fixedTokens = toolDefinitionTokens(s.tools, s) + (s.system ? MESSAGE_OVERHEAD + s.countText(s.system) : 0);
  const total = fixedTokens + sum(perMessage);

  const [lu, previousHandoffIndex] = latestAndHandoff(views);
  let hEnd = headEnd(views, perMessage, s, previousHandoffIndex, turns);
  // Zero-user guard: when no user turn has text (an image alone), the handoff must be a user message;
  // a head ending in that user turn (or a stray result after it) takes its next tool group along so that one can follow it.
  if (hEnd > 0 && /user|tool/.test(views[hEnd - 1].role) && views[hEnd]?.toolCalls.length && !views.some(userText)) {
    while (views[++hEnd]?.role === "tool");
  }
  // A manual compaction under the threshold still leaves something to compact.
  const tailBudget = s.tailTokens ?? Math.floor(Math.min(s.thresholdTokens, total) * TAIL_SHARE);
  let tStart = tailStart(views, perMessage, hEnd, tailBudget, turns);
  // An earlier handoff is state on this side too: a tail that would keep it beside the new one starts
  // after its group instead, so it joins the middle as the checkpoint to update (unless nothing would follow it).
  const stateEnd = previousHandoffIndex >= hEnd ? groupEnd(views, previousHandoffIndex, turns) : hEnd;
  const afterState = stateEnd < n ? stateEnd : hEnd;
  if (tStart > hEnd) tStart = Math.max(tStart, afterState);
  // The latest request stays a real message: in the tail, or, when everything after it would not
  // fit in a reasonable tail, pinned verbatim right before the handoff.
  // One that carries tool results (Anthropic's [tool_result, text]) is pinned with the call(s) it answers.
  let block: number[] = [];
  if (lu >= hEnd && lu < tStart) {
    const call = groupStart(views, lu, hEnd, turns);
    if (sum(perMessage, lu) > s.thresholdTokens * PIN_SHARE && tStart - hEnd > lu - call + 1) for (let i = call; i <= lu; i++) block.push(i);
    else tStart = call;
  }
  // The caller's pins (src/options: `pin`) join the request's block: one mechanism keeps both verbatim.
  const userPinned = chosen && pinGroups(views, chosen, turns);
  if (userPinned) {
    // In order, with the messages between two pinned ones kept too where their roles would meet on the wire.
    const keep = [...block, ...userPinned];
    let role: NeutralRole | undefined;
    let turn = -1; // the last pinned message in the alternation
    block = [];
    for (let i = hEnd; i < tStart; i++) {
      if (!keep.includes(i)) continue;
      const r = wire(views[i].role);
      if (r === role && /user|assistant/.test(r)) {
        block = block.filter((k) => k < turn);
        for (let k = turn; k < i; k++) block.push(k);
      }
      block.push(i);
      if (r !== "system") [role, turn] = [r, i];
    }
  }
  const inTurns = (i: number) => views[i].role !== "system";

  // The pinned block follows the head unless its first message would meet one of its own role (the
  // request a user message, a call an assistant message or nothing); then the handoff goes between
  // them and the request is followed by the tail.
  const headRole = roleBefore(views, hEnd, wire, orphansStay);
  const roleAt = (i: number) => wire(views[past(views, i, 1)]?.role as NeutralRole);
  // Its turns: system messages (Claude Code's, or pinned) stand outside the alternation.
  const turnsPinned = block.filter(inTurns);
  const pinRole = wire(views[turnsPinned[0]]?.role);
  // (Looking past results assembly will drop, as for the head: pinned runs are whole groups. A call
  // left without results there ends in the stub results sanitizing gives it.)
  const last = turnsPinned.at(-1);
  const lastPinned = last === undefined ? undefined : views[last].toolCalls.length ? wire("tool") : roleBefore(views, last + 1, wire, orphansStay);
  let handoffBeforePinned = /user|assistant/.test(pinRole) && !apart(pinRole, headRole);
  if (handoffBeforePinned && !apart(roleAt(tStart), lastPinned)) {
    // The tail would meet the block's last message with one of its role too: no place that keeps alternation; the tail takes the block.
    [block, handoffBeforePinned, tStart] = [[], false, block[0]];
  }
  // The handoff follows the pinned request: a user turn, on the wire and as strict templates see it.
  const afterRequest = block.some(inTurns) && !handoffBeforePinned;
  // Calls the head leaves open get stub results from the sanitizer, carried by the next turn; when a
  // system message comes first (the tail's, or the newest one pinned) the stubs are a message of
  // their own, and the handoff follows them.
  const headOpen = !afterRequest && views[past(views, hEnd - 1, -1)]?.toolCalls.length > 0;
  const newestSystem = turns ? -1 : lastOf(views, "system");
  const stubsAlone = (start: number) => {
    const next = block.length ? block[0] : newestSystem >= hEnd && newestSystem < start ? newestSystem : start;
    return headOpen && views[next]?.role === "system";
  };
  // What strict templates see before the seam: the pinned request, or the head's last shown turn. Only
  // formats with a tool role have such templates: where results are user turns (Anthropic), the wire is all.
  const templated = wire("tool") === "tool";
  const shownIn = (pins: number[]) => views[pins.find((i) => shown(views[i]))!]?.role;
  let shownBefore = afterRequest ? shownIn([...block].reverse()) : undefined;
  for (let i = hEnd - 1; templated && !shownBefore && i >= 0 && views[i].role !== "system"; i--) if (shown(views[i])) shownBefore = views[i].role;
  // Where the last user text is, unless the head or the latest request (always kept) has one.
  let lastUserText = -1;
  views.forEach((v, i) => {
    if (userText(v)) lastUserText = Math.max(lastUserText, i < hEnd || i === lu || block.includes(i) ? n : i);
  });
  const seamAt = (start: number): [Plan["seam"], boolean] => {
    if (start >= n || start <= hEnd) return ["none", true];
    let shownAfter = handoffBeforePinned ? shownIn(block) : undefined;
    for (let i = start; templated && !shownAfter && i < n; i++) if (shown(views[i])) shownAfter = views[i].role;
    const after = handoffBeforePinned ? pinRole : roleAt(start);
    const before = afterRequest ? lastPinned : stubsAlone(start) ? wire("tool") : headRole;
    return seamRole(before, after, shownBefore, shownAfter, handoffBeforePinned || shown(views[start]), lastUserText < start);
  };
  // Never wrap the latest request in a merged handoff, and keep strict templates' alternation where
  // only the wire would: start the tail a group earlier, while the tail stays under the threshold.
  // Never back past the head, nor past a pinned request (it stays between handoff and tail).
  const floor = Math.max(block.length ? block.at(-1)! + 1 : hEnd, afterState);
  // A merged handoff rewrites the message it joins: never the latest request nor a pinned message.
  const mergeable = (start: number) => start !== lu && !userPinned?.includes(past(views, start, 1));
  let tail = sum(perMessage, tStart);
  for (let start = tStart, fallback = -1; ; ) {
    const [x, strict] = seamAt(start);
    const fine = x !== "merge" || mergeable(start);
    if (fine && (strict || fallback < 0)) fallback = start;
    const earlier = groupStart(views, start - 1, floor, turns);
    tail += sum(perMessage, earlier, start);
    if ((fine && strict) || earlier <= floor || (fallback >= 0 && tail > s.thresholdTokens)) {
      if (fallback >= 0) tStart = fallback;
      break;
    }
    start = earlier;
  }
  let [seam] = seamAt(tStart);
  // No group left between head and tail and still a merge into the latest request or a pin: end the head one
  // group earlier (its last assistant message joins the middle), or else summarize nothing.
  if (seam === "merge" && !mergeable(tStart)) {
    const shorter = groupStart(views, hEnd - 1, 0, turns);
    const shorterSeam = shorter >= 0 && views[shorter].role !== "system" && seamRole(roleBefore(views, shorter, wire, orphansStay), roleAt(tStart))[0];
    // (Only when the messages it gives up are neither the latest request nor pinned.)
    const released = (i: number) => i >= shorter && i < hEnd;
    if (shorterSeam && shorterSeam !== "merge" && !block.length && !released(lu) && !userPinned?.some(released)) [hEnd, seam] = [shorter, shorterSeam];
    else tStart = hEnd;
  }

  // The newest system message (Claude Code's environment, deferred tools) is the newest instruction:
  // pinned too, after the request: after the head comes a user turn (or the handoff), which answers
  // the calls the head left open.
  // (Not for itemized formats: there a role-less item views as system and may close a model turn.)
  const pins = [...block, newestSystem < tStart && !block.includes(newestSystem) ? newestSystem : -1].filter((i) => i >= hEnd && i < tStart);

  const thresholdTokens = s.thresholdTokens;
  const middleEmpty = tStart <= hEnd;
  const tailStarts = Math.max(hEnd, tStart);
  let shouldCompact = false;
  let reason: string;
  let stalled: Plan["stalled"];
  // Over maxRequestBytes a pass runs whatever the tokens (it stubs the oldest images).
  const overBytes = bytes! > s.maxRequestBytes!;
  const over = overBytes || total > thresholdTokens;
  if (middleEmpty && !over) {
    reason = `${total} tokens, under the threshold of ${thresholdTokens}; nothing between head and tail`;
  } else if (force) {
    shouldCompact = true;
    reason = `forced at ${total} tokens (threshold ${thresholdTokens})`;
  } else if (!over) {
    reason = `${total} tokens, under the threshold of ${thresholdTokens}`;
  } else if (state?.stalled?.at === lu) {
    stalled = { reason: state.stalled.reason, help: state.stalled.help };
    reason = `stalled: ${state.stalled.reason}; compaction waits for a new user message (force overrides)`;
  } else if (state && state.pausedUntil! > s.now()) {
    reason = `paused by the frequency guard until ${new Date(state.pausedUntil!).toISOString()}; use force to compact now`;
  } else if (state && state.strikes >= MAX_STRIKES && total < (state.backoffUntilTokens ?? Infinity)) {
    reason =
      `backed off: the last ${state.strikes} passes each saved under 10 %; ` +
      `automatic compaction resumes at ${state.backoffUntilTokens} tokens (now ${total}); use force to compact now`;
  } else {
    // With nothing between head and tail, a pass can only prune the tail: worth it only if something there would shrink.
    shouldCompact = overBytes || !middleEmpty || tailPrunable(views, s, tStart, lu, total > s.effectiveWindow);
    reason = overBytes && total <= thresholdTokens ? `${bytes} bytes exceed maxRequestBytes (${s.maxRequestBytes}), at ${total} tokens` : `${total} tokens exceed the threshold of ${thresholdTokens}${
      middleEmpty ? `, and nothing lies between the head and the tail: ${shouldCompact ? "only the tail's own tool outputs can be pruned" : "nothing can be compacted"}` : ""
    }`;
  }

  return {
    tokens: { total, threshold: thresholdTokens, perMessage },
    shouldCompact,
    reason,
    head: { start: 0, end: hEnd },
    middle: { start: hEnd, end: tailStarts },
    tail: { start: tailStarts, end: n },
    latestUserIndex: lu,
    ...(stalled && { stalled }),
    effectiveWindow: s.effectiveWindow,
    pruneTarget: Math.max(0, thresholdTokens - s.runway),
    fixedTokens,
    tailBudget,
    previousHandoffIndex,
    pinned: pins,
    handoffBeforePinned: handoffBeforePinned || (pins.length > 0 && !pins.some(inTurns)),
    seam: middleEmpty ? "none" : seam,
    ...(userPinned && { userPinned }),
    ...(bytes && { bytes }),
  };
}

/** Index of the last message of role `role` (the last assistant message's calls and the results after it are unread, in flight). */
export const lastOf = (views: MessageView[], role: NeutralRole) => views.map((v) => v.role).lastIndexOf(role);

/**
 * Whether pruning the tail (from `start`) would shorten something, as src/prune does it: a read tool
 * output, long arguments or an image of an unprotected call; or, over the window, an unread output
 * long enough to shrink. Keeps `shouldCompact` true exactly when a pass with no middle can act.
 */
function tailPrunable(views: MessageView[], s: Settings, start: number, lu: number, overWindow: boolean): boolean {
  const unread = lastOf(views, "assistant");
  // Each result's call name: the latest earlier call with its id, as src/dialects/pairs.ts pairs them.
  const names = new Map<string, string>();
  const open = (name?: string) => !s.protectedTools.has(name!);
  const pictures = s.imageTokens > IMAGE_PRUNE_MIN; // as src/prune judges them: a stub must save something
  return views.some((m, i) => {
    for (const c of m.toolCalls) names.set(c.id, c.name);
    return (
      i >= start &&
      (i > unread
        ? overWindow && m.results.some((r) => shrinkable(r.text))
        : i < unread && i !== lu && (m.toolCalls.length > 0 || m.results.length > 0) &&
          ((m.images + m.attachments > 0 && pictures) ||
            m.results.some((r) => open(names.get(r.id)) && prunableOutput(r, pictures)) ||
            m.toolCalls.some((c) => open(c.name) && c.arguments.length > SHRINK_MIN_CHARS)))
    );
  });
}
