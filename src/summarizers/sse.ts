// Server-sent events, parsed incrementally: bytes → text (TextDecoderStream keeps split UTF-8
// characters whole) → events. Hand-written (≈ 40 lines) instead of a dependency: the core bundle has a
// 15 KiB budget and the format is small (WHATWG HTML § 9.2.6).

export interface SSEEvent {
  event: string;
  data: string;
}

/** Splits SSE text into events across chunk boundaries: CRLF, CR or LF; comments; multi-line data. */
export function sseEvents(): TransformStream<string, SSEEvent> {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let sawData = false;
  const line = (l: string, out: TransformStreamDefaultController<SSEEvent>) => {
    if (l === "") {
      if (sawData) out.enqueue({ event: event || "message", data: data.join("\n") });
      event = "";
      data = [];
      sawData = false;
      return;
    }
    if (l.startsWith(":")) return; // a comment
    const colon = l.indexOf(":");
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      sawData = true;
    } else if (field === "event") event = value;
  };
  return new TransformStream({
    transform(chunk, out) {
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
        if (c === 13 && i === buffer.length - 1) break;
        line(buffer.slice(start, i), out);
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    // An event not closed by a blank line when the stream ends is incomplete: the spec drops it,
    // and so do we (the provider parsers then see a stream cut off before its end).
  });
}

/** The events of a response body, as they arrive. */
export function eventsOf(body: ReadableStream<Uint8Array>): ReadableStream<SSEEvent> {
  return body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).pipeThrough(sseEvents());
}
