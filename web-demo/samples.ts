// Transcripts bundled with the demo: real agent sessions vendored in test/fixtures.
import claudeCode from "../test/fixtures/trajectories/openai/claude-code-spotter__4d5611e5-241a-462a-8d15-5122611a9569.json";
import longTask from "../test/fixtures/trajectories/openai/claude-code-spotter__fa812bfe-b295-4cca-9c2f-fdf01028cb46.json";
import sweAgent from "../test/fixtures/trajectories/openai/swe-agent__gpt4_default__pydicom-1458.json";
import openHands from "../test/fixtures/trajectories/openai/openhands__basic_gui_mode.json";

export interface Sample {
  title: string;
  messages: unknown[];
}

export const SAMPLES: Sample[] = [
  { title: "Claude Code session, 171k tokens", messages: claudeCode.messages },
  { title: "Claude Code: one request, hours of tool work", messages: longTask.messages },
  { title: "SWE-agent fixing pydicom", messages: sweAgent.messages },
  { title: "OpenHands, GUI mode", messages: openHands.messages },
];
