// A pass's input read and planned: what `prepare` (src/prepare.ts) hands every later stage of the pass.
import type { Dialect, MessageView } from "../dialects/view.js";
import type { Settings } from "../options.js";
import type { Refs } from "../refs.js";
import type { CompactorState } from "../state.js";
import type { Plan } from "./types.js";

export interface Prepared<M> {
  dialect: Dialect<M>;
  /** options.system, for dialects that keep the system prompt beside the messages. */
  system: unknown;
  input: M[];
  settings: Settings;
  state: CompactorState;
  views: MessageView[];
  plan: Plan;
  /** Said in every report of this input, whatever the pass does. */
  warnings: string[];
  /** How the pass cites messages, once it knows the passes before it. */
  refs?: Refs;
  /** With maxRequestBytes: each message's bytes (JSON, UTF-8). */
  bytes?: number[];
}
