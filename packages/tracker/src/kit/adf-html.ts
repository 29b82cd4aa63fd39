import { walkText } from '@jst/adf';
import { html, Html } from './html.js';

/**
 * ADF (spec §2) as HTML for the issue page: headings, paragraphs, lists, code blocks, quotes,
 * panels, rules, tables and the inline marks. Every text goes through `html` (escaped); a link
 * keeps its href only for http, https and mailto, otherwise it is shown as plain text. Unknown
 * nodes show their children (or their text), never their raw attributes.
 */

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const attrsOf = (n: Node): Node => (isNode(n.attrs) ? n.attrs : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Deeper than the validator ever lets a stored document go (ADF_LIMITS): the rest is shown as text. */
const MAX_DEPTH = 128;
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The href to keep for a link, or undefined when it is not an absolute http(s)/mailto URL. */
export function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined;
  try {
    const url = new URL(href);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const link = (href: string | undefined, inner: Html | string) =>
  href ? html`<a href="${href}" rel="noopener noreferrer nofollow">${inner}</a>` : html`${inner}`;

function renderText(node: Node): Html {
  let out: Html = html`${str(node.text) ?? ''}`;
  const marks = Array.isArray(node.marks) ? node.marks.filter(isNode) : [];
  // Links outermost, so a link's marks sit inside the <a>.
  for (const mark of [...marks].sort((a, b) => Number(a.type === 'link') - Number(b.type === 'link'))) {
    const attrs = attrsOf(mark);
    switch (mark.type) {
      case 'strong':
        out = html`<strong>${out}</strong>`;
        break;
      case 'em':
        out = html`<em>${out}</em>`;
        break;
      case 'code':
        out = html`<code>${out}</code>`;
        break;
      case 'strike':
        out = html`<s>${out}</s>`;
        break;
      case 'underline':
        out = html`<u>${out}</u>`;
        break;
      case 'subsup':
        out = attrs.type === 'sub' ? html`<sub>${out}</sub>` : html`<sup>${out}</sup>`;
        break;
      case 'link':
        out = link(safeHref(attrs.href), out);
        break;
      default:
        break; // textColor and unknown marks: the text alone (a colour would need an inline style)
    }
  }
  return out;
}

function children(node: Node, depth: number): Html {
  return html`${(Array.isArray(node.content) ? node.content : []).map((c) => renderNode(c, depth + 1))}`;
}

/** The text under a node, read without recursion (walkText keeps its own stack). */
function plainText(node: Node): string {
  return typeof node.text === 'string' ? node.text : [...walkText(node)].join('');
}

function renderNode(value: unknown, depth: number): Html {
  if (!isNode(value)) return html``;
  const node = value;
  if (depth > MAX_DEPTH) return html`${plainText(node)}`;
  const attrs = attrsOf(node);
  const inner = () => children(node, depth);
  switch (node.type) {
    case 'doc':
      return inner();
    case 'paragraph':
      return html`<p>${inner()}</p>`;
    case 'heading': {
      const level = Number.isInteger(attrs.level) ? Math.min(6, Math.max(1, attrs.level as number)) : 3;
      return new Html(`<h${level}>${inner().text}</h${level}>`);
    }
    case 'bulletList':
      return html`<ul>${inner()}</ul>`;
    case 'orderedList': {
      const start = Number.isInteger(attrs.order) && (attrs.order as number) > 1 ? (attrs.order as number) : undefined;
      return start ? html`<ol start="${start}">${inner()}</ol>` : html`<ol>${inner()}</ol>`;
    }
    case 'listItem':
      return html`<li>${inner()}</li>`;
    case 'codeBlock': {
      const language = str(attrs.language);
      return html`<pre class="code"${language ? html` data-language="${language}"` : ''}><code>${plainText(node)}</code></pre>`;
    }
    case 'blockquote':
      return html`<blockquote>${inner()}</blockquote>`;
    case 'panel':
      return html`<div class="panel panel-${str(attrs.panelType) ?? 'info'}">${inner()}</div>`;
    case 'rule':
      return html`<hr>`;
    case 'table':
      return html`<div class="table"><table>${inner()}</table></div>`;
    case 'tableRow':
      return html`<tr>${inner()}</tr>`;
    case 'tableHeader':
      return html`<th>${inner()}</th>`;
    case 'tableCell':
      return html`<td>${inner()}</td>`;
    case 'text':
      return renderText(node);
    case 'hardBreak':
      return html`<br>`;
    case 'mention':
      return html`<span class="mention">${str(attrs.text) ?? '@someone'}</span>`;
    case 'emoji':
      return html`${str(attrs.text) ?? str(attrs.shortName) ?? ''}`;
    case 'inlineCard': {
      const url = str(attrs.url) ?? '';
      return link(safeHref(url), url);
    }
    default:
      return Array.isArray(node.content) ? inner() : html`${plainText(node)}`;
  }
}

/** A stored ADF document (JSON text or parsed) as HTML; text that is not JSON shows as itself. */
export function adfToHtml(doc: unknown): Html {
  if (typeof doc === 'string') {
    try {
      return renderNode(JSON.parse(doc), 0);
    } catch {
      return html`<p>${doc}</p>`;
    }
  }
  return renderNode(doc, 0);
}
