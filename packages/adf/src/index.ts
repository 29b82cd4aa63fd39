export type {
  AdfBlock,
  AdfBlockquote,
  AdfBulletList,
  AdfCodeBlock,
  AdfDoc,
  AdfHardBreak,
  AdfHeading,
  AdfInline,
  AdfListItem,
  AdfListItemBlock,
  AdfMark,
  AdfMention,
  AdfNode,
  AdfOrderedList,
  AdfPanel,
  AdfPanelBlock,
  AdfPanelType,
  AdfParagraph,
  AdfRule,
  AdfTable,
  AdfTableCell,
  AdfTableRow,
  AdfText,
  AdfValidation,
  HeadingLevel,
} from './types.js';
export { ADF_LIMITS } from './types.js';
export { textToAdf } from './text.js';
export {
  blockquote,
  bulletList,
  code,
  codeBlock,
  doc,
  em,
  hardBreak,
  heading,
  link,
  listItem,
  mention,
  orderedList,
  panel,
  paragraph,
  rule,
  strike,
  strong,
  text,
  underline,
} from './build.js';
export type { InlineArg, ListItemArg } from './build.js';
export { adfToPlainText, firstLineText, walkText } from './walk.js';
export { validateAdf } from './validate.js';
export { markdownToAdf } from './markdown/to-adf.js';
export { MARKDOWN_LIMITS, MarkdownLimitError, type MarkdownLimit } from './markdown/limits.js';
export { adfToText, type TextOptions } from './render/text.js';
