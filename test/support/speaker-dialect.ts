// A dialect written the way a user would write one: a minimal chat format of `{ speaker, text }` turns
// with no tools and no images. The README's custom-dialect example is this file.
import { CompactionInputError, type Dialect, type MessageView } from "../../src/index.js";

export interface Turn {
  speaker: "system" | "user" | "bot";
  text: string;
}

const ROLE = { system: "system", user: "user", bot: "assistant" } as const;
const SPEAKER = { user: "user", assistant: "bot" } as const;

export const speakerTurns: Dialect<Turn> = {
  name: "speaker-turns",
  validate(messages) {
    if (!Array.isArray(messages)) throw new CompactionInputError(-1, ["must be an array of turns"]);
    messages.forEach((m, i) => {
      if (!(m?.speaker in ROLE)) throw new CompactionInputError(i, [`speaker: must be "system", "user" or "bot"`]);
      if (typeof m.text !== "string") throw new CompactionInputError(i, ["text: must be a string"]);
    });
    return messages as Turn[];
  },
  view: (m): MessageView => ({ role: ROLE[m.speaker], text: m.text, images: 0, attachments: 0, otherChars: 0, toolCalls: [], results: [] }),
  // No tools, no images: compaction never asks to rewrite them.
  withResults: (m) => m,
  withArguments: (m) => m,
  withoutImages: (m) => m,
  withoutResults: () => undefined,
  answer: () => ({}),
  handoff: (role, text) => ({ speaker: SPEAKER[role], text }),
  prepend: (m, text) => ({ ...m, text: `${text}\n\n${m.text}` }),
  appendNote: (m, note) => ({ ...m, text: `${m.text}\n\n${note}` }),
};
