// Token colours as CSS variables, so style.css picks the light or the dark
// set from prefers-color-scheme without a second theme.

import { HighlightStyle } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

const c = (name: string) => `var(--tok-${name})`;

export const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword, t.definitionKeyword, t.modifier], color: c("keyword") },
  { tag: [t.string, t.special(t.string), t.regexp, t.character], color: c("string") },
  { tag: [t.number, t.bool, t.null, t.atom], color: c("number") },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: c("comment"), fontStyle: "italic" },
  { tag: [t.typeName, t.className, t.namespace, t.standard(t.typeName)], color: c("type") },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName], color: c("function") },
  { tag: [t.definition(t.variableName), t.definition(t.propertyName)], color: c("definition") },
  { tag: [t.propertyName, t.attributeName], color: c("property") },
  { tag: [t.tagName, t.angleBracket], color: c("tag") },
  { tag: [t.heading], color: c("keyword"), fontWeight: "bold" },
  { tag: [t.emphasis], fontStyle: "italic" },
  { tag: [t.strong], fontWeight: "bold" },
  { tag: [t.link, t.url], color: c("string"), textDecoration: "underline" },
  { tag: [t.meta, t.processingInstruction, t.annotation], color: c("meta") },
  { tag: [t.operator, t.punctuation, t.separator], color: c("punct") },
  { tag: t.invalid, color: c("invalid") },
]);
