/** A mark on a text node (strong, em, link…). */
export interface AdfMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/**
 * Any ADF node. Deliberately loose so that documents read back from Jira (which
 * may carry attrs such as `localId`) stay assignable; `validateAdf` is what
 * enforces the schema.
 */
export interface AdfNode {
  type: string;
  content?: AdfNode[];
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: AdfMark[];
}

/** Root of an ADF document, as Jira Cloud REST v3 expects in `description` and comment `body`. */
export interface AdfDoc {
  type: 'doc';
  version: 1;
  content: AdfNode[];
}

export type AdfValidation = { ok: true; doc: AdfDoc } | { ok: false; path: string; message: string };

/** Limits enforced by `validateAdf`; exported so callers can report them. */
export const ADF_LIMITS = {
  /** Top-level blocks are depth 1; anything deeper than this is rejected. */
  maxDepth: 100,
} as const;

// Narrow node shapes produced by the builder. They extend AdfNode, so builder
// output can be used wherever a plain AdfNode is expected.

export interface AdfText extends AdfNode {
  type: 'text';
  text: string;
}
export interface AdfHardBreak extends AdfNode {
  type: 'hardBreak';
}
export interface AdfMention extends AdfNode {
  type: 'mention';
  attrs: { id: string; text?: string };
}
export type AdfInline = AdfText | AdfHardBreak | AdfMention;

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;
export type AdfPanelType = 'info' | 'note' | 'warning' | 'success' | 'error';

export interface AdfParagraph extends AdfNode {
  type: 'paragraph';
  content: AdfInline[];
}
export interface AdfHeading extends AdfNode {
  type: 'heading';
  attrs: { level: HeadingLevel };
  content: AdfInline[];
}
export interface AdfCodeBlock extends AdfNode {
  type: 'codeBlock';
  attrs?: { language: string };
  content?: AdfText[];
}
export interface AdfRule extends AdfNode {
  type: 'rule';
}
export interface AdfListItem extends AdfNode {
  type: 'listItem';
  content: AdfListItemBlock[];
}
export interface AdfBulletList extends AdfNode {
  type: 'bulletList';
  content: AdfListItem[];
}
export interface AdfOrderedList extends AdfNode {
  type: 'orderedList';
  content: AdfListItem[];
}
export interface AdfBlockquote extends AdfNode {
  type: 'blockquote';
  content: AdfListItemBlock[];
}
export interface AdfPanel extends AdfNode {
  type: 'panel';
  attrs: { panelType: AdfPanelType };
  content: AdfPanelBlock[];
}

export interface AdfTableCell extends AdfNode {
  type: 'tableCell' | 'tableHeader';
  content: AdfPanelBlock[];
}
export interface AdfTableRow extends AdfNode {
  type: 'tableRow';
  content: AdfTableCell[];
}
export interface AdfTable extends AdfNode {
  type: 'table';
  content: AdfTableRow[];
}

/** Blocks allowed inside listItem and blockquote. */
export type AdfListItemBlock = AdfParagraph | AdfBulletList | AdfOrderedList | AdfCodeBlock;
/** Blocks allowed inside panel. */
export type AdfPanelBlock = AdfListItemBlock | AdfHeading | AdfRule;
/** Blocks allowed at the top level of a doc. */
export type AdfBlock = AdfPanelBlock | AdfBlockquote | AdfPanel | AdfTable;
