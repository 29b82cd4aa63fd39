import { CODE_BIT, DOC_CHILDREN, LINK_BIT, MARKS, NODES, type NodeSpec } from './schema.js';
import { ADF_LIMITS, type AdfDoc, type AdfValidation } from './types.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

/** A problem found on the node being visited; `suffix` points inside it (e.g. at a mark). */
interface Fault {
  readonly message: string;
  readonly suffix: string;
}

const fault = (message: string, suffix = ''): Fault => ({ message, suffix });

/** One level of the explicit traversal stack; `i` is the index of the next child to visit. */
interface Frame {
  readonly type: string;
  readonly allowed: ReadonlySet<string>;
  readonly kids: readonly unknown[];
  i: number;
}

/**
 * Validates an incoming ADF document against the subset of Jira's schema we
 * support. Iterative, so hostile nesting cannot overflow the stack; paths are
 * only built once a fault is found, keeping the happy path allocation-light.
 * On success the input object itself is returned (no clone).
 */
export function validateAdf(value: unknown): AdfValidation {
  if (!isObj(value)) return fail('$', `document must be an object, got ${describe(value)}`);
  if (value.type !== 'doc') return fail('$', 'root node must have type "doc"');
  if (value.version !== 1) return fail('$', 'doc "version" must be the number 1');
  if (!Array.isArray(value.content)) return fail('$', 'doc needs a "content" array');

  const stack: Frame[] = [{ type: 'doc', allowed: DOC_CHILDREN, kids: value.content, i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.kids.length) {
      stack.pop();
      continue;
    }
    const node = top.kids[top.i++];
    const result = checkNode(node, top, stack.length);
    if ('message' in result) return fail(pathOf(stack) + result.suffix, result.message);
    const content = (node as Obj).content;
    if (result.children && Array.isArray(content) && content.length > 0) {
      stack.push({ type: (node as Obj).type as string, allowed: result.children, kids: content, i: 0 });
    }
  }
  return { ok: true, doc: value as unknown as AdfDoc };
}

function fail(path: string, message: string): AdfValidation {
  return { ok: false, path, message };
}

/** Every frame has already advanced past the child on the current path, hence `i - 1`. */
function pathOf(stack: readonly Frame[]): string {
  let path = '$';
  for (const f of stack) path += `.content[${f.i - 1}]`;
  return path;
}

function checkNode(node: unknown, parent: Frame, depth: number): Fault | NodeSpec {
  if (!isObj(node)) return fault(`node must be an object, got ${describe(node)}`);
  const type = node.type;
  if (typeof type !== 'string') return fault('node needs a string "type"');
  const spec = NODES.get(type);
  if (!spec) return fault(`unknown node type "${type}"`);
  if (!parent.allowed.has(type)) return fault(`"${type}" is not allowed inside "${parent.type}"`);
  if (depth > ADF_LIMITS.maxDepth) return fault(`nesting deeper than ${ADF_LIMITS.maxDepth} levels`);

  const attrs = node.attrs;
  if (attrs !== undefined && !isObj(attrs)) return fault('"attrs" must be an object');
  const attrError = spec.attrs?.(attrs);
  if (attrError) return fault(attrError);

  const content = node.content;
  if (content !== undefined) {
    if (!spec.children) return fault(`${type} cannot have content`);
    if (!Array.isArray(content)) return fault('"content" must be an array');
  }
  if (spec.needsContent && !(Array.isArray(content) && content.length > 0)) return fault(spec.needsContent);

  if (type === 'text') {
    if (typeof node.text !== 'string' || node.text === '') {
      return fault('text node needs a non-empty "text" string');
    }
    return checkMarks(node.marks, parent.type === 'codeBlock') ?? spec;
  }
  if (node.marks !== undefined) return fault('marks are only allowed on text nodes');
  return spec;
}

function checkMarks(marks: unknown, inCodeBlock: boolean): Fault | undefined {
  if (marks === undefined) return undefined;
  if (!Array.isArray(marks)) return fault('"marks" must be an array');
  if (inCodeBlock && marks.length > 0) return fault('text inside codeBlock cannot have marks', '.marks[0]');
  let seen = 0;
  for (let j = 0; j < marks.length; j++) {
    const at = (message: string) => fault(message, `.marks[${j}]`);
    const mark: unknown = marks[j];
    if (!isObj(mark)) return at(`mark must be an object, got ${describe(mark)}`);
    const type = mark.type;
    if (typeof type !== 'string') return at('mark needs a string "type"');
    const spec = MARKS.get(type);
    if (!spec) return at(`unknown mark type "${type}"`);
    if (seen & spec.bit) return at(`duplicate mark "${type}"`);
    if (mark.attrs !== undefined && !isObj(mark.attrs)) return at('"attrs" must be an object');
    const attrError = spec.attrs?.(mark.attrs);
    if (attrError) return at(attrError);
    // Jira renders inline code verbatim, so it only tolerates a link alongside it.
    const clash = spec.bit === CODE_BIT ? (seen & ~LINK_BIT) !== 0 : spec.bit !== LINK_BIT && (seen & CODE_BIT) !== 0;
    if (clash) return at('"code" mark can only be combined with "link"');
    seen |= spec.bit;
  }
  return undefined;
}
