type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Marks the end of a node that had a `content` array. */
const EXIT = Symbol('exit');

/** Node types rendered inside the current line rather than starting a new block. */
const INLINE = new Set(['text', 'hardBreak', 'mention', 'emoji', 'inlineCard', 'date', 'status']);

/**
 * Pre-order traversal with an explicit stack: documents come from untrusted
 * sources and may be nested far deeper than the call stack allows.
 * Accepts a node (usually the doc) or an array of nodes; skips anything that
 * is not an object.
 */
function* events(root: unknown): Generator<Obj | typeof EXIT> {
  const stack: Array<{ kids: readonly unknown[]; i: number }> = [{ kids: Array.isArray(root) ? root : [root], i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.kids.length) {
      stack.pop();
      // The bottom frame is synthetic and belongs to no node.
      if (stack.length > 0) yield EXIT;
      continue;
    }
    const node = top.kids[top.i++];
    if (!isObj(node)) continue;
    yield node;
    if (Array.isArray(node.content)) stack.push({ kids: node.content, i: 0 });
  }
}

/** Yields the `text` of every text node, in document order, at any depth. Never throws. */
export function* walkText(doc: unknown): Generator<string> {
  for (const ev of events(doc)) {
    if (ev !== EXIT && ev.type === 'text' && typeof ev.text === 'string') yield ev.text;
  }
}

function inlineText(node: Obj): string {
  const attrs = isObj(node.attrs) ? node.attrs : {};
  const pick = (...vals: unknown[]) => vals.find((v): v is string => typeof v === 'string') ?? '';
  switch (node.type) {
    case 'text':
      return pick(node.text);
    case 'hardBreak':
      return '\n';
    case 'mention':
      return pick(attrs.text);
    case 'emoji':
      return pick(attrs.text, attrs.shortName);
    case 'inlineCard':
      return pick(attrs.url);
    default:
      return pick(attrs.text);
  }
}

/**
 * Yields the text of each block that has any. Blocks with no text (empty
 * paragraphs, rules) are skipped so that marker lookups are not defeated by
 * leading blank paragraphs.
 */
function* blocks(doc: unknown): Generator<string> {
  let current: string | null = null;
  for (const ev of events(doc)) {
    if (ev !== EXIT && typeof ev.type === 'string' && INLINE.has(ev.type)) {
      current = (current ?? '') + inlineText(ev);
      continue;
    }
    // Entering or leaving any non-inline node closes the block being collected.
    if (current !== null && current !== '') yield current;
    current = null;
  }
  if (current !== null && current !== '') yield current;
}

/** Block nodes joined by "\n"; hardBreak becomes "\n". Never throws. */
export function adfToPlainText(doc: unknown): string {
  return [...blocks(doc)].join('\n');
}

/** First line of `adfToPlainText(doc)`, computed without rendering the whole document. */
export function firstLineText(doc: unknown): string {
  for (const block of blocks(doc)) return block.split('\n', 1)[0] ?? '';
  return '';
}
