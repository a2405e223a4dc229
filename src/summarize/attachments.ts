// Attachments named for the summary (`image/png screenshot.png`) instead of dropped: read from the raw
// message, whatever its dialect, only when a pass summarizes (the views keep counts only, so that what
// `import { compact }` loads does not grow).

/** Part types that carry an image or a file, by kind (OpenAI Chat and Responses, Anthropic, AI SDK). */
const KINDS: Record<string, string> = {
  image_url: "image",
  image: "image",
  input_image: "image",
  "image-data": "image",
  "image-url": "image",
  file: "file",
  input_file: "file",
  "file-data": "file",
  "file-url": "file",
  document: "document",
  input_audio: "audio",
  audio: "audio",
  media: "media",
};
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)[;,]/;

type Part = Record<string, unknown>;
const str = (x: unknown) => (typeof x === "string" && x ? x : undefined);
const obj = (x: unknown) => (x && typeof x === "object" ? (x as Part) : {});

/** The last path segment of a plain URL: the name a user would know the file by. */
function urlName(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//.test(url)) return undefined;
  const path = url.split(/[?#]/)[0];
  return str(decodeURIComponentSafe(path.slice(path.lastIndexOf("/") + 1)));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `image/png screenshot.png`: the mime type (else the kind) and the file name, as far as the part says. */
function describe(part: Part, kind: string): string {
  const file = obj(part.file);
  const source = obj(part.source);
  const url = str(obj(part.image_url).url) ?? str(part.image_url) ?? str(part.url) ?? str(part.image) ?? str(part.data) ?? str(file.file_data) ?? str(part.file_data);
  const audio = str(obj(part.input_audio).format);
  const mime =
    str(part.mediaType) ?? str(part.mimeType) ?? str(part.media_type) ?? str(part.mime_type) ?? str(source.media_type) ?? (url && DATA_URL.exec(url)?.[1]) ?? (audio && `audio/${audio}`);
  const name = str(part.filename) ?? str(file.filename) ?? str(part.title) ?? str(part.name) ?? urlName(url) ?? urlName(str(source.url));
  return [mime ?? kind, name].filter(Boolean).join(" ").slice(0, 200);
}

/** Every image or file part inside a message (tool results included), in order, described. */
export function attachmentsOf(message: unknown): string[] {
  const out: string[] = [];
  const walk = (x: unknown, depth: number) => {
    if (depth > 6 || !x || typeof x !== "object") return;
    if (Array.isArray(x)) return x.forEach((y) => walk(y, depth + 1));
    const part = x as Part;
    const kind = typeof part.type === "string" ? KINDS[part.type] : undefined;
    // A bare "image"/"file" key of a part of another type (AI SDK's `{ type: "image", image }`) is the payload, not a part.
    if (kind && depth > 0) return void out.push(describe(part, kind));
    for (const [k, v] of Object.entries(part)) if (k !== "image_url" && k !== "source") walk(v, depth + 1);
  };
  walk(message, 0);
  return out;
}
