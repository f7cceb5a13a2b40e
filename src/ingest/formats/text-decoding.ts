/** Bytes of a text file as a string: UTF-16 by its byte-order mark, UTF-8 when valid, else Windows-1252 (what spreadsheets export in Western Europe). */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The text's lines, without their line ends ("\r\n", "\n" or "\r"), as a generator: a 50 MB file is not split at once. */
export function* linesOf(text: string): Generator<string> {
  let at = 0;
  while (at <= text.length) {
    let end = at;
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    yield text.slice(at, end);
    if (end >= text.length) return;
    at = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
  }
}
