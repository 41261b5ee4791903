/**
 * Best-effort completion of JSON cut off mid-way (a stream that stopped at its token limit): closes an open string,
 * drops a dangling comma or key, gives a dangling `:` a null, and closes every open object and array. Answers the
 * repaired text, or undefined when even that does not parse (a cut inside a number or a literal such as `tru`).
 */
export function repairJson(text: string): string | undefined {
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') closers.push('}');
    else if (ch === '[') closers.push(']');
    else if (ch === '}' || ch === ']') closers.pop();
  }
  let repaired = text;
  if (inString) repaired += escaped ? '\\"' : '"';
  repaired = repaired.trimEnd();
  if (repaired.endsWith(',')) repaired = repaired.slice(0, -1);
  else if (repaired.endsWith(':')) repaired += 'null';
  else if (closers[closers.length - 1] === '}' && /[{,]\s*"(?:[^"\\]|\\.)*"$/.test(repaired)) {
    // A key without its value.
    repaired += ':null';
  }
  repaired += closers.reverse().join('');
  try {
    JSON.parse(repaired);
    return repaired;
  } catch {
    return undefined;
  }
}
