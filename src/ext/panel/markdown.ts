/**
 * The only producer of HTML for the lesson panel. Pack text is markdown written by whoever made the pack,
 * so raw HTML in it is escaped (`html: false`) and only `https:` links become links: `command:` would run
 * an editor command on a click, `vscode://` would hand a URL to another extension, `file:` would open the
 * learner's files. Any other link stays as plain text. Links open outside the panel; images can only be
 * data: or extension resources (CSP).
 */
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });

/** Inline images as markdown-it allows them by default (the CSP admits no other image source anyway). */
const DATA_IMAGE = /^data:image\/(gif|png|jpeg|webp);/;
md.validateLink = (url: string): boolean => {
  const trimmed = url.trim().toLowerCase();
  return trimmed.startsWith('https:') || DATA_IMAGE.test(trimmed);
};

// Open links in a new context so a click never navigates the webview itself away from the panel.
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('target', '_blank');
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/**
 * The panel's state is rebuilt on every change (a check, an answer, a tick), and most of its markdown is the
 * lesson's own text, which does not change: rendering it again each time held the extension host for
 * milliseconds a check should not. Bounded, so a long session's one-off texts do not pile up.
 */
const RENDERED_LIMIT = 1000;
const renderedBlocks = new Map<string, string>();
const renderedInline = new Map<string, string>();

function remembered(cache: Map<string, string>, text: string, render: (text: string) => string): string {
  let html = cache.get(text);
  if (html === undefined) {
    if (cache.size >= RENDERED_LIMIT) cache.clear();
    html = render(text);
    cache.set(text, html);
  }
  return html;
}

/** Block markdown (paragraphs, tables, lists) to HTML. */
export function renderMarkdown(text: string): string {
  return remembered(renderedBlocks, text, (t) => md.render(t));
}

/** One line of markdown (a title, an outcome, a hint) to inline HTML, without a wrapping <p>. */
export function renderInline(text: string): string {
  return remembered(renderedInline, text, (t) => md.renderInline(t));
}
